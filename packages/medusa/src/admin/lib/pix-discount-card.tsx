/// <reference lib="dom" />
// "Desconto no Pix": the one place the merchant turns the Pix discount on and sets it. Medusa's
// own promotion pages cannot build a rule on the payment method, so this card keeps the
// automatic promotion that does, and links to it.
import {
  Badge,
  Button,
  Container,
  Heading,
  Input,
  Label,
  Select,
  Switch,
  Text,
} from "@medusajs/ui";
import { useEffect, useState } from "react";
import { usePixDiscount, useSavePixDiscount } from "./api";
import { formatCents, parseReais, reaisText } from "./format";
import { usePixTranslation } from "./i18n";
import { usePixPermissions } from "./permissions";
import type { AdminPixDiscount } from "./types";

/** What the form holds: the amount as typed (percent, or reais for a fixed amount). */
interface Draft {
  enabled: boolean;
  type: AdminPixDiscount["type"];
  amount: string;
}

function draftOf(discount: AdminPixDiscount | undefined): Draft {
  if (!discount || discount.value === 0) return { enabled: false, type: "percentage", amount: "5" };
  return {
    enabled: discount.enabled,
    type: discount.type,
    amount: discount.type === "fixed" ? reaisText(discount.value) : String(discount.value),
  };
}

/** The typed amount as the route takes it (whole percent, or cents), or null when it is not one. */
function valueOf(draft: Draft): number | null {
  if (draft.type === "fixed") return parseReais(draft.amount);
  const percent = Number(draft.amount.trim());
  return Number.isInteger(percent) && percent >= 1 && percent <= 90 ? percent : null;
}

/**
 * The Pix discount's card: what it is, and the form that sets it, which only a role that may
 * create and update promotions can save (for any other it is shown, not editable).
 */
export function PixDiscountCard() {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const editable = may("saveDiscount");
  const { data, error } = usePixDiscount();
  const save = useSavePixDiscount(t);
  const discount = data?.pix_discount;
  const [draft, setDraft] = useState<Draft>(() => draftOf(discount));
  useEffect(() => setDraft(draftOf(discount)), [discount]);
  const value = valueOf(draft);

  const label = discount?.enabled
    ? discount.type === "percentage"
      ? t("pixDiscount.offerPercent", { value: discount.value })
      : t("pixDiscount.offerFixed", { amount: formatCents(discount.value) })
    : null;

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-pix-checkout="pix-discount">
      <div className="flex items-center justify-between gap-2">
        <Heading level="h2">{t("pixDiscount.title")}</Heading>
        <Badge color={discount?.enabled ? "green" : "grey"}>
          {discount?.enabled ? t("pixDiscount.on") : t("pixDiscount.off")}
        </Badge>
      </div>
      <Text size="small" className="text-ui-fg-subtle">
        {t("pixDiscount.hint")}
      </Text>
      {error ? <Text className="text-ui-fg-error">{error.message}</Text> : null}
      <div className="flex items-center gap-x-2">
        <Switch
          id="pix-discount-enabled"
          disabled={!editable}
          checked={draft.enabled}
          onCheckedChange={(enabled) => setDraft({ ...draft, enabled })}
        />
        <Label htmlFor="pix-discount-enabled">{t("pixDiscount.enabled")}</Label>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-y-1">
          <Label size="xsmall">{t("pixDiscount.type")}</Label>
          <Select
            disabled={!editable}
            value={draft.type}
            onValueChange={(type) =>
              setDraft({ ...draft, type: type as Draft["type"], amount: "" })
            }
          >
            <Select.Trigger>
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value="percentage">{t("pixDiscount.percentage")}</Select.Item>
              <Select.Item value="fixed">{t("pixDiscount.fixed")}</Select.Item>
            </Select.Content>
          </Select>
        </div>
        <div className="flex flex-col gap-y-1">
          <Label size="xsmall" htmlFor="pix-discount-amount">
            {draft.type === "percentage" ? t("pixDiscount.percent") : t("pixDiscount.amount")}
          </Label>
          <Input
            id="pix-discount-amount"
            disabled={!editable}
            inputMode="decimal"
            value={draft.amount}
            onChange={(e) => setDraft({ ...draft, amount: e.target.value })}
            aria-invalid={value === null}
          />
        </div>
        {editable ? (
          <Button
            size="small"
            disabled={value === null}
            isLoading={save.isPending}
            onClick={() =>
              value !== null && save.mutate({ enabled: draft.enabled, type: draft.type, value })
            }
            data-pix-checkout="save-discount"
          >
            {t("pixDiscount.save")}
          </Button>
        ) : null}
      </div>
      {editable ? null : (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {t("pixDiscount.readOnly")}
        </Text>
      )}
      {value === null ? (
        <Text size="xsmall" className="text-ui-fg-error">
          {draft.type === "percentage" ? t("pixDiscount.badPercent") : t("pixDiscount.badAmount")}
        </Text>
      ) : null}
      {label ? <Text size="small">{t("pixDiscount.shoppersSee", { label })}</Text> : null}
      {discount?.promotion_id ? (
        <Text size="small">
          <a
            className="text-ui-fg-interactive hover:underline"
            href={`/app/promotions/${encodeURIComponent(discount.promotion_id)}`}
          >
            {t("pixDiscount.promotion", { code: discount.code })}
          </a>
        </Text>
      ) : null}
    </Container>
  );
}
