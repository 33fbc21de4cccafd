/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A complete page with the shared minimal stylesheet. `body` must already be escaped. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 68rem; padding: 0 1rem; color: #1b1b1b; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0 2rem; }
th, td { border-bottom: 1px solid #ddd; padding: .4rem .5rem; text-align: left; vertical-align: top; }
code, .mono { font-family: ui-monospace, monospace; font-size: .9em; word-break: break-all; }
.status-paid { color: #08660f; } .status-expired, .status-failed { color: #a01616; }
button { margin-right: .3rem; }
.note { color: #555; }
@media print { button, .no-print { display: none; } }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
