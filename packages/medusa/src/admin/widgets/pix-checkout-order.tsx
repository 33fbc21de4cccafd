/// <reference lib="dom" />
// Admin extensions run in the merchant's browser (the server code is built without DOM types).
import { useEffect, useState } from "react";
import QRCode from "qrcode";
import { defineWidgetConfig } from "@medusajs/admin-sdk";
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types";
import { Badge, Button, Container, Copy, Heading, Text, toast } from "@medusajs/ui";
import { useChargeOrder, useOrderCharges, useRecheck } from "../lib/api";
import { mailtoUrl, whatsappUrl } from "../lib/payment-link";
import { deliveryDetailWords } from "../lib/delivery-detail";
import { usePixTranslation } from "../lib/i18n";
import { formatCents, statusColor } from "../lib/format";
import { MoneyLine } from "../lib/money-line";
import { MedActions } from "../lib/med-actions";
import { RefundDeadlineLine } from "../lib/refund-deadline-line";
import { usePixPermissions } from "../lib/permissions";
import type { AdminCharge, AdminOutstanding, TimelineEntry } from "../lib/types";
import { buyerDocumentOnOrder, printedBuyerDocument } from "../../internal/platform/buyer-document";

/** A reminder line's step and, when it was not sent, why: ` (vence amanhã: já pago)`. */
function reminderWords(
  entry: Extract<TimelineEntry, { type: "state" }>,
  t: ReturnType<typeof usePixTranslation>["t"],
): string {
  if (!entry.reminder) return "";
  const step = t(`reminder.step.${entry.reminder.step}`, { defaultValue: entry.reminder.step });
  const reason = entry.reminder.reason
    ? `: ${t(`reminder.reason.${entry.reminder.reason}`, { defaultValue: entry.reminder.reason })}`
    : "";
  return ` (${step}${reason})`;
}

/**
 * A refund line's figures: what went back, where it is recorded (Medusa's order for money
 * Medusa captured, else only the plugin's ledger) and the merchant's note.
 */
function refundWords(
  entry: Extract<TimelineEntry, { type: "state" }>,
  t: ReturnType<typeof usePixTranslation>["t"],
): string {
  const refund = entry.refund;
  if (!refund) return "";
  const ledger = refund.amount - refund.medusa;
  const where =
    refund.medusa > 0 && ledger > 0
      ? t("widget.refund.both", {
          amount: formatCents(refund.amount),
          medusa: formatCents(refund.medusa),
          ledger: formatCents(ledger),
        })
      : t(refund.medusa > 0 ? "widget.refund.medusa" : "widget.refund.ledger", {
          amount: formatCents(refund.amount),
        });
  const note = refund.note ? ` · ${t("widget.refund.note", { note: refund.note })}` : "";
  return `: ${where}${note}`;
}

function TimelineLine({ entry }: { entry: TimelineEntry }) {
  const { t, statusLabel, instant } = usePixTranslation();
  let what: string;
  if (entry.type === "delivery") {
    const detail = deliveryDetailWords(entry.detail, t, statusLabel);
    what = `${t("widget.webhook", { event: entry.event, outcome: statusLabel(entry.outcome) })}${detail ? ` (${detail})` : ""}`;
  } else {
    const move = entry.to_status
      ? `${entry.from_status ? statusLabel(entry.from_status) : t("widget.new")} → ${statusLabel(entry.to_status)}`
      : "";
    // The kind only adds something when it is not just the new status (late_payment, captured…).
    const kind =
      entry.kind === entry.to_status || entry.kind === "created"
        ? ""
        : t(`kind.${entry.kind}`, { defaultValue: entry.kind }) +
          reminderWords(entry, t) +
          refundWords(entry, t);
    what = `${[move, kind].filter(Boolean).join(", ")} · ${t(`source.${entry.source}`, { defaultValue: entry.source })}`;
  }
  return (
    <li className="flex flex-col">
      <Text size="xsmall" className="text-ui-fg-subtle">
        {instant(entry.at)}
      </Text>
      <Text size="small" className="break-words">
        {what}
      </Text>
    </li>
  );
}

