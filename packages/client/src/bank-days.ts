/**
 * Brazilian bank business days: the one calendar the plugin and the sandbox count a boleto's days
 * with (`@pix-checkout/client/bank-days`). A boleto falls due `boletoDueDays` business days after
 * it is made; one due on a weekend or a holiday is payable until the end of the next business
 * day, by the banking rules; and a bank confirms a boleto paid on its due date one to three
 * business days later, so the order of an unpaid boleto stays open for a few business days after
 * its due date before it is given up.
 *
 * A bank business day is any day that is not a Saturday, a Sunday or one of the national bank
 * holidays of the banking calendar (Resolução CMN 4.880/2020, as FEBRABAN publishes it):
 *
 * - 1 January, Confraternização Universal;
 * - Carnival Monday and Tuesday, Easter − 48 and − 47 days;
 * - Good Friday (Sexta-feira da Paixão), Easter − 2 days;
 * - 21 April, Tiradentes;
 * - 1 May, Dia do Trabalhador;
 * - Corpus Christi, Easter + 60 days;
 * - 7 September, Independência;
 * - 12 October, Nossa Senhora Aparecida;
 * - 2 November, Finados;
 * - 15 November, Proclamação da República;
 * - 20 November, Dia Nacional de Zumbi e da Consciência Negra, from 2024 on (Lei 14.759/2023);
 * - 25 December, Natal;
 * - 31 December, every year: not a holiday in law, but FEBRABAN's yearly notice closes banks to
 *   the public that day ("FEBRABAN: não há expediente bancário ao público em 31 de dezembro;
 *   boletos que vencem nesse dia podem ser pagos no dia útil seguinte"), so a boleto due on
 *   31 December is payable on the next business day and 31 December counts no business day.
 *
 * Ash Wednesday (banks open at noon) and 24 December are business days here, and state and
 * municipal holidays are not counted by default: a boleto is cleared nationally. A merchant
 * whose banks close on a local holiday, or who must follow a national one made after this
 * release, adds it without a new release: `bankCalendar({ extraHolidays: ["2027-01-20",
 * "11-20"] })` builds a calendar with extra holidays, explicit dates (`YYYY-MM-DD`) or days of
 * every year (`MM-DD`), and every function here takes such a calendar as its last argument
 * (the default calendar, `DEFAULT_BANK_CALENDAR`, when none is given).
 *
 * Days are taken in America/Sao_Paulo through Intl rather than as a fixed UTC−3: Brazil has kept
 * no summer time since 2019, but the time zone database follows it should that change.
 *
 * Why no library: `@brazilian-utils/brazilian-utils`, already a dependency, lists Carnival
 * Tuesday only (not Monday), types Carnival and Corpus Christi as federal "optional" days (its
 * business-day helpers would also skip any day it adds to that class later, such as Ash
 * Wednesday) and reads days in the process's own time zone. `date-holidays` does model Brazil's
 * bank holidays, but installs 15 packages and 45 MB (moment, moment-timezone, lodash,
 * astronomia) for a dozen dates a year. The list above and Easter's integer arithmetic are
 * shorter than either adaptation.
 */

const DAY_MS = 86_400_000;

/** A calendar day as a whole number of days since 1970-01-01, so that days add as integers. */
type DayNumber = number;

const saoPauloClock = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Sao_Paulo",
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** The wall clock in São Paulo at `instant`, read as if it were UTC, in ms (seconds precision). */
function saoPauloWallMs(instant: number): number {
  const parts = saoPauloClock.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    part("year"),
    part("month") - 1,
    part("day"),
    part("hour"),
    part("minute"),
    part("second"),
  );
}

/** São Paulo's offset from UTC at `instant`, in ms (−3 h since 2019). */
function saoPauloOffsetMs(instant: number): number {
  const second = Math.floor(instant / 1000) * 1000;
  return saoPauloWallMs(second) - second;
}

/** The calendar day in São Paulo at `instant`. */
function saoPauloDay(instant: number): DayNumber {
  return Math.floor(saoPauloWallMs(instant) / DAY_MS);
}

