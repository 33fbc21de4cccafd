import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import path from "node:path";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { runAlone } from "../../src/internal/records/job-lock";
import { describePluginSchema } from "../helpers/plugin-schema";
import { Migration20261130000000 } from "../../src/modules/pix-checkout/migrations/Migration20261130000000";
import { Migration20261130100000 } from "../../src/modules/pix-checkout/migrations/Migration20261130100000";
import { Migration20261130200000 } from "../../src/modules/pix-checkout/migrations/Migration20261130200000";
import { Migration20261201000000 } from "../../src/modules/pix-checkout/migrations/Migration20261201000000";
import { Migration20261201100000 } from "../../src/modules/pix-checkout/migrations/Migration20261201100000";
import { Migration20261202000000 } from "../../src/modules/pix-checkout/migrations/Migration20261202000000";
import { Migration20261203000000 } from "../../src/modules/pix-checkout/migrations/Migration20261203000000";
import { Migration20261204000000 } from "../../src/modules/pix-checkout/migrations/Migration20261204000000";
import { Migration20261205000000 } from "../../src/modules/pix-checkout/migrations/Migration20261205000000";
import { Migration20261206000000 } from "../../src/modules/pix-checkout/migrations/Migration20261206000000";
import { PostgresAdvisoryLockProvider } from "@medusajs/locking-postgres/dist/services/advisory-lock";
import reconcilePixCheckout from "../../src/jobs/reconcile-pix-checkout";

const moduleDir = path.join(__dirname, "..", "..", "src", "modules", "pix-checkout");

/** A ledger entry for the tests that try to change one (in a transaction they roll back). */
const ENTRY = {
  id: "pxle_boot_test",
  charge_id: "ch_boot_test",
  to_part: "held",
  amount_cents: 1000,
  reason: "awaiting_capture",
  door: "webhook",
};
const entryOf = (db: Knex) => db("pix_checkout_ledger_entry").where({ id: ENTRY.id });
const APPEND_ONLY = /pix_checkout_ledger_entry is append-only/;

/**
 * The message of the error `write` ends with, or null when it succeeds. Run in a savepoint, so
 * the transaction `trx` goes on after a refusal.
 */
