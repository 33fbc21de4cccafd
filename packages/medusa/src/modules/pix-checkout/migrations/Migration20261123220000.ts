import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Sends of a create request: a request refused by a passing failure (a 5xx, a timeout) goes
 * back to its place in line and is sent again, up to a cap, instead of failing its shopper.
 */
export class Migration20261123220000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_create_request" add column if not exists "attempts" integer not null default 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_create_request" drop column if exists "attempts";`,
    );
  }
}
