/// <reference lib="dom" />
// What the merchant does about a charge in "Precisa de atenção": record a refund, accept a held
// amount, resolve a note. Each button shows only when the charge needs it and the admin user's
// role may take it (lib/permissions.ts): a button whose route would answer 403 is not drawn.
import { Button, Drawer, Label, Text, Textarea } from "@medusajs/ui";
import { useState } from "react";
import { useAcceptReceived, useRecordRefund, useResolveFlag } from "./api";
import { formatCents, parseReais, reaisText } from "./format";
import { usePixTranslation } from "./i18n";
import { MoneyField } from "./money-field";
import { usePixPermissions } from "./permissions";
import { refundWhereWords } from "./refund-words";
import type { AdminChargeSummary } from "./types";

/**
 * What the merchant does about a charge that needs them, by what its money needs: accept a
 * held payment, record a refund made in the service's dashboard (prefilled with the amount
 * due), or, for a note only, resolve it. Money is never resolved away. A button the user's role
 * may not use is not drawn.
 */
export function FlagActions({ charge }: { charge: AdminChargeSummary }) {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const refund = useRecordRefund(t);
  const resolve = useResolveFlag(t);
  const accept = useAcceptReceived(t);
  const [open, setOpen] = useState<"refund" | "resolve" | "accept" | null>(null);
  // What is owed back first, then what is held for the merchant, then the order's money: what
  // the ledger holds, never more than arrived.
  const money = charge.money;
  const due =
    money.owed > 0 ? money.owed : money.held_reason === "underpaid" ? money.held : money.captured;
  const [amount, setAmount] = useState(reaisText(due));
  const [note, setNote] = useState("");
  const cents = parseReais(amount);
  const submit = () => {
    if (open === "refund" && cents !== null) {
      refund.mutate(
        { chargeId: charge.charge_id, amount: cents, note },
        { onSuccess: () => setOpen(null) },
      );
    }
    if (open === "resolve") {
      resolve.mutate({ chargeId: charge.charge_id, note }, { onSuccess: () => setOpen(null) });
    }
    if (open === "accept") {
      accept.mutate({ chargeId: charge.charge_id, note }, { onSuccess: () => setOpen(null) });
    }
  };
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {charge.status === "paid" && due > 0 && may("refund") ? (
        <Button
          size="small"
          variant="secondary"
          onClick={() => setOpen("refund")}
          data-pix-checkout="record-refund"
        >
          {t("refund.button")}
        </Button>
      ) : null}
      {charge.attention === "held" && may("accept") ? (
        <Button
          size="small"
          variant="secondary"
          onClick={() => setOpen("accept")}
          data-pix-checkout="accept-amount"
        >
          {t("accept.button")}
        </Button>
      ) : null}
      {charge.attention === "note" && may("resolve") ? (
        <Button
          size="small"
          variant="transparent"
          onClick={() => setOpen("resolve")}
          data-pix-checkout="resolve-note"
        >
          {t("resolve.button")}
        </Button>
      ) : null}
      <Drawer open={open !== null} onOpenChange={(next) => setOpen(next ? open : null)}>
        <Drawer.Content>
          <Drawer.Header>
            <Drawer.Title>{t(`${open ?? "resolve"}.title`)}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4">
            {open === "accept" ? (
              <Text size="small" className="text-ui-fg-subtle">
                {t("accept.hint", {
                  received: formatCents(charge.received ?? 0),
                  amount: formatCents(charge.amount),
                })}
              </Text>
            ) : null}
            {open === "refund" ? (
              <>
                <Text size="small" className="text-ui-fg-subtle">
                  {t("refund.hint")}
                </Text>
                <MoneyField
                  id="pix-refund-amount"
                  label={t("refund.amount")}
                  value={amount}
                  onChange={setAmount}
                  error={cents === null ? t("refund.badAmount") : null}
                />
                {/* Where it will be recorded, split as the refund route splits it. */}
                <div className="flex flex-col gap-y-1" data-pix-checkout="refund-where">
                  {refundWhereWords(charge.refund_portions ?? [], cents, charge.order, t).map(
                    (line) => (
                      <Text key={line} size="small">
                        {line}
                      </Text>
                    ),
                  )}
                </div>
              </>
            ) : null}
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="pix-flag-note">{t(`${open ?? "resolve"}.note`)}</Label>
              <Textarea
                id="pix-flag-note"
                value={note}
                placeholder={t(`${open ?? "resolve"}.notePlaceholder`)}
                onChange={(event) => setNote(event.target.value)}
              />
            </div>
          </Drawer.Body>
          <Drawer.Footer>
            <Button
              onClick={submit}
              disabled={note.trim() === "" || (open === "refund" && cents === null)}
              isLoading={refund.isPending || resolve.isPending || accept.isPending}
            >
              {t(`${open ?? "resolve"}.save`)}
            </Button>
          </Drawer.Footer>
        </Drawer.Content>
      </Drawer>
    </div>
  );
}
