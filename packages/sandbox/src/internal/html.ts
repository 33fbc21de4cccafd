/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * A complete page with the shared minimal stylesheet. `body` must already be escaped. The
 * developer's pages are English; the pages a shopper may open (the boleto, a Pix's payment
 * link) are Brazilian Portuguese, like the checkout that links to them.
 */
export function page(title: string, body: string, lang: "en" | "pt-BR" = "en"): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 68rem; padding: 0 1rem; color: #1b1b1b; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0 2rem; }
th, td { border-bottom: 1px solid #ddd; padding: .4rem .5rem; text-align: left; vertical-align: top; }
code, .mono { font-family: ui-monospace, monospace; font-size: .9em; word-break: break-all; }
.line { font-size: 1.15em; word-break: normal; overflow-wrap: anywhere; }
svg.barcode { display: block; max-width: 100%; height: auto; }
img { max-width: 100%; height: auto; }
.status-paid { color: #08660f; } .status-expired, .status-failed { color: #a01616; }
button { margin: .15rem .3rem .15rem 0; min-height: 44px; min-width: 44px; padding: 0 1rem; font: inherit; }
.note { color: #555; }
.actions { white-space: nowrap; }
/* A phone: each row of a list becomes a card of labelled lines, so nothing is squeezed into a
   column one character wide and no cell covers another's buttons. */
@media (max-width: 40rem) {
  body { margin: 1rem auto; }
  table.cards, .cards tbody, .cards tr, .cards td { display: block; }
  .cards thead { display: none; }
  .cards tr { border: 1px solid #ddd; border-radius: 8px; padding: .5rem .75rem; margin-bottom: .75rem; }
  .cards td { border: 0; padding: .15rem 0; }
  .cards td[data-label]::before { content: attr(data-label) ": "; color: #555; font-family: system-ui, sans-serif; }
  .actions { white-space: normal; }
}
@media print { button, .no-print { display: none; } }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
