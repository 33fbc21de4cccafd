/// <reference lib="dom" />
// Pix returned by the MED (docs/ledger.md): the merchant hears of a notificação de infração from
// the payment service and marks it here ("Registrar MED"), then records how it ended
// ("Devolvido pelo MED", "Mantido"), each confirmed in a drawer that says, before anything is
// recorded, where the money goes: the lines come from the server's own rule
// (`medOutcomeSplit` of `@pix-checkout/client/med`), in its order. Each button shows only when
// the charge is a Pix, its money allows it and the admin user's role may take it (lib/permissions.ts, the
// `med` action).
import { Button, Drawer, Input, Label, Text } from "@medusajs/ui";
import { useState } from "react";
import { medOutcomeSplit } from "@pix-checkout/client/med";
import { useMarkMed, useMedOutcome } from "./api";
import { formatCents, parseReais, reaisText } from "./format";
import { usePixTranslation } from "./i18n";
import { MoneyField } from "./money-field";
import { usePixPermissions } from "./permissions";
import type { AdminMoney } from "./types";

/** What the MED buttons read of a charge. */
interface MedCharge {
  charge_id: string;
  method: string;
  status: string;
  money: AdminMoney | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The MED of one charge: "Registrar MED" on money owed back or captured without an open MED (a
 * drawer for the protocol number, the deadline and the amount blocked, at most both); while one
 * is open, what it blocks and its deadline, with "Devolvido pelo MED" and "Mantido", each
 * confirmed in a drawer (`MedOutcomeDrawer`).
 */
export function MedActions({ charge }: { charge: MedCharge }) {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const mark = useMarkMed(t);
  const money = charge.money;
  const captured = money?.captured ?? 0;
  const blockable = captured + (money?.owed ?? 0);
  const [open, setOpen] = useState(false);
  const [protocol, setProtocol] = useState("");
  const [deadline, setDeadline] = useState("");
  const [amount, setAmount] = useState(reaisText(blockable));
  const [ending, setEnding] = useState<"returned" | "kept" | null>(null);
  // The MED is the Pix system's: a boleto offers none.
  if (!money || !may("med") || charge.method !== "pix") return null;
  const med = money.med;
  if (med?.state === "open") {
    return (
      <div className="flex flex-wrap items-center justify-end gap-2" data-pix-checkout="med-open">
        <Text size="small" className="text-ui-fg-error">
          {t("med.openLine", {
            amount: formatCents(med.blocked),
            protocol: med.protocol,
            deadline: med.deadline.split("-").reverse().join("/"),
          })}
        </Text>
        <Button
          size="small"
          variant="secondary"
          onClick={() => setEnding("returned")}
          data-pix-checkout="med-returned"
        >
          {t("med.returned")}
        </Button>
        <Button
          size="small"
          variant="secondary"
          onClick={() => setEnding("kept")}
          data-pix-checkout="med-kept"
        >
          {t("med.kept")}
        </Button>
        {ending ? (
          <MedOutcomeDrawer
            chargeId={charge.charge_id}
            outcome={ending}
            blockedOwed={med.blocked_owed ?? 0}
            contested={money.contested}
            onClose={() => setEnding(null)}
          />
        ) : null}
      </div>
    );
  }
  if (charge.status !== "paid" || blockable === 0) return null;
  const cents = parseReais(amount);
  const badAmount = cents === null || cents <= 0 || cents > blockable;
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
            <MoneyField
              id="pix-med-amount"
              label={t("med.amount")}
              value={amount}
              onChange={setAmount}
              error={badAmount ? t("med.badAmount", { captured: formatCents(blockable) }) : null}
            />
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

/**
 * The confirmation of a MED's outcome: the amount the MED returned (all of the block by default;
 * none for "Mantido") and, under the amount blocked, one line per destination, which add up to
 * it to the cent. Nothing is recorded until the merchant confirms.
 */
function MedOutcomeDrawer({
  chargeId,
  outcome,
  blockedOwed,
  contested,
  onClose,
}: {
  chargeId: string;
  outcome: "returned" | "kept";
  blockedOwed: number;
  contested: number;
  onClose: () => void;
}) {
  const { t } = usePixTranslation();
  const record = useMedOutcome(t);
  const blocked = blockedOwed + contested;
  const [amount, setAmount] = useState(reaisText(blocked));
  const cents = outcome === "kept" ? 0 : parseReais(amount);
  // The owed money Medusa holds captured is not known here: its part of a return is shown as
  // settled owed money; the server's answer says what Medusa recorded.
  const split =
    cents === null
      ? undefined
      : medOutcomeSplit({ blockedOwed, blockedOwedOnOrder: 0, contested }, cents);
  const bad = !split || (outcome === "returned" && split.returned === 0);
  const lines: [string, number][] = split
    ? [
        ["med.lineOwedSettled", split.owedSettled],
        ["med.lineRefunded", split.refundedOnOrder],
        ["med.lineIncome", split.incomeAgain],
        ["med.lineStillOwed", split.stillOwed],
      ]
    : [];
  return (
    <Drawer open onOpenChange={(open) => !open && onClose()}>
      <Drawer.Content>
        <Drawer.Header>
          <Drawer.Title>
            {t(outcome === "returned" ? "med.returnedTitle" : "med.keptTitle")}
          </Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4">
          {outcome === "returned" ? (
            <MoneyField
              id="pix-med-returned"
              label={t("med.returnedAmount")}
              value={amount}
              onChange={setAmount}
              error={bad ? t("med.badReturned", { blocked: formatCents(blocked) }) : null}
            />
          ) : null}
          <div className="flex flex-col gap-y-1" data-pix-checkout="med-outcome-lines">
            <Text size="small" weight="plus">
              {t("med.blockedTotal", { amount: formatCents(blocked) })}
            </Text>
            <ul className="flex flex-col gap-y-1">
              {lines
                .filter(([, value]) => value > 0)
                .map(([key, value]) => (
                  <li key={key}>
                    <Text size="small">{t(key, { amount: formatCents(value) })}</Text>
                  </li>
                ))}
            </ul>
          </div>
        </Drawer.Body>
        <Drawer.Footer>
          <Button
            disabled={bad}
            isLoading={record.isPending}
            onClick={() =>
              split &&
              record.mutate(
                outcome === "kept"
                  ? { chargeId, outcome: "kept" }
                  : { chargeId, outcome: "returned", amount: split.returned },
                { onSuccess: onClose },
              )
            }
            data-pix-checkout="med-outcome-confirm"
          >
            {t(outcome === "returned" ? "med.confirmReturned" : "med.confirmKept")}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  );
}
