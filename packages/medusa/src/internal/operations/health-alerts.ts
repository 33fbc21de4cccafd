import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { redact } from "@pix-checkout/client";
import type { PluginLogger } from "../platform/logger";
import { alertRecipients, isIgnored, type AlertOptions } from "./alert-options";
import { renderAlert, type AlertKind } from "./alert-message";
import type { HealthAction, HealthLine, HealthState } from "./health";

/** Emitted when a line of the health card changed and held, and daily while it stays bad. */
export const HEALTH_CHANGED_EVENT = "pix_checkout.health.changed";

/** The longest wait between two tries of an alert that could not be sent. */
export const RETRY_MAX_SECONDS = 3_600;
/** The first retry; each next one waits twice as long, up to `RETRY_MAX_SECONDS`. */
export const RETRY_FIRST_SECONDS = 30;

const TABLE = "pix_checkout_health_alert";

/** `data` of `pix_checkout.health.changed`. */
export interface HealthChangedData {
  /** The line's stable id (`webhooks`, `service:a`, ...). */
  line: string;
  state: HealthState;
  /** The state the merchant was last told of; null on a line's first alert. */
  previous_state: HealthState | null;
  /** `changed`, or `reminder` for a line still bad a day (`reminderHours`) later. */
  kind: AlertKind;
  /** When the line took this state (ISO 8601, database clock). */
  since: string;
  reason: string | null;
  action: HealthAction | null;
  value: HealthLine["value"];
  detail: HealthLine["detail"];
  locale: AlertOptions["locale"];
  /** The same alert in words (`alerts.locale`): subject, line name, reason, what to do, text. */
  message: {
    subject: string;
    title: string;
    reason: string | null;
    todo: string | null;
    text: string;
  };
}

/** One notification as Medusa's `createNotifications` takes it. */
export interface AlertNotification {
  to: string;
  channel: string;
  template: string;
  from?: string;
  data: Record<string, unknown>;
  content: { subject: string; text: string; html: string };
  trigger_type: string;
  resource_id: string;
  resource_type: string;
  idempotency_key: string;
}

/** What the evaluation needs from Medusa: its event bus and its notification module. */
export interface AlertPorts {
  db: Knex;
  logger: PluginLogger;
  emit(event: { name: string; data: HealthChangedData }): Promise<unknown>;
  notify(notifications: AlertNotification[]): Promise<unknown>;
}

/** A row of `pix_checkout_health_alert` with an alert to deliver. */
interface AlertRow {
  line_id: string;
  told_state: HealthState;
  previous_state: HealthState | null;
  alert_id: string;
  alert_kind: AlertKind;
  alert_line: HealthLine;
  alert_since: Date | string;
  event_emitted: boolean;
  /** `channel:to` of the recipients this alert already reached (a retry skips them). */
  delivered_to: string[];
  send_attempts: number;
}

