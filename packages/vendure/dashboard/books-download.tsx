import { useState } from "react";
import { Button, Input } from "@vendure/dashboard";

/** Where the dashboard keeps its session and channel (Vendure's dashboard, constants.ts). */
const SESSION_TOKEN = "vendure-session-token";
const CHANNEL_TOKEN = "vendure-selected-channel-token";

/** A São Paulo day, YYYY-MM-DD, `daysBack` days before today. */
function saoPauloDay(daysBack: number): string {
  const at = new Date(Date.now() - daysBack * 86_400_000);
  return at.toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
}

/**
 * The books of a period as the CSV a Brazilian Excel opens (`GET /admin/pix-checkout/books.csv`),
 * asked with the dashboard's own session and channel; the server says what a bad period is.
 * The dashboard is served by the Vendure server it manages (DashboardPlugin), so the file is
 * asked of the same origin.
 */
export function BooksDownload() {
  const [from, setFrom] = useState(saoPauloDay(29));
  const [to, setTo] = useState(saoPauloDay(0));
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setFailure(null);
    const headers = new Headers();
    const session = localStorage.getItem(SESSION_TOKEN);
    const channel = localStorage.getItem(CHANNEL_TOKEN);
    if (session) headers.set("Authorization", `Bearer ${session}`);
    if (channel) headers.set("vendure-token", channel);
    const url = `/admin/pix-checkout/books.csv?from=${from}&to=${to}`;
    const response = await fetch(url, { headers, credentials: "include" }).catch(() => null);
    if (!response?.ok) {
      const said = await response?.json().catch(() => null);
      setFailure(said?.message ?? "Não foi possível baixar o livro agora; tente de novo.");
      return;
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = `livro-pix-${from}_${to}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void download();
      }}
    >
      <label className="flex flex-col text-sm">
        De
        <Input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
      </label>
      <label className="flex flex-col text-sm">
        Até
        <Input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
      </label>
      <Button type="submit">Baixar livro (CSV)</Button>
      {failure ? (
        <p role="alert" className="w-full text-xs text-destructive">
          {failure}
        </p>
      ) : null}
    </form>
  );
}
