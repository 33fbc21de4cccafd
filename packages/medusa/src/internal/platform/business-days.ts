/**
 * Brazilian bank business days, for a boleto's due date, its reminders and its grace period.
 * The calendar itself (weekends, the national bank holidays, Easter, São Paulo's days) is the one
 * the sandbox counts with too, `@pix-checkout/client/bank-days`: one calendar, so the plugin's
 * view of a due date and the service's emulator never disagree about a holiday.
 */
export {
  boletoGraceEndsAt,
  businessDayBefore,
  dueWords,
  easterSunday,
  endOfBusinessDaysAfter,
  isBankBusinessDay,
  isBusinessDay,
  payableDay,
  payableUntil,
} from "@pix-checkout/client/bank-days";
