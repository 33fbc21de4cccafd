import { z } from "zod";
import { ApiError } from "./api-error.js";

const range = z
  .tuple([z.number().int().min(0).max(60_000), z.number().int().min(0).max(60_000)])
  .refine(([min, max]) => min <= max, "min must not exceed max");
const rate = z.number().min(0).max(1);

/** Body of `POST /__sandbox/faults`; every field optional, rates 0..1, ranges [min, max] ms. */
export const faultsSchema = z.strictObject({
  webhook_drop_rate: rate.optional(),
  webhook_duplicate_rate: rate.optional(),
  webhook_delay_ms: range.optional(),
  webhook_reorder: z.boolean().optional(),
  http_5xx_rate: rate.optional(),
  http_5xx_after_rate: rate.optional(),
  /** The next N charge creates answer 500 before anything is created. */
  http_5xx_before_creates: z.number().int().min(0).max(10_000).optional(),
  /** The next N charge creates are processed, then answer 500: N lost responses, in order. */
  http_5xx_after_creates: z.number().int().min(0).max(10_000).optional(),
  latency_ms: range.optional(),
});
/** Active fault injection settings. */
export type Faults = z.infer<typeof faultsSchema>;

/** Parses a faults body or throws 400 `invalid_faults` naming the field to fix. */
export function parseFaults(body: unknown): Faults {
  const result = faultsSchema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.join(".") || "body";
    throw new ApiError(
      400,
      "invalid_faults",
      `Invalid fault setting \`${path}\`: ${issue?.message ?? "invalid"}.`,
      {
        extra: { param: path },
      },
    );
  }
  return result.data;
}

/** True with probability `rate` (0 or absent: never). */
export function chance(rate: number | undefined): boolean {
  return rate !== undefined && rate > 0 && Math.random() < rate;
}

/** A uniformly drawn whole number of ms in `[min, max]`, or 0 when no range is set. */
export function drawMs(range: readonly [number, number] | undefined): number {
  if (!range) return 0;
  const [min, max] = range;
  return min + Math.floor(Math.random() * (max - min + 1));
}
