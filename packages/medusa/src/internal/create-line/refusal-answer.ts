import type { MedusaResponse } from "@medusajs/framework/http";
import { sendError } from "../platform/errors";
import type { WaitingRefusal } from "./queue";

/**
 * Answers a session request the create line refused a place: 429 `too_many_waiting_creates`
 * with `Retry-After` (whole seconds, readable by cross-origin storefronts) and `over`, the cap
 * it met. The same answer whether the early refusal or the admission under locks refused it.
 */
export function sendWaitingRefusal(res: MedusaResponse, refusal: WaitingRefusal): void {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  res.setHeader("Retry-After", String(seconds));
  // Cross-origin storefronts must be able to read it to show when to try again.
  res.setHeader("Access-Control-Expose-Headers", "Retry-After");
  sendError(res, "too_many_waiting_creates", messageOf(refusal), { over: refusal.over });
}

function messageOf(refusal: WaitingRefusal): string {
  if (refusal.waitedMs !== undefined) {
    return `This address already had a turn this minute and its request waited ${Math.round(refusal.waitedMs / 1000)} s behind other shoppers' without one; nothing was made. Try again after Retry-After seconds.`;
  }
  if (refusal.earlier) {
    return "This address was refused a place in line a moment ago and may ask again only after Retry-After seconds, even if a place frees sooner; nothing was made.";
  }
  if (refusal.over === "store") {
    return `The store has ${refusal.waiting} Pix codes or boletos waiting to be created (a busy minute; its last places are kept for shoppers with none waiting); nothing was made. Try again after Retry-After seconds.`;
  }
  return `This ${refusal.over === "client" ? "address" : "e-mail"} already has ${refusal.waiting} Pix codes or boletos waiting to be created; wait for them, or try again after Retry-After seconds.`;
}
