import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";

/** Everything Medusa and the plugin wrote while the capture was on. */
export interface LogCapture {
  lines(): string[];
  restore(): void;
}

function describeArg(arg: unknown): string {
  if (typeof arg === "string") return arg;
  if (arg instanceof Error) return `${arg.message} ${arg.stack ?? ""}`;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

const LEVELS = ["log", "info", "warn", "error", "debug", "http", "activity", "progress", "failure"];

/**
 * Taps Medusa's shared logger (the plugin logs through it) and the process's stdout and
 * stderr, so a leak scan sees every line and every error the server produced in-process.
 */
export function captureLogs(container: MedusaContainer): LogCapture {
  const lines: string[] = [];
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<
    string,
    unknown
  >;
  const originals = new Map<string, unknown>();
  for (const level of LEVELS) {
    const original = logger[level];
    if (typeof original !== "function") continue;
    originals.set(level, original);
    logger[level] = (...args: unknown[]) => {
      lines.push(args.map(describeArg).join(" "));
      return (original as (...a: unknown[]) => unknown).apply(logger, args);
    };
  }
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: unknown, ...rest: never[]) => {
    lines.push(String(chunk));
    return out(chunk as string, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: never[]) => {
    lines.push(String(chunk));
    return err(chunk as string, ...rest);
  }) as typeof process.stderr.write;
  return {
    lines: () => lines,
    restore() {
      for (const [level, original] of originals) logger[level] = original;
      process.stdout.write = out;
      process.stderr.write = err;
    },
  };
}
