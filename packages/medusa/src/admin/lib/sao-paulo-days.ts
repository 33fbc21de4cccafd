// The São Paulo calendar days the books are read by, as the admin's period pickers hold them
// (`YYYY-MM-DD`, what an `<input type="date">` gives) and show them (`24/11/2026`).

/** A São Paulo calendar day, `YYYY-MM-DD`, `daysAgo` days before now. */
export function saoPauloDay(daysAgo: number): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(
    new Date(Date.now() - daysAgo * 86_400_000),
  );
}

/** `2026-11-24` as `24/11/2026`, as dates read in Brazil. */
export function dayLabel(day: string): string {
  const [year, month, date] = day.split("-");
  return year && month && date ? `${date}/${month}/${year}` : day;
}

/** How many calendar days `from` to `to` spans, both included; 0 when the period is not one. */
export function daysBetween(from: string, to: string): number {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return 0;
  return Math.round((end - start) / 86_400_000) + 1;
}
