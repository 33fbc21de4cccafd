// What the demo's clock accepts on its input line: `+25m`, `+2h`, `+1d` (minutes, hours, days).

const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The milliseconds a clock line asks to move, or null when the line is not one.
 * @param {string} line
 * @returns {number | null}
 */
export function clockStep(line) {
  const match = /^\s*\+(\d{1,4})\s*([mhd])\s*$/i.exec(line);
  if (!match) return null;
  const ms = Number(match[1]) * UNITS[/** @type {"m" | "h" | "d"} */ (match[2].toLowerCase())];
  return ms > 0 ? ms : null;
}

/**
 * Milliseconds from `now` to the next 10:00 in São Paulo (−3 h, no summer time since 2019):
 * the demo's `morning`, so reminders are not held by the quiet hours.
 * @param {Date} now
 * @returns {number}
 */
export function msToNextMorning(now) {
  const SAO_PAULO_OFFSET_MS = 3 * 3_600_000;
  const wall = new Date(now.getTime() - SAO_PAULO_OFFSET_MS);
  const target = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), 10);
  const next = target > wall.getTime() ? target : target + 86_400_000;
  return next - wall.getTime();
}