/** The instant at 23:59:59.999 of `day` in São Paulo (the last one, should the hour repeat). */
function endOfSaoPauloDay(day: DayNumber): Date {
  const wall = (day + 1) * DAY_MS - 1;
  // The offset is first guessed at the wall clock read as UTC, then taken at the instant that
  // guess gives. Under the summer time kept until 2019, clocks went back at midnight, so
  // 23:00–23:59 came twice that night: the day ends at the second.
  let end = wall - saoPauloOffsetMs(wall - saoPauloOffsetMs(wall));
  if (saoPauloDay(end + 1) === day) end = wall - saoPauloOffsetMs(end + 1);
  return new Date(end);
}

function dayNumber(year: number, month: number, day: number): DayNumber {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function calendarDate(day: DayNumber): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * Easter Sunday of a Gregorian `year` (Meeus/Jones/Butcher), as its month (1–12) and day.
 * Integer arithmetic only.
 */
export function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

/** Fixed national bank holidays, as [month, day]. */
const FIXED_HOLIDAYS: readonly (readonly [number, number])[] = [
  [1, 1],
  [4, 21],
  [5, 1],
  [9, 7],
  [10, 12],
  [11, 2],
  [11, 15],
  [12, 25],
  // FEBRABAN: não há expediente bancário ao público em 31 de dezembro; boletos que vencem nesse
  // dia podem ser pagos no dia útil seguinte.
  [12, 31],
];

/** 20 November has been a national holiday since 2024 (Lei 14.759/2023). */
const CONSCIENCIA_NEGRA_SINCE = 2024;

/** Bank holidays that move with Easter, as days from Easter Sunday. */
const EASTER_OFFSETS: readonly number[] = [
  -48, // Carnival Monday
  -47, // Carnival Tuesday
  -2, // Good Friday
  60, // Corpus Christi
];

/**
 * A bank calendar: the national bank holidays above plus `extraHolidays`, each an explicit day
 * (`YYYY-MM-DD`, e.g. `"2027-01-20"`) or a day of every year (`MM-DD`, e.g. `"11-20"`). Build one
 * with `bankCalendar`, which checks the days; a plain object of this shape is checked when first
 * used. A calendar is a value: passing one to a function changes no other count.
 */
export interface BankCalendar {
  readonly extraHolidays: readonly string[];
}

/** The extra holidays of a calendar, read once. */
interface CompiledCalendar {
  /** Explicit days. */
  readonly days: ReadonlySet<DayNumber>;
  /** Days of every year, as month × 100 + day. */
  readonly yearly: ReadonlySet<number>;
}

const EXPLICIT_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEARLY_DAY = /^(\d{2})-(\d{2})$/;

/** Days in each month of a leap year: a yearly `02-29` is a holiday in leap years only. */
const LEAP_MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True when `value` is an extra holiday a calendar accepts: a real calendar day written
 * `YYYY-MM-DD`, or a real month and day written `MM-DD` (a holiday every year).
 */
export function isExtraHoliday(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const yearly = YEARLY_DAY.exec(value);
  if (yearly) {
    const month = Number(yearly[1]);
    const day = Number(yearly[2]);
    return month >= 1 && month <= 12 && day >= 1 && day <= (LEAP_MONTH_DAYS[month - 1] ?? 0);
  }
  const explicit = EXPLICIT_DAY.exec(value);
  if (!explicit) return false;
  const number = dayNumber(Number(explicit[1]), Number(explicit[2]), Number(explicit[3]));
  return !Number.isNaN(number) && formatDay(number) === value;
}

const compiledCalendars = new WeakMap<BankCalendar, CompiledCalendar>();

function compile(calendar: BankCalendar): CompiledCalendar {
  let compiled = compiledCalendars.get(calendar);
  if (compiled) return compiled;
  const days = new Set<DayNumber>();
  const yearly = new Set<number>();
  for (const holiday of calendar.extraHolidays) {
    if (!isExtraHoliday(holiday)) {
      throw new RangeError(
        `extra holiday ${JSON.stringify(holiday)} is not a calendar day written YYYY-MM-DD (one day) or MM-DD (every year)`,
      );
    }
    const parts = holiday.split("-").map(Number);
    if (parts.length === 3) days.add(dayNumber(parts[0]!, parts[1]!, parts[2]!));
    else yearly.add(parts[0]! * 100 + parts[1]!);
  }
  compiled = { days, yearly };
  compiledCalendars.set(calendar, compiled);
  return compiled;
}

/**
 * A bank calendar with `extraHolidays` on top of the national ones (see `BankCalendar`).
 *
 * @throws RangeError naming the first extra holiday that is not `YYYY-MM-DD` or `MM-DD`.
 */
export function bankCalendar(options: { extraHolidays?: readonly string[] } = {}): BankCalendar {
  const calendar: BankCalendar = Object.freeze({
    extraHolidays: Object.freeze([...(options.extraHolidays ?? [])]),
  });
  compile(calendar);
  return calendar;
}

/** The calendar every function uses when given none: the national bank holidays only. */
export const DEFAULT_BANK_CALENDAR: BankCalendar = bankCalendar();

function isBankHoliday(day: DayNumber, calendar: BankCalendar): boolean {
  const { year, month, day: date } = calendarDate(day);
  if (FIXED_HOLIDAYS.some(([m, d]) => m === month && d === date)) return true;
  if (year >= CONSCIENCIA_NEGRA_SINCE && month === 11 && date === 20) return true;
  const extra = compile(calendar);
  if (extra.days.has(day) || extra.yearly.has(month * 100 + date)) return true;
  const easter = easterSunday(year);
  const easterDay = dayNumber(year, easter.month, easter.day);
  return EASTER_OFFSETS.some((offset) => easterDay + offset === day);
}

function isBusinessDayNumber(day: DayNumber, calendar: BankCalendar): boolean {
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  return weekday !== 0 && weekday !== 6 && !isBankHoliday(day, calendar);
}

function assertValidDate(value: Date, name: string): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new RangeError(`${name} must be a valid Date`);
  }
}

