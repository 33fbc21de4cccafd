import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { Variant } from "./context.js";
import { chargeRecordSchema, keyStates, withdrawalRecordSchema } from "./records.js";
import type { SandboxState } from "./state.js";

const fileSchema = z.object({
  version: z.literal(1),
  variant: z.enum(["a", "b"]),
  seq: z.number().int(),
  clock_offset_ms: z.number(),
  charges: z.array(chargeRecordSchema),
  withdrawals: z.array(withdrawalRecordSchema),
  /** [sha256(key), state]: keys are never written in clear. */
  keys: z.array(z.tuple([z.string(), z.enum(keyStates)])),
  idempotency: z.array(
    z.tuple([z.string(), z.object({ chargeUuid: z.string(), fingerprint: z.string() })]),
  ),
});

/**
 * Loads a state file into `state` and returns the saved clock offset, or `undefined` when the
 * file does not exist yet. A file from the other variant, or one that does not parse, stops the
 * start with a message saying what to do.
 */
export function loadState(path: string, variant: Variant, state: SandboxState): number | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new Error(
      `The state file ${path} is not valid JSON; delete it or point --state elsewhere.`,
      { cause },
    );
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `The state file ${path} is not a pix-sandbox state file (${parsed.error.issues[0]?.message ?? "invalid"}).`,
    );
  }
  const file = parsed.data;
  if (file.variant !== variant) {
    throw new Error(
      `The state file ${path} belongs to variant ${file.variant}; start with --variant ${file.variant} or use another file.`,
    );
  }
  state.seq = file.seq;
  for (const charge of file.charges) state.addCharge(charge);
  for (const withdrawal of file.withdrawals) state.addWithdrawal(withdrawal);
  for (const [hash, keyState] of file.keys) state.keys.set(hash, keyState);
  for (const [slot, entry] of file.idempotency) state.idempotency.set(slot, entry);
  return file.clock_offset_ms;
}

/** Writes the state atomically (temporary file, then rename), so a crash never leaves half a file. */
export function saveState(
  path: string,
  variant: Variant,
  state: SandboxState,
  clockOffsetMs: number,
): void {
  const file: z.infer<typeof fileSchema> = {
    version: 1,
    variant,
    seq: state.seq,
    clock_offset_ms: clockOffsetMs,
    charges: [...state.charges.values()],
    withdrawals: [...state.withdrawals.values()],
    keys: [...state.keys.entries()],
    idempotency: [...state.idempotency.entries()],
  };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(file));
  renameSync(temporary, path);
}