function ChargeCard({ charge }: { charge: AdminCharge }) {
  const { t, statusLabel, instant, flagReason } = usePixTranslation();
  const recheck = useRecheck(t);
  const { may } = usePixPermissions();
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-x-2">
          <Badge color={statusColor(charge.status)}>{statusLabel(charge.status)}</Badge>
          <Text weight="plus">{charge.method === "pix" ? "Pix" : "Boleto"}</Text>
          <Text>{formatCents(charge.amount, charge.currency)}</Text>
          {charge.purpose && charge.purpose !== "cart" ? (
            <Badge size="2xsmall" color="grey">
              {t(`purpose.${charge.purpose}`)}
            </Badge>
          ) : null}
        </div>
        {may("recheck") ? (
          <Button
            size="small"
            variant="secondary"
            isLoading={recheck.isPending}
            onClick={() => recheck.mutate(charge.charge_id)}
            data-pix-checkout="recheck"
          >
            {t("widget.recheckNow")}
          </Button>
        ) : null}
      </div>
      {recheck.data ? (
        // The answer stays beside the button, not only in a toast that fades.
        <Text size="small" className="text-ui-fg-subtle" role="status">
          {t("widget.recheckedAt", {
            at: instant(new Date(recheck.submittedAt).toISOString()),
            status: statusLabel(recheck.data.charge?.status ?? "unknown"),
          })}
        </Text>
      ) : null}
      <Text size="small" className="text-ui-fg-subtle">
        {t("widget.charge", { id: charge.charge_id })} ·{" "}
        {t("widget.expires", { at: instant(charge.expires_at) })}
        {charge.paid_at ? ` · ${t("widget.paid", { at: instant(charge.paid_at) })}` : ""}
      </Text>
      <MoneyLine money={charge.money} currency={charge.currency} />
      <MedActions charge={charge} />
      <RefundDeadlineLine deadline={charge.refund_deadline} />
      {charge.attention ? (
        <Text size="small" className="text-ui-fg-error">
          {t("widget.needsAttention", {
            reason:
              charge.attention === "note"
                ? flagReason(charge.flag)
                : t(`attention.kind.${charge.attention}`),
          })}
        </Text>
      ) : null}
      {charge.pix ? (
        <div className="flex items-center gap-x-2">
          <Text size="small" className="truncate font-mono">
            {charge.pix.copy_paste}
          </Text>
          <Copy content={charge.pix.copy_paste} />
        </div>
      ) : null}
      {charge.boleto ? (
        <a
          href={charge.boleto.url}
          target="_blank"
          rel="noreferrer"
          className="text-ui-fg-interactive"
        >
          <Text size="small">
            {t("widget.openBoleto")} {charge.boleto.digitable_line ?? ""}
          </Text>
        </a>
      ) : null}
      <ul className="flex flex-col gap-y-1">
        {charge.timeline.map((entry) => (
          <TimelineLine key={`${entry.type}-${entry.id}`} entry={entry} />
        ))}
      </ul>
    </div>
  );
}

/** The QR of a link, drawn in the browser as an image (PNG data URL); null while drawing. */
function useQr(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setUrl(null);
    if (text) {
      QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, width: 320 })
        .then((drawn) => live && setUrl(drawn))
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [text]);
  return url;
}

/**
 * What the order still owes after the sale (an edit's, exchange's or claim's difference, a
 * converted draft's total) and how to send it: the payment link (the one Medusa's "Copy payment
 * link" copies, or the plugin's page on this server when the store set no storefront URL), its
 * QR, copy, WhatsApp and e-mail; for an order with no collection yet, "Cobrar por Pix".
 */
