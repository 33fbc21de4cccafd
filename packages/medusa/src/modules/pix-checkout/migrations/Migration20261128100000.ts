import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Pix beyond the cart (issue 51): `pix_checkout_charge.purpose`, what the charge's payment
 * collection was for when the charge was made (medusa/order-collections.ts `purposeOf`): a
 * storefront's cart, an order's own total (a converted draft order), or the difference an order
 * edit, exchange, claim or return left owed. The admin, the overview and the books label each
 * charge by it; a later change of the order never relabels a charge. Null on charges made before.
 */
export class Migration20261128100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(UP);
  }

  override async down(): Promise<void> {
    this.addSql(DOWN);
  }
}

const UP = `
alter table pix_checkout_charge add column if not exists purpose text;
alter table pix_checkout_charge add constraint pix_checkout_charge_purpose_check check (
  purpose is null or purpose in ('cart', 'order', 'order_edit', 'exchange', 'claim', 'return')
);
`;

const DOWN = `
alter table pix_checkout_charge drop constraint if exists pix_checkout_charge_purpose_check;
alter table pix_checkout_charge drop column if exists purpose;
`;