/**
 * True when the day (in America/Sao_Paulo) is a Brazilian bank business day: not Saturday, not
 * Sunday, not a national bank holiday (the list is in this module's documentation), not one of
 * `calendar`'s extra holidays.
 */
export function isBankBusinessDay(
  day: Date,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): boolean {
  assertValidDate(day, "day");
  return isBusinessDayNumber(saoPauloDay(day.getTime()), calendar);
}

function assertBusinessDays(businessDays: number): void {
  if (!Number.isInteger(businessDays) || businessDays < 0) {
    throw new RangeError("businessDays must be a whole number of zero or more");
  }
}

/** The `businessDays`-th business day after `day` (`day` itself for 0, whatever it is). */
function businessDaysAfter(
  day: DayNumber,
  businessDays: number,
  calendar: BankCalendar,
): DayNumber {
  let at = day;
  for (let left = businessDays; left > 0;) {
    at += 1;
    if (isBusinessDayNumber(at, calendar)) left -= 1;
  }
  return at;
}

/**
 * The end (23:59:59.999 in America/Sao_Paulo) of the `businessDays`-th Brazilian bank business
 * day after the São Paulo day of `from`; 0 means the end of that day itself. A boleto made at
 * `from` with `businessDays` days to pay falls due then, and so does the grace after a due date.
 *
 * @throws RangeError when `from` is not a valid Date or `businessDays` is not a whole number of
 * zero or more.
 */
export function endOfBusinessDaysAfter(
  from: Date,
  businessDays: number,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): Date {
  assertValidDate(from, "from");
  assertBusinessDays(businessDays);
  return endOfSaoPauloDay(businessDaysAfter(saoPauloDay(from.getTime()), businessDays, calendar));
}

/**
 * The instant after which an unpaid boleto due on `dueDate` may be given up: the end
 * (23:59:59.999 in America/Sao_Paulo) of the `businessDays`-th Brazilian bank business day after
 * the due date. 0 means the end of the due date itself.
 *
 * `dueDate` is an instant whose calendar day is read in São Paulo. A date-only due date
 * ("2026-03-06") parsed with `new Date` is UTC midnight, the evening before in São Paulo: build
 * the instant in São Paulo instead (`new Date("2026-03-06T12:00:00-03:00")`).
 *
 * @throws RangeError when `dueDate` is not a valid Date or `businessDays` is not a whole number
 * of zero or more.
 */
export function boletoGraceEndsAt(
  dueDate: Date,
  businessDays: number,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): Date {
  assertValidDate(dueDate, "dueDate");
  return endOfBusinessDaysAfter(dueDate, businessDays, calendar);
}

/**
 * Until when a boleto due at `due` may really be paid: `due` itself when its São Paulo day is a
 * bank business day; else the end of the next business day, as banks take a boleto that falls
 * due on a weekend or a holiday without charges on the next business day.
 *
 * @throws RangeError when `due` is not a valid Date.
 */
