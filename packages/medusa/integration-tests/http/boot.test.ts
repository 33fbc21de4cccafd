import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import path from "node:path";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { runAlone } from "../../src/internal/records/job-lock";
import { describePluginSchema } from "../helpers/plugin-schema";

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
      // 0.1.0's baseline and the ledger after it, and each ran.
      const migrations = readdirSync(path.join(moduleDir, "migrations"))
        .filter((name) => /^Migration\d+\.ts$/.test(name))
        .map((name) => name.replace(/\.ts$/, ""))
        .sort();
      expect(migrations).toEqual(["Migration20261125000000", "Migration20261126000000"]);
      const recorded = await db("mikro_orm_migrations").whereIn("name", migrations).pluck("name");
      expect(recorded.sort()).toEqual(migrations);
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
      const limits = { waitSeconds: 1, expireSeconds: 30 };
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
  },
});