function OutstandingCard({
  orderId,
  outstanding,
}: {
  orderId: string;
  outstanding: AdminOutstanding;
}) {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const charge = useChargeOrder(orderId);
  const link =
    outstanding.link ??
    (outstanding.page_path ? new URL(outstanding.page_path, window.location.origin).href : null);
  const qr = useQr(link);
  const number = outstanding.display_id !== null ? `#${outstanding.display_id}` : "";
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t("outstanding.copied"));
    } catch {
      toast.error(t("outstanding.copyFailed"));
    }
  };
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-pix-checkout="outstanding">
      <div className="flex flex-col gap-y-1">
        <Text size="small" className="text-ui-fg-subtle">
          {t(`outstanding.for.${outstanding.purpose}`, { number })}
        </Text>
        <Heading level="h3">{formatCents(outstanding.amount, outstanding.currency)}</Heading>
      </div>
      {link ? (
        <>
          <div className="flex items-start gap-x-3">
            {qr ? (
              <img
                src={qr}
                alt={t("outstanding.qrAlt")}
                width={112}
                height={112}
                className="shrink-0 rounded border border-ui-border-base bg-white"
                data-pix-checkout="outstanding-qr"
              />
            ) : null}
            <Text size="xsmall" className="min-w-0 break-all font-mono" data-pix-checkout="link">
              {link}
            </Text>
          </div>
          {outstanding.link ? null : (
            <Text size="xsmall" className="text-ui-fg-subtle">
              {t("outstanding.storefrontUrlHint")}
            </Text>
          )}
          <div className="flex flex-wrap gap-2">
            <Button size="small" variant="secondary" onClick={copy}>
              {t("outstanding.copyLink")}
            </Button>
            <Button size="small" variant="secondary" asChild>
              <a href={whatsappUrl(outstanding, link)} target="_blank" rel="noreferrer">
                {t("outstanding.whatsapp")}
              </a>
            </Button>
            {outstanding.email ? (
              <Button size="small" variant="secondary" asChild>
                <a href={mailtoUrl(outstanding, link)}>{t("outstanding.email")}</a>
              </Button>
            ) : null}
          </div>
        </>
      ) : (
        <>
          <Text size="small">{t("outstanding.noLink")}</Text>
          {may("chargeOrder") ? (
            <div>
              <Button
                size="small"
                isLoading={charge.isPending}
                onClick={() =>
                  charge.mutate(undefined, {
                    onError: (error) => toast.error(error.message),
                  })
                }
                data-pix-checkout="charge-order"
              >
                {t("outstanding.charge")}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

/**
 * The buyer's CPF or CNPJ the plugin wrote on the order, whole (the merchant issues the nota
 * fiscal to it), with a copy button; nothing when the order has none.
 */
function BuyerDocumentLine({ metadata }: { metadata: Record<string, unknown> | null | undefined }) {
  const { t } = usePixTranslation();
  const document = buyerDocumentOnOrder(metadata);
  if (!document) return null;
  return (
    <div className="flex items-center gap-x-2 px-6 py-3" data-pix-checkout="buyer-document">
      <Text size="small" className="text-ui-fg-subtle">
        {t("widget.buyerDocument")}
      </Text>
      <Text size="small" className="font-mono">
        {printedBuyerDocument(document.number)}
      </Text>
      <Copy content={document.number} />
    </div>
  );
}

/**
 * Order page widget: what the order still owes that a Pix link can collect, and the Pix/boleto
 * charges behind this order and what happened to them. A user whose role cannot read payments
 * sees nothing of it, as Medusa's own payment card.
 */
const PixCheckoutOrderWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { may } = usePixPermissions();
  const { data, error } = useOrderCharges(order.id, may("read"));
  const charges = data?.charges ?? null;
  const outstanding = data?.outstanding ?? null;
  // An order paid by another provider, owing nothing, shows nothing.
  if (!may("read") || (!error && !outstanding && (charges === null || charges.length === 0))) {
    return null;
  }
  return (
    <Container className="divide-y p-0" data-pix-checkout="order-widget">
      <div className="px-6 py-4">
        <Heading level="h2">Pix Checkout</Heading>
      </div>
      <BuyerDocumentLine metadata={order.metadata} />
      {error ? (
        <Text className="px-6 py-4 text-ui-fg-error">{error.message}</Text>
      ) : (
        <>
          {outstanding ? <OutstandingCard orderId={order.id} outstanding={outstanding} /> : null}
          {charges!.map((charge) => (
            <ChargeCard key={charge.charge_id} charge={charge} />
          ))}
        </>
      )}
    </Container>
  );
};

// The side column's top: beside the order's summary and payment, seen without scrolling, where
// the main column's bottom sat under Medusa's metadata and JSON cards. The id, with the plugin's
// prefix, is what Medusa stores a merchant's layout choices for this widget under (moved,
// hidden), so they survive the file being renamed; without it Medusa hashes the file's path.
export const config = defineWidgetConfig({
  id: "pix-checkout.order-payment",
  zone: "order.details.side.before",
});

export default PixCheckoutOrderWidget;
