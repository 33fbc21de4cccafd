import { z } from "zod";

// The records the sandbox keeps. They are zod schemas because the state file crosses a process
// boundary: a restart parses what an earlier run wrote, and a hand-edited file fails loudly.

/** Status words of a charge, verbatim from the spec. */
export const chargeStatuses = ["pending", "paid", "expired", "failed"] as const;
/** A charge status. */
export type ChargeStatus = (typeof chargeStatuses)[number];

/** Status words of a withdrawal (`processing` is the spec's; the two end states are ours). */
export const withdrawalStatuses = ["processing", "completed", "failed"] as const;
/** A withdrawal status. */
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

const customerSchema = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  document: z.string().optional(),
  phone: z.string().optional(),
});

const billingAddressSchema = z.object({
  zip: z.string(),
  state: z.string(),
  city: z.string(),
  street: z.string(),
  neighborhood: z.string(),
  number: z.string(),
  complement: z.string().optional(),
});

/** A charge as stored. Times are epoch milliseconds on the sandbox clock; money is cents. */
export const chargeRecordSchema = z.object({
  seq: z.number().int(),
  uuid: z.string(),
  id: z.string(),
  method: z.enum(["pix", "boleto"]),
  status: z.enum(chargeStatuses),
  amount: z.number().int(),
  fee: z.number().int(),
  description: z.string().optional(),
  customer: customerSchema.optional(),
  billingAddress: billingAddressSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  txid: z.string(),
  pixCopyPaste: z.string().optional(),
  barcode: z.string().optional(),
  digitableLine: z.string().optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
  paidAt: z.number().optional(),
  expiredAt: z.number().optional(),
  failedAt: z.number().optional(),
  failureReason: z.string().optional(),
});
/** A stored charge. */
export type ChargeRecord = z.infer<typeof chargeRecordSchema>;

/** A withdrawal as stored. */
export const withdrawalRecordSchema = z.object({
  seq: z.number().int(),
  uuid: z.string(),
  id: z.string(),
  status: z.enum(withdrawalStatuses),
  amount: z.number().int(),
  pixKey: z.string().optional(),
  description: z.string().optional(),
  createdAt: z.number(),
  completedAt: z.number().optional(),
  failedAt: z.number().optional(),
  failureReason: z.string().optional(),
});
/** A stored withdrawal. */
export type WithdrawalRecord = z.infer<typeof withdrawalRecordSchema>;

/** Key states of the spec's auth table. */
export const keyStates = ["active", "disabled", "revoked"] as const;
/** A key state. */
export type KeyState = (typeof keyStates)[number];
