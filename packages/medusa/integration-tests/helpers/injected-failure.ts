import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * Runs `work` while PostgreSQL fails a write, as a crash, an outage or Medusa's refusal would:
 * `sql` creates a trigger whose function is `$fn` (named `name`, raising "injected: <name>").
 * The trigger and its function are dropped whatever `work` does, so no test leaves the failure
 * behind for the next.
 */
export async function withFailure<T>(
  knex: Knex,
  name: string,
  sql: string,
  work: () => Promise<T>,
): Promise<T> {
  await knex.raw(
    `create or replace function ${name}() returns trigger as $$ begin raise exception 'injected: ${name}'; end $$ language plpgsql`,
  );
  try {
    await knex.raw(sql.replace("$fn", `${name}()`));
    return await work();
  } finally {
    await knex.raw(`drop function if exists ${name}() cascade`);
  }
}

/** `withFailure` refusing every insert into `table` (Medusa's `payment`, `capture`, ...). */
export function withRefusedInserts<T>(
  knex: Knex,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  const name = `pix_test_refuse_${table}`;
  return withFailure(
    knex,
    name,
    `create trigger ${name} before insert on ${table} for each row execute function $fn`,
    work,
  );
}
