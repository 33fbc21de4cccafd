/// <reference lib="dom" />
// Pix returned by the MED (docs/ledger.md): the merchant hears of a notificação de infração from
// the payment service and marks it here ("Registrar MED"), then records how it ended
// ("Devolvido pelo MED", "Mantido"). Each button shows only when the charge's money allows it
// and the admin user's role may take it (lib/permissions.ts, the `med` action).
import { Button, Drawer, Input, Label, Text } from "@medusajs/ui";
import { useState } from "react";
import { useMarkMed, useMedOutcome } from "./api";
import { formatCents, parseReais } from "./format";
import { usePixTranslation } from "./i18n";
import { usePixPermissions } from "./permissions";
import type { AdminMoney } from "./types";

/** What the MED buttons read of a charge. */
interface MedCharge {
  charge_id: string;
  status: string;
  money: AdminMoney | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The MED of one charge: "Registrar MED" on captured money without an open MED (a drawer for
 * the protocol number, the deadline and the amount blocked, at most what is captured); while
 * one is open, what it blocks and its deadline, with "Devolvido pelo MED" and "Mantido".
 */
export function MedActions({ charge }: { charge: MedCharge }) {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const mark = useMarkMed(t);
  const outcome = useMedOutcome(t);
  const money = charge.money;
  const captured = money?.captured ?? 0;
  const [open, setOpen] = useState(false);
  const [protocol, setProtocol] = useState("");
  const [deadline, setDeadline] = useState("");
  const [amount, setAmount] = useState(formatCents(captured).replace(/^R\$\s*/, ""));
  if (!money || !may("med")) return null;
  const med = money.med;
  if (med?.state === "open") {
    return (
      <div className="flex flex-wrap items-center justify-end gap-2" data-pix-checkout="med-open">
        <Text size="small" className="text-ui-fg-error">
          {t("med.openLine", {
            amount: formatCents(money.contested),
            protocol: med.protocol,
            deadline: med.deadline.split("-").reverse().join("/"),
          })}
        </Text>
        <Button
          size="small"
          variant="secondary"
          isLoading={outcome.isPending}
          onClick={() => outcome.mutate({ chargeId: charge.charge_id, outcome: "returned" })}
          data-pix-checkout="med-returned"
        >
          {t("med.returned")}
        </Button>
        <Button
          size="small"
          variant="secondary"
          isLoading={outcome.isPending}
          onClick={() => outcome.mutate({ chargeId: charge.charge_id, outcome: "kept" })}
          data-pix-checkout="med-kept"
        >
          {t("med.kept")}
        </Button>
      </div>
    );
  }
  if (charge.status !== "paid" || captured === 0) return null;
  const cents = parseReais(amount);
  const badAmount = cents === null || cents <= 0 || cents > captured;
  const ready = protocol.trim() !== "" && DAY.test(deadline) && !badAmount;
  return (
    <div className="flex justify-end">
      <Button
        size="small"
        variant="transparent"
        onClick={() => setOpen(true)}
        data-pix-checkout="med-mark"
      >
        {t("med.button")}
      </Button>
      <Drawer open={open} onOpenChange={setOpen}>
        <Drawer.Content>
          <Drawer.Header>
            <Drawer.Title>{t("med.title")}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4">
            <Text size="small" className="text-ui-fg-subtle">
              {t("med.hint")}
            </Text>
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="pix-med-protocol">{t("med.protocol")}</Label>
              <Input
                id="pix-med-protocol"
                value={protocol}
                onChange={(event) => setProtocol(event.target.value)}
              />
            </div>
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="pix-med-deadline">{t("med.deadline")}</Label>
              <Input
                id="pix-med-deadline"
                type="date"
                value={deadline}
                onChange={(event) => setDeadline(event.target.value)}
              />
            </div>
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="pix-med-amount">{t("med.amount")}</Label>
              <Input
                id="pix-med-amount"
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                aria-invalid={badAmount}
              />
              {badAmount ? (
                <Text size="xsmall" className="text-ui-fg-error">
                  {t("med.badAmount", { captured: formatCents(captured) })}
                </Text>
              ) : null}
            </div>
          </Drawer.Body>
          <Drawer.Footer>
            <Button
              disabled={!ready}
              isLoading={mark.isPending}
              onClick={() =>
                cents !== null &&
                mark.mutate(
                  {
                    chargeId: charge.charge_id,
                    protocol: protocol.trim(),
                    deadline,
                    amount: cents,
                  },
                  { onSuccess: () => setOpen(false) },
                )
              }
              data-pix-checkout="med-save"
            >
              {t("med.save")}
            </Button>
          </Drawer.Footer>
        </Drawer.Content>
      </Drawer>
    </div>
  );
}