async function refusedIn(
  trx: Knex.Transaction,
  write: (savepoint: Knex.Transaction) => Promise<unknown>,
): Promise<string | null> {
  return trx.transaction(write).then(
    () => null,
    (error: Error) => error.message,
  );
}

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
      // 0.1.0's baseline, the kept orders' column, the ledger entries' note, the MED's contested
      // part, the charge's buyer document, the MED's owed money after it, and who vouched for a
      // create and for a place held in the line, and each ran.
      const migrations = readdirSync(path.join(moduleDir, "migrations"))
        .filter((name) => /^Migration\d+\.ts$/.test(name))
        .map((name) => name.replace(/\.ts$/, ""))
        .sort();
      expect(migrations).toEqual([
        "Migration20261130000000",
        "Migration20261130100000",
        "Migration20261130200000",
        "Migration20261201000000",
        "Migration20261201100000",
        "Migration20261202000000",
        "Migration20261203000000",
        "Migration20261204000000",
        "Migration20261205000000",
        "Migration20261206000000",
      ]);
      const recorded = await db("mikro_orm_migrations").whereIn("name", migrations).pluck("name");
      expect(recorded.sort()).toEqual(migrations);
    });

    // 0.1.0's baseline adopts a database the seven migrations before it made completely and
    // refuses one they left halfway, with the way out CHANGELOG.md gives. The seven are gone:
    // their schema is what the baseline makes of a fresh database less what it adds to an adopted
    // one (the baseline's first commit checked that a fresh migrate still described as schema.sql
    // did). Run in one transaction that is rolled back (Postgres DDL is transactional), so the
    // database the other tests use is left as it was.
    it("adopts a database the seven migrations before 0.1.0 made completely, and refuses one they left halfway with CHANGELOG.md's reset", async () => {
      const db = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      const changelog = readFileSync(
        path.join(moduleDir, "..", "..", "..", "CHANGELOG.md"),
        "utf8",
      );
      const reset =
        /### From a build of this repository made before 0\.1\.0[\s\S]*?```sql\n([\s\S]*?)```/
          .exec(changelog)?.[1]
          ?.trim();
      expect(reset).toBeDefined();
      // The baseline's queries when its look at the database answers `look`.
      type Look = (sql: string) => Promise<Record<string, unknown>[]>;
      const plan = async (look: Look): Promise<string[]> => {
        const migration = new Migration20261130000000(undefined as never, undefined as never);
        Object.assign(migration, { execute: look });
        await migration.up();
        return migration.getQueries().map(String);
      };
      const fresh = await plan(async () => [{ tables: false, recorded: 0 }]);
      const adopt = await plan(async () => [{ tables: true, recorded: 7 }]);
      const chain = fresh.filter((sql) => !adopt.includes(sql));
      const oldNames = [
        "Migration20261125000000",
        "Migration20261126000000",
        "Migration20261127100000",
        "Migration20261127140000",
        "Migration20261127160000",
        "Migration20261128100000",
        "Migration20261129100000",
      ];
      const rollback = new Error("rollback");
      await expect(
        db.transaction(async (trx) => {
          const look: Look = async (sql) => (await trx.raw(sql)).rows;
          // The way out leaves nothing of the plugin's, and the baseline then makes it afresh.
          await trx.raw(reset!);
          const left = await trx.raw(
            `select (select count(*) from pg_class where starts_with(relname, 'pix_checkout'))
                  + (select count(*) from pg_proc where starts_with(proname, 'pix_checkout')) as n`,
          );
          expect(Number(left.rows[0].n)).toBe(0);
          expect(await plan(look)).toEqual(fresh);

          // The seven's schema with none of them recorded (a build older than them), then all
          // but the last: refused, with the reset in the message.
          for (const sql of chain) await trx.raw(sql);
          for (const recorded of [0, 6]) {
            await trx("mikro_orm_migrations").whereIn("name", oldNames).delete();
            for (const name of oldNames.slice(0, recorded)) {
              await trx("mikro_orm_migrations").insert({ name });
            }
            const refused = await plan(look).catch((error: Error) => error);
            expect(refused).toBeInstanceOf(Error);
            expect((refused as Error).message).toContain(
              `${recorded} of the 7 migrations 0.1.0 adopts`,
            );
            expect((refused as Error).message).toContain(reset!);
          }

          // All seven: adopted, and the schema is a fresh database's. Their rows as they were:
          // an entry, and charges whose capture claim settlement, the provider's authorize or
          // no door holds.
          await trx("pix_checkout_ledger_entry").insert(ENTRY);
          const claims: [string, string | null][] = [
            ["settlement", "capture 0b7f8f0e-3c59-4f7e-9d1a-2f9d3c1a6e11"],
            ["authorize", "authorize payses_boot_authorize"],
            ["none", null],
          ];
          // And creates that failed (with and without an end time), one done, one waiting.
          const failedAt = new Date("2026-11-20T10:00:00Z");
          const creates: [string, string, Date | null][] = [
            ["failed", "failed", failedAt],
            ["failed_no_end", "failed", null],
            ["done", "done", failedAt],
            ["waiting", "waiting", null],
          ];
          for (const [name, state, doneAt] of creates) {
            await trx("pix_checkout_create_request").insert({
              id: `pxcr_boot_${name}`,
              budget_key: "boot",
              provider_key: "a",
              provider_id: "pp_pix_a",
              method: "pix",
              session_id: `payses_boot_${name}`,
              amount_cents: 1000,
              state,
              done_at: doneAt,
            });
          }
          for (const [name, holder] of claims) {
            await trx("pix_checkout_charge").insert({
              id: `pxch_boot_${name}`,
              charge_id: `ch_boot_${name}`,
              provider_id: "pp_pix_a",
              method: "pix",
              variant: "a",
              session_id: `payses_boot_${name}`,
              amount_cents: 1000,
              capture_claimed_by: holder,
              capture_claimed_at: holder ? new Date() : null,
            });
          }
          await trx("mikro_orm_migrations").insert({ name: oldNames[6] });
          expect(await plan(look)).toEqual(adopt);
          for (const sql of adopt) await trx.raw(sql);
          // The migrations after the baseline run on an adopted database as on a fresh one.
          for (const after of [
            new Migration20261130100000(undefined as never, undefined as never),
            new Migration20261130200000(undefined as never, undefined as never),
            new Migration20261201000000(undefined as never, undefined as never),
            new Migration20261201100000(undefined as never, undefined as never),
            new Migration20261202000000(undefined as never, undefined as never),
            new Migration20261203000000(undefined as never, undefined as never),
            new Migration20261204000000(undefined as never, undefined as never),
            new Migration20261205000000(undefined as never, undefined as never),
            new Migration20261206000000(undefined as never, undefined as never),
          ]) {
            await after.up();
            for (const sql of after.getQueries().map(String)) await trx.raw(sql);
          }
          expect(await describePluginSchema(trx)).toBe(
            readFileSync(path.join(moduleDir, "schema.sql"), "utf8"),
          );
          // A claim's door comes from its holder's prefix.
          expect(
            await trx("pix_checkout_charge")
              .whereIn(
                "id",
                claims.map(([name]) => `pxch_boot_${name}`),
              )
              .orderBy("id")
              .select("id", "capture_claim_door"),
          ).toEqual([
            { id: "pxch_boot_authorize", capture_claim_door: "authorize" },
            { id: "pxch_boot_none", capture_claim_door: null },
            { id: "pxch_boot_settlement", capture_claim_door: "settlement" },
          ]);
          // A create that failed before counts as decided when it ended (or at the adoption).
          const decided = await trx("pix_checkout_create_request")
            .where("id", "like", "pxcr_boot_%")
            .select("id", "failure_decided_at", trx.raw("now() as adopted_at"));
          const decidedOf = (name: string) => decided.find((r) => r.id === `pxcr_boot_${name}`);
          expect(decidedOf("failed").failure_decided_at).toEqual(failedAt);
          expect(decidedOf("failed_no_end").failure_decided_at).toEqual(
            decidedOf("failed_no_end").adopted_at,
          );
          expect(decidedOf("done").failure_decided_at).toBeNull();
          expect(decidedOf("waiting").failure_decided_at).toBeNull();
          // An entry written before the adoption is append-only too.
          expect(await refusedIn(trx, (sp) => entryOf(sp).update({ medusa_ref: "x" }))).toMatch(
            APPEND_ONLY,
          );
          throw rollback;
        }),
      ).rejects.toBe(rollback);
    });

    // The ledger's entries are append-only, held by the database itself (a trigger): whatever a
    // writer does, an entry stays as written, and a correction is a new entry.
    it("refuses to update, delete or truncate a ledger entry", async () => {
      const db = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      const rollback = new Error("rollback");
      await expect(
        db.transaction(async (trx) => {
          await trx("pix_checkout_ledger_entry").insert(ENTRY);
          expect(await refusedIn(trx, (sp) => entryOf(sp).update({ medusa_ref: "x" }))).toMatch(
            /append-only: UPDATE refused.*a correction is a new entry/,
          );
          expect(await refusedIn(trx, (sp) => entryOf(sp).delete())).toMatch(
            /append-only: DELETE refused.*a correction is a new entry/,
          );
          expect(
            await refusedIn(trx, (sp) => sp.raw("truncate pix_checkout_ledger_entry")),
          ).toMatch(/append-only: TRUNCATE refused.*a correction is a new entry/);
          expect(await entryOf(trx).first()).toMatchObject({
            amount_cents: "1000",
            medusa_ref: null,
          });
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
        // Past its expiry, the row still refuses every other taker: Medusa's behaviour. This
        // server's own reconciliation (every 15 s) may have freed it already: then no lapsed row
        // is left to refuse anyone, and the pass below is what is checked.
        if (await db("locking").where({ id: "cart_left_locked" }).first()) {
          await expect(provider.acquire("cart_left_locked", { expire: 10 })).rejects.toThrow(
            'Failed to acquire lock for key "cart_left_locked"',
          );
        }

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
