import { randomBytes, randomUUID } from "node:crypto";

/**
 * A new charge's identifiers. Variant B's `ch_svc_<opaque>` is the UUID without dashes, so
 * `GET /v1/charges/{id}` in Variant B can accept the full UUID and prefixes of either form.
 */
export function newChargeIds(): { uuid: string; id: string; txid: string } {
  const uuid = randomUUID();
  const opaque = uuid.replaceAll("-", "");
  // A BR Code txid is 1..25 characters of [A-Za-z0-9]; 25 hex digits are unique enough here.
  return { uuid, id: `ch_svc_${opaque}`, txid: opaque.slice(0, 25) };
}

/** A new withdrawal's identifiers: `uuid` (Variant A) and `wd_svc_<opaque>` (Variant B). */
export function newWithdrawalIds(): { uuid: string; id: string } {
  const uuid = randomUUID();
  return { uuid, id: `wd_svc_${uuid.replaceAll("-", "")}` };
}

/** An opaque id for a webhook event or delivery attempt, e.g. `evt_3f9c...`. */
export function newOpaqueId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}
