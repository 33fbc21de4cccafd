/** How a copy ended: copied through one of two routes, or left selected for the shopper. */
export type CopyOutcome = "clipboard" | "exec-command" | "manual";

/**
 * Copies `text`, trying in turn the Clipboard API, then selection plus
 * `execCommand('copy')`, then leaving `field`'s text selected for a manual copy. `field`
 * is a read-only input (the Pix code) or an element showing text (the boleto line).
 * Call it straight from the click handler: iOS Safari honours `writeText` only
 * while the tap's user activation is fresh, so nothing may be awaited first.
 */
export async function copyText(text: string, field: HTMLElement): Promise<CopyOutcome> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return "clipboard";
    }
  } catch {
    // Denied, or no secure context: the older route below still works in many browsers.
  }
  if (field instanceof HTMLInputElement) {
    field.focus();
    field.select();
    // iOS ignores select() on read-only fields; an explicit range works.
    field.setSelectionRange(0, field.value.length);
  } else {
    // Text shown as text (the boleto line's groups): select it in the document.
    getSelection()?.selectAllChildren(field);
  }
  // The field may show a formatted text (a grouped digitable line); the copy event
  // lets us put the exact text on the clipboard anyway.
  const put = (event: ClipboardEvent) => {
    event.clipboardData?.setData("text/plain", text);
    event.preventDefault();
  };
  document.addEventListener("copy", put, { once: true });
  try {
    if (document.execCommand("copy")) return "exec-command";
  } catch {
    // Some browsers throw instead of returning false.
  } finally {
    document.removeEventListener("copy", put);
  }
  return "manual";
}
