/// <reference lib="dom" />
import { Text } from "@medusajs/ui";
import { usePixTranslation } from "./i18n";
import {
  refundDeadlineTone,
  refundDeadlineWords,
  type RefundDeadline,
} from "./refund-deadline-words";

const TONE_CLASS = {
  error: "text-ui-fg-error",
  warning: "text-ui-tag-orange-text",
  subtle: "text-ui-fg-subtle",
} as const;

/**
 * The clock of a charge's Pix money owed back, in one line under its money line (which
 * already says how much): "Prazo para devolver pelo Pix: faltam 12 dias (até 08/03/2027)",
 * red at 5 days or fewer. Nothing for a charge with nothing owed, or a boleto (no Pix
 * devolução window).
 */
export function RefundDeadlineLine({ deadline }: { deadline: RefundDeadline | null | undefined }) {
  const { t } = usePixTranslation();
  if (!deadline) return null;
  const tone = refundDeadlineTone(deadline);
  return (
    <Text
      size="xsmall"
      weight={tone === "subtle" ? "regular" : "plus"}
      className={TONE_CLASS[tone]}
      title={t("refundDeadline.title")}
      data-pix-checkout="refund-deadline"
      data-state={deadline.state}
    >
      {refundDeadlineWords(deadline, t)}
    </Text>
  );
}
