import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/*
 * The plugin's schema as Postgres itself describes it, as SQL: every `pix_checkout_*` table
 * with its columns in order, its constraints, indexes, sequences and triggers, and the plugin's
 * functions, each in Postgres's own words (format_type, pg_get_constraintdef, pg_indexes,
 * pg_get_triggerdef, pg_get_functiondef), sorted by name so two databases with the same schema
 * give the same text. src/modules/pix-checkout/schema.sql is this text for a fresh database.
 */

const PREFIX = "pix_checkout%";

type Row = Record<string, string | boolean | null>;

async function rows(db: Knex, sql: string): Promise<Row[]> {
  return (await db.raw(sql, [PREFIX])).rows as Row[];
}

export async function describePluginSchema(db: Knex): Promise<string> {
  const out: string[] = [
    "-- The plugin's tables as `npx medusa db:migrate` leaves a fresh database, described by",
    "-- Postgres itself (integration-tests/helpers/plugin-schema.ts). A test migrates a fresh",
    "-- database and compares: a new migration changes this file, and the diff is the change.",
    "-- Regenerate: UPDATE_PLUGIN_SCHEMA=1 DB_HOST=localhost npx vitest run --project medusa packages/medusa/integration-tests/http/boot.test.ts",
    "",
  ];
  const sequences = await rows(
    db,
    `select s.relname, t.relname as owner_table, a.attname as owner_column
       from pg_class s join pg_namespace n on n.oid = s.relnamespace
       left join pg_depend d on d.objid = s.oid and d.deptype = 'a'
       left join pg_class t on t.oid = d.refobjid
       left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where n.nspname = current_schema() and s.relkind = 'S' and s.relname like ? order by 1`,
  );
  for (const sequence of sequences) {
    out.push(`CREATE SEQUENCE ${sequence.relname};`);
    if (sequence.owner_table) {
      out.push(
        `ALTER SEQUENCE ${sequence.relname} OWNED BY ${sequence.owner_table}.${sequence.owner_column};`,
      );
    }
    out.push("");
  }
  const tables = await rows(
    db,
    `select c.oid::int as oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and c.relname like ? order by 2`,
  );
  for (const table of tables) {
    const columns = (
      await db.raw(
        `select a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull,
                pg_get_expr(d.adbin, d.adrelid) as default
           from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          where a.attrelid = ? and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        [Number(table.oid)],
      )
    ).rows as Row[];
    const lines = columns.map(
      (c) =>
        `  ${c.attname} ${c.type}${c.default ? ` DEFAULT ${c.default}` : ""}${c.attnotnull ? " NOT NULL" : ""}`,
    );
    out.push(`CREATE TABLE ${table.relname} (`, lines.join(",\n"), ");");
    const constraints = (
      await db.raw(
        `select conname, pg_get_constraintdef(oid) as def from pg_constraint
          where conrelid = ? order by conname`,
        [Number(table.oid)],
      )
    ).rows as Row[];
    for (const c of constraints) {
      out.push(`ALTER TABLE ${table.relname} ADD CONSTRAINT ${c.conname} ${c.def};`);
    }
    const indexes = (
      await db.raw(
        `select i.indexname, i.indexdef from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = ?
            and not exists (select 1 from pg_constraint k where k.conname = i.indexname)
          order by i.indexname`,
        [String(table.relname)],
      )
    ).rows as Row[];
    for (const index of indexes) out.push(`${String(index.indexdef).replaceAll("public.", "")};`);
    const triggers = (
      await db.raw(
        `select tgname, pg_get_triggerdef(oid) as def from pg_trigger
          where tgrelid = ? and not tgisinternal order by tgname`,
        [Number(table.oid)],
      )
    ).rows as Row[];
    for (const trigger of triggers) out.push(`${String(trigger.def).replaceAll("public.", "")};`);
    out.push("");
  }
  const functions = await rows(
    db,
    `select p.proname, pg_get_functiondef(p.oid) as def from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.proname like ? order by 1`,
  );
  for (const fn of functions) out.push(`${String(fn.def).replaceAll("public.", "").trim()};`, "");
  return out.join("\n");
}