/** What one evaluation did. */
export interface AlertEvaluation {
  /** Alerts this instance won (a line that changed and held, or a reminder due). */
  claimed: string[];
  /** Alerts delivered now (claimed now, or retried). */
  delivered: string[];
  /** Alerts that could not be delivered; tried again later. */
  failed: string[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Records what each line reads now. A line whose state differs from the last reading starts
 * its hold again (`since`), so a blip that passes before the hold is over tells no one.
 */
export async function observeLines(db: Knex, lines: readonly HealthLine[]): Promise<void> {
  if (lines.length === 0) return;
  const readings = lines.map((l) => ({ line_id: l.id, state: l.state, line: l }));
  await db.raw(
    `insert into ${TABLE} as t (line_id, state, since, line, observed_at)
     select r.line_id, r.state, now(), r.line, now()
       from jsonb_to_recordset(?::jsonb) as r(line_id text, state text, line jsonb)
     on conflict (line_id) do update set
       since = case when t.state = excluded.state then t.since else now() end,
       state = excluded.state,
       line = excluded.line,
       observed_at = now()`,
    [JSON.stringify(readings)],
  );
}

/**
 * Takes the alerts due among these lines, in one conditional `UPDATE`: a line held in a state
 * the merchant was not told of (a first `ok` is nothing to tell), or still bad a reminder
 * later. Postgres locks each row and re-checks the condition after a concurrent update, so
 * two instances evaluating at once never both take the same alert.
 */
export async function claimAlerts(
  db: Knex,
  lineIds: readonly string[],
  options: Pick<AlertOptions, "holdSeconds" | "reminderHours">,
): Promise<AlertRow[]> {
  if (lineIds.length === 0) return [];
  const reminders = options.reminderHours !== false;
  const result = await db.raw(
    `update ${TABLE} as t set
        previous_state = t.told_state,
        told_state = t.state,
        told_at = now(),
        alert_id = t.line_id || '@' || floor(extract(epoch from now()) * 1000)::bigint,
        alert_kind = case when t.told_state = t.state then 'reminder' else 'changed' end,
        alert_line = t.line,
        alert_since = t.since,
        event_emitted = false,
        send_pending = true,
        delivered_to = '[]'::jsonb,
        send_attempts = 0,
        send_after = now(),
        sent_at = null,
        last_error = null
      where t.line_id = any(?::text[])
        and t.since <= now() - make_interval(secs => ?)
        and (
          (t.told_state is distinct from t.state and (t.told_state is not null or t.state <> 'ok'))
          or (?::boolean and t.state <> 'ok' and t.told_state = t.state
              and t.told_at <= now() - make_interval(hours => ?))
        )
      returning t.*`,
    [
      lineIds as string[],
      options.holdSeconds,
      reminders,
      reminders ? (options.reminderHours as number) : 0,
    ],
  );
  return rowsOf<AlertRow>(result);
}

/**
 * Takes the alerts waiting to be sent (new, or a retry whose wait is over) and pushes each
 * one's next try out before sending, so no other instance sends it meanwhile; a crash mid-send
 * is retried after that wait, and the notifications' idempotency keys keep what went out from
 * going twice.
 */
async function takeDeliveries(db: Knex): Promise<AlertRow[]> {
  const result = await db.raw(
    `update ${TABLE} set
        send_attempts = send_attempts + 1,
        send_after = now() + make_interval(secs => least(?, ? * power(2, send_attempts)))
      where send_pending and send_after <= now()
      returning *`,
    [RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS],
  );
  return rowsOf<AlertRow>(result);
}

/** The event's data and the messages of one alert. */
export function alertPayload(
  row: Pick<
    AlertRow,
    "line_id" | "told_state" | "previous_state" | "alert_id" | "alert_kind" | "alert_line"
  > & { alert_since: Date | string },
  options: AlertOptions,
): { data: HealthChangedData; notifications: AlertNotification[] } {
  const line = row.alert_line;
  const since = new Date(row.alert_since);
  const message = renderAlert(
    { line, previousState: row.previous_state, kind: row.alert_kind, since },
    options.locale,
    options.adminUrl,
  );
  const detail = line.detail as Record<string, unknown>;
  const data: HealthChangedData = {
    line: row.line_id,
    state: row.told_state,
    previous_state: row.previous_state,
    kind: row.alert_kind,
    since: since.toISOString(),
    reason: typeof detail.reason === "string" ? detail.reason : null,
    action: line.action,
    value: line.value,
    detail: line.detail,
    locale: options.locale,
    message: {
      subject: message.subject,
      title: message.title,
      reason: message.reason,
      todo: message.todo,
      text: message.text,
    },
  };
  const notifications = alertRecipients(options).map((recipient): AlertNotification => ({
    to: recipient.to,
    channel: recipient.channel,
    template: options.template,
    ...(options.from ? { from: options.from } : {}),
    data: { ...data, admin_url: options.adminUrl ?? null },
    content: { subject: message.subject, text: message.text, html: message.html },
    trigger_type: HEALTH_CHANGED_EVENT,
    resource_id: row.line_id,
    resource_type: "pix_checkout_health_line",
    idempotency_key: `pix-checkout-health:${row.alert_id}:${recipient.channel}:${recipient.to}`,
  }));
  return { data, notifications };
}

/**
 * Emits and sends one alert, one recipient at a time; a recipient reached is recorded, so a
 * retry goes only to those it did not reach. Each try has its own idempotency key: Medusa
 * re-sends a failed notification under the same key but cannot record that second outcome.
 */
async function deliver(row: AlertRow, options: AlertOptions, ports: AlertPorts): Promise<boolean> {
  const { data, notifications } = alertPayload(row, options);
  const mark = (sql: string, bindings: unknown[] = []) =>
    ports.db.raw(`update ${TABLE} set ${sql} where line_id = ? and alert_id = ?`, [
      ...bindings,
      row.line_id,
      row.alert_id,
    ] as Knex.RawBinding[]);
  const failures: string[] = [];
  try {
    if (!row.event_emitted) {
      await ports.emit({ name: HEALTH_CHANGED_EVENT, data });
      await mark("event_emitted = true");
    }
  } catch (error) {
    failures.push(`event: ${(error as Error)?.message ?? String(error)}`);
  }
  const reached = new Set(row.delivered_to ?? []);
  for (const notification of notifications) {
    const recipient = `${notification.channel}:${notification.to}`;
    if (reached.has(recipient)) continue;
    try {
      await ports.notify([
        {
          ...notification,
          idempotency_key: `${notification.idempotency_key}#${row.send_attempts}`,
        },
      ]);
      await mark("delivered_to = delivered_to || ?::jsonb", [JSON.stringify([recipient])]);
    } catch (error) {
      failures.push(`${notification.channel}: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  if (failures.length === 0) {
    await mark("send_pending = false, sent_at = now(), last_error = null");
    ports.logger.info(
      `health alert sent: ${row.line_id} is ${row.told_state} (${row.alert_kind}) to ${notifications.length} recipient(s)`,
    );
    return true;
  }
  const message = redact(failures.join("; ")).slice(0, 2_000);
  ports.logger.warn(
    `health alert for ${row.line_id} (${row.told_state}) could not be sent (try ${row.send_attempts}); it is tried again later: ${message}`,
  );
  await mark("last_error = ?", [message]).catch(() => undefined);
  return false;
}

/**
 * One evaluation of the health card's lines: record them, take the alerts that are due, and
 * deliver those and any waiting for a retry. `onceLines` are told once per state they take and
 * never reminded (each charge's devolução clock: refund-deadline-alerts.ts). It writes only its
 * own table and never throws for an alert that could not be sent.
 */
export async function evaluateAlerts(
  lines: readonly HealthLine[],
  options: AlertOptions,
  ports: AlertPorts,
  onceLines: readonly HealthLine[] = [],
): Promise<AlertEvaluation> {
  const watched = lines.filter((l) => !isIgnored(l.id, options));
  const watchedOnce = onceLines.filter((l) => !isIgnored(l.id, options));
  await observeLines(ports.db, [...watched, ...watchedOnce]);
  const claimed = [
    ...(await claimAlerts(
      ports.db,
      watched.map((l) => l.id),
      options,
    )),
    ...(await claimAlerts(
      ports.db,
      watchedOnce.map((l) => l.id),
      { holdSeconds: options.holdSeconds, reminderHours: false },
    )),
  ];
  const outcome: AlertEvaluation = {
    claimed: claimed.map((r) => r.line_id),
    delivered: [],
    failed: [],
  };
  for (const row of await takeDeliveries(ports.db)) {
    ((await deliver(row, options, ports)) ? outcome.delivered : outcome.failed).push(row.line_id);
  }
  return outcome;
}
