/// <reference lib="dom" />
// The accountant's export: a period of São Paulo days, downloaded as the reconciliation CSV
// (for a spreadsheet) or OFX (for finance tools that import bank statements).
import { Button, Container, Heading, Text } from "@medusajs/ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePixTranslation, usePluginLanguage } from "./i18n";
import { usePixPermissions } from "./permissions";
import { dayLabel, daysBetween, saoPauloDay } from "./sao-paulo-days";

/** The two downloads of the same report. */
type ExportFormat = "csv" | "ofx";

/**
 * "Exportar conciliação (CSV)" and "(OFX)": download `GET /admin/pix-checkout/reconciliation.csv`
 * or `.ofx` for the chosen days with the admin's session, in the admin's language. The last 7
 * days by default, today included, so the first export after a sale holds it; the card says
 * which days the file holds. A refused period shows the route's message, which says what to fix.
 * Nothing of it shows to a user whose role may not export the books.
 */
export function ReconciliationCard({ provider }: { provider: string | undefined }) {
  const { t } = usePixTranslation();
  const { may } = usePixPermissions();
  const { i18n } = useTranslation();
  const language = usePluginLanguage(i18n.resolvedLanguage ?? i18n.language);
  const [from, setFrom] = useState(() => saoPauloDay(6));
  const [to, setTo] = useState(() => saoPauloDay(0));
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const days = daysBetween(from, to);
  if (!may("export")) return null;

  const download = async (format: ExportFormat) => {
    setBusy(format);
    setProblem(null);
    try {
      const query = new URLSearchParams({
        from,
        to,
        lang: (language ?? "").startsWith("pt") ? "pt-BR" : "en",
        ...(provider ? { provider } : {}),
      });
      const response = await fetch(`/admin/pix-checkout/reconciliation.${format}?${query}`, {
        credentials: "include",
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        setProblem(body.message ?? t("reconciliation.failed"));
        return;
      }
      const name =
        /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
        `conciliacao.${format}`;
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      link.click();
      URL.revokeObjectURL(url);
    } catch {
      setProblem(t("reconciliation.failed"));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-pix-checkout="reconciliation">
      <Heading level="h2">{t("reconciliation.title")}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {t("reconciliation.hint")}
      </Text>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col">
          <Text size="xsmall">{t("reconciliation.from")}</Text>
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="flex flex-col">
          <Text size="xsmall">{t("reconciliation.to")}</Text>
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <Button
          size="small"
          variant="secondary"
          isLoading={busy === "csv"}
          disabled={busy !== null}
          onClick={() => void download("csv")}
        >
          {t("reconciliation.export")}
        </Button>
        <Button
          size="small"
          variant="secondary"
          isLoading={busy === "ofx"}
          disabled={busy !== null}
          onClick={() => void download("ofx")}
          data-pix-checkout="export-ofx"
        >
          {t("reconciliation.exportOfx")}
        </Button>
      </div>
      {days > 0 ? (
        <Text size="small" className="text-ui-fg-subtle" data-pix-checkout="export-period">
          {t("reconciliation.period", { days, from: dayLabel(from), to: dayLabel(to) })}
        </Text>
      ) : null}
      {problem ? <Text className="text-ui-fg-error">{problem}</Text> : null}
    </Container>
  );
}
