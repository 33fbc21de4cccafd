import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A delivery that can never be processed (its provider registration was renamed or removed, its
 * body cannot be read) is finished as `failed` instead of being retried at the head of every
 * batch.
 */
export class Migration20261123130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_webhook_delivery" drop constraint if exists "pix_checkout_webhook_delivery_outcome_check";`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_webhook_delivery" add constraint "pix_checkout_webhook_delivery_outcome_check" check ("outcome" in ('received', 'processed', 'duplicate', 'forged', 'unmatched', 'recorded', 'error', 'failed'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "pix_checkout_webhook_delivery" set "outcome" = 'error' where "outcome" = 'failed';`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_webhook_delivery" drop constraint if exists "pix_checkout_webhook_delivery_outcome_check";`,
    );
    this.addSql(
      `alter table if exists "pix_checkout_webhook_delivery" add constraint "pix_checkout_webhook_delivery_outcome_check" check ("outcome" in ('received', 'processed', 'duplicate', 'forged', 'unmatched', 'recorded', 'error'));`,
    );
  }
}
