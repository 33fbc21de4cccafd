import { describe, expect, it } from "vitest";
import { reminderVerdict, type ReminderFacts } from "./reminder-verdict";

const sp = (wall: string) => new Date(`${wall}-03:00`);
const NOW = sp("2026-11-24T14:20:00");

const facts = (over: Partial<ReminderFacts> = {}): ReminderFacts => ({
  step: "pix_expiring",
  now: NOW,
  charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T14:30:00") },
  validUntil: sp("2026-11-24T14:29:00"),
  collectionPaid: false,
  orderCanceled: false,
  mailbox: "ok",
  sentToCartToday: 0,
  options: { perCartPerDay: 2, quietFrom: 21, quietUntil: 8 },
  ...over,
});

describe("reminderVerdict: whether a due reminder goes", () => {
  const cases: [string, Partial<ReminderFacts>, unknown][] = [
    [
      "sends a reminder for a live, unpaid code to a mailbox the store may write to",
      {},
      { kind: "send" },
    ],
    [
      "sends nothing once the cart is paid, by this code or another",
      { collectionPaid: true },
      { kind: "skip", reason: "paid" },
    ],
    [
      "sends nothing for a paid code even to an opted-out mailbox in quiet hours: the money is read first",
      {
        charge: { status: "paid", superseded: false, expiresAt: null },
        mailbox: "opted_out",
        now: sp("2026-11-24T23:00:00"),
      },
      { kind: "skip", reason: "paid" },
    ],
    [
      "sends nothing for a replaced code",
      { charge: { status: "pending", superseded: true, expiresAt: null } },
      { kind: "skip", reason: "replaced" },
    ],
    [
      "sends nothing for an order the merchant canceled",
      { orderCanceled: "by_merchant" },
      { kind: "skip", reason: "order_canceled" },
    ],
    [
      "sends no 'expiring' for a code that expired already",
      { charge: { status: "expired", superseded: false, expiresAt: NOW } },
      { kind: "skip", reason: "code_gone" },
    ],
    [
      "sends no 'expiring' in the code's last minute",
      { now: sp("2026-11-24T14:29:30") },
      { kind: "skip", reason: "too_late" },
    ],
    [
      "sends nothing to an opted-out mailbox",
      { mailbox: "opted_out" },
      { kind: "skip", reason: "opted_out" },
    ],
    [
      "sends nothing to a stranger's mailbox typed into a cart",
      { mailbox: "stranger" },
      { kind: "skip", reason: "stranger" },
    ],
    [
      "sends nothing without a mailbox",
      { mailbox: "none" },
      { kind: "skip", reason: "no_mailbox" },
    ],
    [
      "keeps to the cart's limit for the day",
      { sentToCartToday: 2 },
      { kind: "skip", reason: "cart_limit" },
    ],
    [
      "drops an 'expiring' that quiet hours would hold past the code's life",
      {
        now: sp("2026-11-24T21:20:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T21:30:00") },
        validUntil: sp("2026-11-24T21:29:00"),
      },
      { kind: "skip", reason: "too_late" },
    ],
    [
      "holds a new-code message due at night until 8:00",
      {
        step: "pix_expired",
        now: sp("2026-11-24T22:05:00"),
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-24T22:00:00") },
        validUntil: null,
      },
      { kind: "defer", until: sp("2026-11-25T08:00:00") },
    ],
    [
      "waits for the service to confirm an expiry before offering a new code",
      {
        step: "pix_expired",
        now: sp("2026-11-24T14:35:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T14:30:00") },
        validUntil: null,
      },
      { kind: "defer", until: sp("2026-11-24T14:37:00") },
    ],
    [
      "gives up on an expiry the service never confirmed",
      {
        step: "pix_expired",
        now: sp("2026-11-24T15:31:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T14:30:00") },
        validUntil: null,
      },
      { kind: "skip", reason: "not_expired" },
    ],
    [
      "offers a new boleto after the grace period whether the service calls it expired or pending",
      {
        step: "boleto_overdue",
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-20T23:59:59") },
        validUntil: null,
      },
      { kind: "send" },
    ],
    [
      "reminds of a boleto on its due date even when the service called it expired at its due instant",
      {
        step: "boleto_due_today",
        now: sp("2026-11-24T09:00:00"),
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-24T07:47:00") },
        validUntil: sp("2026-11-25T00:00:00"),
      },
      { kind: "send" },
    ],
    [
      "offers to buy again when an unpaid boleto's order ended with its grace period",
      {
        step: "boleto_overdue",
        orderCanceled: "unpaid",
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-20T23:59:59") },
        validUntil: null,
      },
      { kind: "send" },
    ],
    [
      "sends no overdue message for an order the merchant canceled",
      {
        step: "boleto_overdue",
        orderCanceled: "by_merchant",
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-20T23:59:59") },
        validUntil: null,
      },
      { kind: "skip", reason: "order_canceled" },
    ],
    [
      "sends no boleto reminder for a boleto canceled in the store",
      {
        step: "boleto_due_today",
        charge: { status: "canceled", superseded: false, expiresAt: sp("2026-11-24T23:59:59") },
        validUntil: sp("2026-11-25T00:00:00"),
      },
      { kind: "skip", reason: "code_gone" },
    ],
    [
      "sends no boleto reminder for an order-first boleto's order that ended unpaid before its overdue step",
      {
        step: "boleto_due_today",
        orderCanceled: "unpaid",
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T23:59:59") },
        validUntil: sp("2026-11-25T00:00:00"),
      },
      { kind: "skip", reason: "order_canceled" },
    ],
    [
      "reminds of an unpaid boleto on its due date",
      {
        step: "boleto_due_today",
        now: sp("2026-11-24T09:00:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T23:59:59") },
        validUntil: sp("2026-11-25T00:00:00"),
      },
      { kind: "send" },
    ],
    [
      "reminds of a boleto due tomorrow even when the service already calls it expired: unpaid is what matters for every boleto step",
      {
        step: "boleto_due_tomorrow",
        now: sp("2026-11-23T09:00:00"),
        charge: { status: "expired", superseded: false, expiresAt: sp("2026-11-23T07:47:00") },
        validUntil: sp("2026-11-24T00:00:00"),
      },
      { kind: "send" },
    ],
    [
      "sends no new-code message for a Pix that failed instead of expiring",
      {
        step: "pix_expired",
        now: sp("2026-11-24T14:35:00"),
        charge: { status: "failed", superseded: false, expiresAt: sp("2026-11-24T14:30:00") },
        validUntil: null,
      },
      { kind: "skip", reason: "code_gone" },
    ],
    [
      "gives up on an unconfirmed expiry at the very end of the hour it waits",
      {
        step: "pix_expired",
        now: sp("2026-11-24T15:30:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T14:30:00") },
        validUntil: null,
      },
      { kind: "skip", reason: "not_expired" },
    ],
    [
      "sends nothing at the very instant its step stops making sense",
      { now: sp("2026-11-24T14:29:00") },
      { kind: "skip", reason: "too_late" },
    ],
    [
      "holds a due-date reminder that falls due before 8:00 until then, as its day lasts past it",
      {
        step: "boleto_due_today",
        now: sp("2026-11-24T06:30:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T23:59:59") },
        validUntil: sp("2026-11-25T00:00:00"),
      },
      { kind: "defer", until: sp("2026-11-24T08:00:00") },
    ],
    [
      "drops a reminder whose step ends at the very instant quiet hours do",
      {
        step: "boleto_due_today",
        now: sp("2026-11-24T06:30:00"),
        charge: { status: "pending", superseded: false, expiresAt: sp("2026-11-24T23:59:59") },
        validUntil: sp("2026-11-24T08:00:00"),
      },
      { kind: "skip", reason: "too_late" },
    ],
  ];

  it.each(cases)("%s", (_name, over, expected) => {
    expect(reminderVerdict(facts(over))).toEqual(expected);
  });
});
