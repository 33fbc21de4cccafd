// `npm run demo -- --storefront-origin http://localhost:8000`: another storefront (a Next.js
// one, say) that calls the demo's Store API from a browser. Medusa answers a browser only from
// an origin its STORE_CORS lists; from any other, the browser hides the answer, and the page
// can only say it reached nothing. The demo adds each origin given to the store's list.

/**
 * The origin a browser sends for pages at `value` (scheme, host and port, no path), or an
 * error saying what to write instead.
 * @param {string} value
 * @returns {string}
 */
export function storefrontOrigin(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--storefront-origin must be a storefront's address such as http://localhost:8000, not "${value}"`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`--storefront-origin must start with http:// or https://, not "${value}"`);
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new Error(
      `--storefront-origin is an origin, with no path: ${url.origin}, not "${value}" (a browser sends only the origin)`,
    );
  }
  return url.origin;
}
