import { model } from "@medusajs/framework/utils";

/**
 * Every webhook delivery, stored before the route answers 200, so a crash after the answer
 * loses nothing: unprocessed deliveries are picked up again by the reconciliation job.
 */
export const PixCheckoutWebhookDelivery = model
  .define("pix_checkout_webhook_delivery", {
    id: model.id({ prefix: "pxwh" }).primaryKey(),
    provider_key: model.text(),
    event: model.text(),
    charge_id: model.text().index().nullable(),
    body: model.json(),
    outcome: model
      .enum([
        "received",
        "processed",
        "duplicate",
        "forged",
        "unmatched",
        "recorded",
        "error",
        "failed",
      ])
      .default("received"),
    detail: model.text().nullable(),
    attempts: model.number().default(0),
    processed_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["outcome"] }]);
