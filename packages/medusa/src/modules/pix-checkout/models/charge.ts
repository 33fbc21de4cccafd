import { model } from "@medusajs/framework/utils";

/**
 * One charge at the payment service and the Medusa payment session it pays for. Written
 * by the provider when it creates (or reuses) the charge, so a webhook can find its session
 * even after Medusa deleted the session; updated only through the state machine.
 */
export const PixCheckoutCharge = model
  .define("pix_checkout_charge", {
    id: model.id({ prefix: "pxch" }).primaryKey(),
    charge_id: model.text().unique(),
    provider_id: model.text(),
    method: model.enum(["pix", "boleto"]),
    variant: model.enum(["a", "b"]),
    session_id: model.text().index(),
    payment_collection_id: model.text().index().nullable(),
    sales_channel_id: model.text().nullable(),
    // A bigint column (Migration20261123140000); the plugin reads it through Number().
    amount_cents: model.number(),
    currency_code: model.text().default("brl"),
    status: model.enum(["pending", "paid", "expired", "failed", "canceled"]).default("pending"),
    expires_at: model.dateTime().nullable(),
    paid_at: model.dateTime().nullable(),
    capture_claimed_at: model.dateTime().nullable(),
    captured_at: model.dateTime().nullable(),
    last_checked_at: model.dateTime().nullable(),
    /** When reconciliation should next ask the API (pending and canceled charges only). */
    next_check_at: model.dateTime().nullable(),
    /** Consecutive failed checks; each backs the row off, the cap flags it. */
    check_failures: model.number().default(0),
    flagged: model.boolean().default(false),
    /** Why it waits for the merchant, as a code (see flag-reasons.ts) and its values. */
    flag_code: model.text().nullable(),
    flag_detail: model.json().nullable(),
    flag_resolved_at: model.dateTime().nullable(),
    flag_resolution_note: model.text().nullable(),
    /** Medusa deleted or replaced the session: the code is no longer offered. */
    superseded_at: model.dateTime().nullable(),
    /** The session a paid superseded charge was captured on (the cart's current one). */
    capture_session_id: model.text().nullable(),
    /** Until when an unpaid boleto keeps its order open (its grace period). */
    order_hold_until: model.dateTime().nullable(),
    /** When this paid cart first failed to become an order; cleared once it did. */
    cart_completion_failed_at: model.dateTime().nullable(),
    /** When retention compacted this finished charge's history (README "Retention"). */
    compacted_at: model.dateTime().nullable(),
    display: model.json().nullable(),
  })
  .indexes([{ on: ["status", "expires_at"] }]);
