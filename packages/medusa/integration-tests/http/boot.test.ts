import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import path from "node:path";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { runAlone } from "../../src/internal/records/job-lock";
import { describePluginSchema } from "../helpers/plugin-schema";
import { Migration20261126000000 } from "../../src/modules/pix-checkout/migrations/Migration20261126000000";
import { Ledger } from "../../src/internal/records/ledger";
import { PostgresAdvisoryLockProvider } from "@medusajs/locking-postgres/dist/services/advisory-lock";
import reconcilePixCheckout from "../../src/jobs/reconcile-pix-checkout";

const moduleDir = path.join(__dirname, "..", "..", "src", "modules", "pix-checkout");

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    it("answers the health check with the plugin installed", async () => {
      const response = await api.get("/health");
      expect(response.status).toBe(200);
    });

    it("registers pix and boleto for a Variant A account and only pix for Variant B", async () => {
      const payment = getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const providers = await payment.listPaymentProviders();
      const ids = providers.map((provider) => provider.id).sort();
      expect(ids).toEqual(expect.arrayContaining(["pp_boleto_a", "pp_pix_a", "pp_pix_b"]));
      expect(ids).not.toContain("pp_boleto_b");
    });

    it("migrates a fresh database to exactly the schema in src/modules/pix-checkout/schema.sql", async () => {
      const db = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      const described = await describePluginSchema(db);
      const file = path.join(moduleDir, "schema.sql");
      if (process.env.UPDATE_PLUGIN_SCHEMA === "1") writeFileSync(file, described);
      expect(described).toBe(readFileSync(file, "utf8"));
      // 0.1.0's baseline, the ledger after it, the line's refusals, the recovery links' counts,
      // the unpaid orders' caps, the charges' purpose, a replaced code's notice, and each ran.
      const migrations = readdirSync(path.join(moduleDir, "migrations"))
        .filter((name) => /^Migration\d+\.ts$/.test(name))
        .map((name) => name.replace(/\.ts$/, ""))
        .sort();
      expect(migrations).toEqual([
        "Migration20261125000000",
        "Migration20261126000000",
        "Migration20261127100000",
        "Migration20261127140000",
        "Migration20261127160000",
        "Migration20261128100000",
        "Migration20261129100000",
      ]);
      const recorded = await db("mikro_orm_migrations").whereIn("name", migrations).pluck("name");
      expect(recorded.sort()).toEqual(migrations);
    });

    // 0.1.0's charges carried into the ledger: a merchant upgrading keeps every figure and the
    // books of past days. Run in one transaction that is rolled back (Postgres DDL is
    // transactional), so the database the other tests use is left as it was.
    it("carries 0.1.0's charges into the ledger: balances, entries that add up to them, and each declared refund dated and named as before", async () => {
      const db = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      const migration = new Migration20261126000000(undefined as never, undefined as never);
      await migration.down();
      const down = migration.getQueries().join(";\n");
      migration.reset();
      await migration.up();
      const up = migration.getQueries().join(";\n");
      const paidAt = new Date("2026-11-20T13:00:00Z");
      const t1 = new Date("2026-11-21T10:00:00Z");
      const t2 = new Date("2026-11-22T10:00:00Z");
      const rollback = new Error("rollback");
      await expect(
        db.transaction(async (trx) => {
          await trx.raw(down);
          // [id, settlement, settlement_reason, asked, received, Medusa captured]
          const old: [string, string, string | null, number, number, boolean][] = [
            ["captured", "captured", null, 5000, 5000, true],
            ["overpaid", "captured", null, 5000, 5500, true],
            ["canceled", "refund_due", "order_canceled", 3000, 3000, true],
            ["twice", "refund_due", "paid_twice", 4000, 4000, false],
            ["refunded", "refunded", null, 2000, 2000, true],
            ["held", "held", "underpaid", 2000, 1500, false],
            ["accepted", "capturable", "accepted", 2000, 1500, false],
          ];
          for (const [id, settlement, reason, asked, received, captured] of old) {
            await trx("pix_checkout_charge").insert({
              id: `pxch_${id}`,
              charge_id: `ch_${id}`,
              provider_id: "pp_pix_a",
              method: "pix",
              variant: "a",
              session_id: `payses_${id}`,
              payment_collection_id: `pay_col_${id}`,
              amount_cents: asked,
              api_amount_cents: received,
              status: "paid",
              paid_at: new Date(paidAt.getTime() + 60_000),
              api_paid_at: paidAt,
              captured_at: captured ? paidAt : null,
              settlement,
              settlement_reason: reason,
            });
          }
          const declare = (id: string, chargeId: string, cents: number, at: Date) =>
            trx("pix_checkout_charge_event").insert({
              id,
              charge_id: chargeId,
              kind: "refund_declared",
              source: "admin",
              detail: JSON.stringify({ amount_cents: cents, note: "devolvido" }),
              created_at: at,
              updated_at: at,
            });
          await declare("pxev_canceled_1", "ch_canceled", 1000, t1);
          await declare("pxev_twice_1", "ch_twice", 1500, t1);
          await declare("pxev_twice_2", "ch_twice", 2500, t2);
          await trx.raw(up);

          const rows = await trx("pix_checkout_charge")
            .whereIn(
              "charge_id",
              old.map(([id]) => `ch_${id}`),
            )
            .select("charge_id", "received_cents", "held_cents", "held_reason", "captured_cents")
            .select("owed_cents", "owed_reason", "returned_cents");
          const parts = (id: string) => {
            const row = rows.find((r) => r.charge_id === `ch_${id}`)!;
            return [
              Number(row.received_cents),
              Number(row.held_cents),
              Number(row.captured_cents),
              Number(row.owed_cents),
              Number(row.returned_cents),
              row.held_reason ?? row.owed_reason,
            ];
          };
          // received, held, captured, owed, returned, and the reason of what waits.
          expect(parts("captured")).toEqual([5000, 0, 5000, 0, 0, null]);
          expect(parts("overpaid")).toEqual([5500, 0, 5000, 500, 0, "overpaid"]);
          expect(parts("canceled")).toEqual([3000, 0, 0, 2000, 1000, "order_canceled"]);
          expect(parts("twice")).toEqual([4000, 0, 0, 0, 4000, null]);
          expect(parts("refunded")).toEqual([2000, 0, 0, 0, 2000, null]);
          expect(parts("held")).toEqual([1500, 1500, 0, 0, 0, "underpaid"]);
          expect(parts("accepted")).toEqual([1500, 1500, 0, 0, 0, "accepted"]);

          const entries = await trx("pix_checkout_ledger_entry")
            .whereIn(
              "charge_id",
              old.map(([id]) => `ch_${id}`),
            )
            .orderBy("seq");
          // Every charge's entries add up to its balances, part by part.
          for (const [id] of old) {
            const mine = entries.filter((e) => e.charge_id === `ch_${id}`);
            const into = (part: string) =>
              mine
                .filter((e) => e.to_part === part)
                .reduce((s, e) => s + Number(e.amount_cents), 0) -
              mine
                .filter((e) => e.from_part === part)
                .reduce((s, e) => s + Number(e.amount_cents), 0);
            const arrived = mine
              .filter((e) => e.from_part === null)
              .reduce((s, e) => s + Number(e.amount_cents), 0);
            const [received, held, captured, owed, returned] = parts(id);
            expect(
              [arrived, into("held"), into("captured"), into("owed"), into("returned")],
              id,
            ).toEqual([received, held, captured, owed, returned]);
          }
          // What Medusa captured went into `captured`, dated when the service says it was paid.
          const capturedIn = entries.filter((e) => e.to_part === "captured");
          expect(capturedIn.map((e) => [e.charge_id, Number(e.amount_cents)]).sort()).toEqual([
            ["ch_canceled", 3000],
            ["ch_captured", 5000],
            ["ch_overpaid", 5000],
            ["ch_refunded", 2000],
          ]);
          expect(
            capturedIn.every((e) => new Date(e.created_at).getTime() === paidAt.getTime()),
          ).toBe(true);
          // Each declaration is an entry with its id and time; Medusa's money says so.
          const returns = entries
            .filter((e) => e.to_part === "returned")
            .map((e) => [
              e.id,
              e.from_part,
              Number(e.amount_cents),
              e.medusa_ref,
              new Date(e.created_at).toISOString(),
            ]);
          expect(returns).toEqual(
            expect.arrayContaining([
              ["pxev_canceled_1", "captured", 1000, "before-ledger", t1.toISOString()],
              ["pxev_twice_1", null, 1500, null, t1.toISOString()],
              ["pxev_twice_2", null, 2500, null, t2.toISOString()],
              [
                "pxle_open_returned_pxch_refunded",
                "captured",
                2000,
                "before-ledger",
                paidAt.toISOString(),
              ],
            ]),
          );
          expect(returns).toHaveLength(4);
          // Owed money of an order canceled after its capture is Medusa's to refund.
          expect(await new Ledger(trx).owedInMedusa("ch_canceled")).toBe(2000);
          expect(await new Ledger(trx).owedInMedusa("ch_overpaid")).toBe(0);
          throw rollback;
        }),
      ).rejects.toBe(rollback);
    });

    // The scheduled jobs' "one pass at a time" (records/job-lock.ts): Medusa's locking from
    // 2.21, the plugin's own lease before it, where Medusa's lock lapses after the wait.
    it.each([
      ["Medusa's locking (2.21 and later)", true],
      ["the plugin's lease (before 2.21)", false],
    ])("%s keeps a job's pass alone for longer than the wait", async (_, medusaLock) => {
      const container = getContainer();
      const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      const key = `pix-checkout:test-alone:${medusaLock}`;
      const limits = { waitSeconds: 1, deadHolderSeconds: 30, passSeconds: 30 };
      let finish!: () => void;
      let begun!: () => void;
      const hasBegun = new Promise<void>((resolve) => (begun = resolve));
      const first = runAlone(
        container,
        db,
        key,
        () =>
          new Promise<string>((resolve) => {
            finish = () => resolve("first");
            begun();
          }),
        limits,
        medusaLock,
      );
      await hasBegun;
      // Past the first pass's wait: the lock of Medusa before 2.21 would have lapsed by now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await runAlone(container, db, key, async () => "second", limits, medusaLock)).toEqual({
        ran: false,
      });
      finish();
      expect(await first).toEqual({ ran: true, value: "first" });
      expect(await runAlone(container, db, key, async () => "third", limits, medusaLock)).toEqual({
        ran: true,
        value: "third",
      });
    });

    // Medusa's locking-postgres keeps an `acquire` lock as a row with an expiry, and its acquire
    // refuses another owner's row even past that expiry: a cart workflow whose release met a
    // Postgres restart left the cart locked for good in the chaos run. The reconciliation job
    // frees such rows (medusa/lapsed-locks.ts); the provider here is Medusa's own, on this
    // database, with the table its migration creates.
    it("frees a locking-postgres cart lock its holder never released once it is past its expiry, and only that one", async () => {
      const container = getContainer();
      const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      await db.raw(
        `create table if not exists "locking" ("id" text not null, "owner_id" text null, "expiration" timestamptz null, constraint "locking_pkey" primary key ("id"))`,
      );
      try {
        // The provider's SQL through its manager, as MikroORM's `execute` runs it.
        const provider = Object.assign(Object.create(PostgresAdvisoryLockProvider.prototype), {
          manager: {
            execute: async (sql: string, params: unknown[] = []) =>
              (await db.raw(sql, params as Knex.RawBinding[])).rows,
          },
        }) as PostgresAdvisoryLockProvider;
        // As acquireLockStep takes a cart: no owner, an expiry (10 s there, 1 s here).
        await provider.acquire("cart_left_locked", { expire: 1 });
        await provider.acquire("cart_in_checkout", { expire: 600 });
        await provider.acquire("lock_without_expiry", { ownerId: "someone" });
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        // Past its expiry, the row still refuses every other taker: Medusa's behaviour.
        await expect(provider.acquire("cart_left_locked", { expire: 10 })).rejects.toThrow(
          'Failed to acquire lock for key "cart_left_locked"',
        );

        await reconcilePixCheckout(container);

        await expect(provider.acquire("cart_left_locked", { expire: 10 })).resolves.toBeUndefined();
        await expect(provider.acquire("cart_in_checkout", { expire: 10 })).rejects.toThrow(
          "Failed to acquire lock",
        );
        expect(await db("locking").orderBy("id").pluck("id")).toEqual([
          "cart_in_checkout",
          "cart_left_locked",
          "lock_without_expiry",
        ]);
      } finally {
        await db.raw(`drop table if exists "locking"`);
      }
    });
  },
});
