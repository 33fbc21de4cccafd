import { model } from "@medusajs/framework/utils";

/** The timeline of one charge: deliveries, verifications, state changes, flags. */
export const PixCheckoutChargeEvent = model.define("pix_checkout_charge_event", {
  id: model.id({ prefix: "pxev" }).primaryKey(),
  charge_id: model.text().index(),
  kind: model.text(),
  from_status: model.text().nullable(),
  to_status: model.text().nullable(),
  source: model.text(),
  detail: model.json().nullable(),
});
