import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Capture claims become leases. `captured_at` used to double as the claim, so a process that
 * died between claiming and capturing left a paid charge uncaptured for good. The claim now
 * has its own column and lapses (see Charges.claimCapture); `captured_at` means done.
 */
export class Migration20261121090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "capture_claimed_at" timestamptz null;`,
    );
    // Existing claims were only ever kept after a finished capture, or by a dead process.
    this.addSql(
      `update "pix_checkout_charge" set "capture_claimed_at" = "captured_at" where "captured_at" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" drop column if exists "capture_claimed_at";`,
    );
  }
}
