import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `pix_checkout_ledger_entry.note`: what the merchant wrote about the money an entry moved (how
 * a refund was returned: "Pix devolvido pelo painel em 26/11"). The note explains the entry and
 * never holds money; the charge's timeline and the books (the CSV's column, the OFX's memo)
 * read it from the entries that returned the money. Adding a column is no UPDATE, so the
 * append-only trigger stands; entries written before have none.
 */
export class Migration20261130200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_ledger_entry" add column if not exists "note" text null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "pix_checkout_ledger_entry" drop column if exists "note";`);
  }
}
