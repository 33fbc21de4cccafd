/**
 * Calendar days as a Brazilian merchant and accountant count them: in `America/Sao_Paulo`,
 * whatever the server's own time zone is.
 */
export const SAO_PAULO = "America/Sao_Paulo";

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: SAO_PAULO,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

function fields(at: Date): Record<"year" | "month" | "day" | "hour" | "minute" | "second", number> {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of parts.formatToParts(at)) {
    if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
  }
  return out;
}

/** Minutes São Paulo is ahead of UTC at this instant (-180 since 2019; -120 in old summers). */
function offsetMinutes(at: Date): number {
  const f = fields(at);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The calendar day of an instant in São Paulo, `YYYY-MM-DD`. */
export function saoPauloDay(at: Date): string {
  const f = fields(at);
  return `${f.year}-${String(f.month).padStart(2, "0")}-${String(f.day).padStart(2, "0")}`;
}

/** `dd/mm/aaaa`, the way a Brazilian spreadsheet reads a date. */
export function saoPauloDate(at: Date): string {
  const [year, month, day] = saoPauloDay(at).split("-");
  return `${day}/${month}/${year}`;
}

/** `dd/mm/aaaa hh:mm` in São Paulo. */
export function saoPauloDateTime(at: Date): string {
  const f = fields(at);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${saoPauloDate(at)} ${two(f.hour)}:${two(f.minute)}`;
}

/**
 * The first instant of a São Paulo calendar day (`YYYY-MM-DD`). Two passes, because the
 * offset at a guess can differ from the offset at the answer on a day the clocks changed.
 */
export function startOfSaoPauloDay(day: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, date);
  let at = midnightUtc - offsetMinutes(new Date(midnightUtc)) * 60_000;
  at = midnightUtc - offsetMinutes(new Date(at)) * 60_000;
  return new Date(at);
}

/** The day after `YYYY-MM-DD`, in the calendar (no time zone involved). */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The day before `YYYY-MM-DD`. */
export function previousDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to`, both counted (`2026-11-01`..`2026-11-01` is 1). */
export function daysInclusive(from: string, to: string): number {
  return (
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
  );
}

/**
 * The wall-clock time of an instant in São Paulo, `YYYYMMDDHHMMSS`, with the offset from UTC in
 * force then (-180 minutes since 2019), for formats that write both (OFX's `[-3:BRT]`).
 */
export function saoPauloStamp(at: Date): { stamp: string; offsetMinutes: number } {
  const f = fields(at);
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    stamp: `${f.year}${two(f.month)}${two(f.day)}${two(f.hour)}${two(f.minute)}${two(f.second)}`,
    offsetMinutes: offsetMinutes(at),
  };
}

/** The hour of the day (0–23) in São Paulo at an instant. */
export function saoPauloHour(at: Date): number {
  return fields(at).hour;
}

/** The instant a São Paulo clock reads `hour`:00 on `day` (`YYYY-MM-DD`). */
export function atSaoPauloHour(day: string, hour: number): Date {
  return new Date(startOfSaoPauloDay(day).getTime() + hour * 3_600_000);
}
