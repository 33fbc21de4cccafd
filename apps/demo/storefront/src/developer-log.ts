/**
 * The one place the storefront writes to the browser's console: the store's own words about a
 * refusal (English, for whoever develops the store), which a shopper never reads on the page.
 */
export function logForDevelopers(text: string): void {
  // An app, not a library: the console is where a storefront's developer looks.
  // eslint-disable-next-line no-console
  console.warn(`[pix-checkout demo] ${text}`);
}