export function payableUntil(due: Date, calendar: BankCalendar = DEFAULT_BANK_CALENDAR): Date {
  assertValidDate(due, "due");
  const day = saoPauloDay(due.getTime());
  if (isBusinessDayNumber(day, calendar)) return due;
  return endOfSaoPauloDay(businessDaysAfter(day, 1, calendar));
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(day: string): DayNumber {
  const match = CALENDAR_DAY.exec(day);
  const number = match ? dayNumber(Number(match[1]), Number(match[2]), Number(match[3])) : NaN;
  if (!match || Number.isNaN(number) || formatDay(number) !== day) {
    throw new RangeError("day must be a calendar day written YYYY-MM-DD");
  }
  return number;
}

function formatDay(day: DayNumber): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The day a boleto due on the calendar day `day` (`YYYY-MM-DD`) is really due: `day` when it is a
 * bank business day, else the next business day.
 *
 * @throws RangeError when `day` is not a calendar day written `YYYY-MM-DD`.
 */
export function payableDay(day: string, calendar: BankCalendar = DEFAULT_BANK_CALENDAR): string {
  const number = parseDay(day);
  return formatDay(
    isBusinessDayNumber(number, calendar) ? number : businessDaysAfter(number, 1, calendar),
  );
}

/**
 * The bank business day before the calendar day `day` (`YYYY-MM-DD`).
 *
 * @throws RangeError when `day` is not a calendar day written `YYYY-MM-DD`.
 */
export function businessDayBefore(
  day: string,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): string {
  let before = parseDay(day) - 1;
  while (!isBusinessDayNumber(before, calendar)) before -= 1;
  return formatDay(before);
}

/**
 * Bank business days after `today` up to and including `deadline` (both São Paulo calendar days,
 * `YYYY-MM-DD`): 0 when the deadline is today or no business day comes before it; negative, the
 * calendar days since, once it has passed. A MED's deadline counts with it
 * (`@pix-checkout/client/med` `medDeadlineState`).
 *
 * @throws RangeError when either day is not a calendar day written `YYYY-MM-DD`.
 */
export function businessDaysUntil(
  today: string,
  deadline: string,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): number {
  const start = parseDay(today);
  const end = parseDay(deadline);
  if (end < start) return end - start;
  let count = 0;
  for (let day = start + 1; day <= end; day += 1) {
    if (isBusinessDayNumber(day, calendar)) count += 1;
  }
  return count;
}

/** True when the calendar day `day` (`YYYY-MM-DD`) is a bank business day. */
export function isBusinessDay(
  day: string,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): boolean {
  return isBusinessDayNumber(parseDay(day), calendar);
}

const weekdayOf = new Intl.DateTimeFormat("pt-BR", { weekday: "long", timeZone: "UTC" });

/**
 * When a boleto falls due on `dueDay` (`YYYY-MM-DD`), in the words a Brazilian shopper reads at
 * `now` (São Paulo's today): "hoje, terça-feira, 01/12", "amanhã, terça-feira, 01/12", or the
 * weekday and the day ("na segunda-feira, 30/11"; "no sábado, 05/12"). A reminder sent on the
 * business day before a Monday goes on a Friday: "amanhã" only when it is São Paulo's tomorrow.
 * The words before the first comma ("hoje", "amanhã", "na segunda-feira") make a subject.
 *
 * @throws RangeError when `dueDay` is not a calendar day written `YYYY-MM-DD` or `now` is not a
 * valid Date.
 */
export function dueWords(dueDay: string, now: Date): string {
  const due = parseDay(dueDay);
  assertValidDate(now, "now");
  const days = due - saoPauloDay(now.getTime());
  // Intl's pt-BR weekdays: "segunda-feira" … "sexta-feira", "sábado", "domingo".
  const weekday = weekdayOf.format(new Date(due * DAY_MS));
  const [, month, date] = dueDay.split("-");
  const dayMonth = `${date}/${month}`;
  if (days === 0) return `hoje, ${weekday}, ${dayMonth}`;
  if (days === 1) return `amanhã, ${weekday}, ${dayMonth}`;
  return `${weekday.endsWith("feira") ? "na" : "no"} ${weekday}, ${dayMonth}`;
}
