import type { Json } from "./checkout";

/*
 * The plugin's payment page as a customer's phone meets it: the link Medusa's "Copy payment
 * link" copies, opened with a GET, and its button, which calls Medusa's store route exactly as
 * the page's own script does (storefront/collection-page-html.ts).
 */

/** The public host the test app's `admin.storefrontUrl` names (app/medusa-config.ts). */
export const PUBLIC_BACKEND = "https://api.loja.example.com";

/** What Medusa's order page copies for a collection, with the app's `admin.storefrontUrl`. */
export function copiedLink(collectionId: string, orderId: string): string {
  return `${PUBLIC_BACKEND}/pix-checkout/payment-collection/${collectionId}?order_id=${orderId}`;
}

/** A page as opened: its status, headers, HTML, title and the data its script reads. */
export interface OpenedPage {
  status: number;
  headers: Headers;
  html: string;
  /** The page's `<h1>`, tags left out. */
  title: string;
  /** The text of the page's `<main>`, tags left out. */
  text: string;
  /** The script's data (collection, key, providers, the live session); null on pages without a button. */
  data: {
    collectionId: string;
    publishableKey: string;
    pix: string;
    boleto: string | null;
    sessionId: string | null;
    order: string;
  } | null;
}

const plain = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, " ")
    .trim();

/** Opens `link` (a copied link, its public host replaced by `base`) as a phone's browser does. */
export async function openPage(base: string, link: string): Promise<OpenedPage> {
  const response = await fetch(link.replace(PUBLIC_BACKEND, base), { redirect: "manual" });
  const html = await response.text();
  const json = /<script type="application\/json" id="pix-page-data">([\s\S]*?)<\/script>/.exec(
    html,
  );
  return {
    status: response.status,
    headers: response.headers,
    html,
    title: plain(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? ""),
    text: plain(/<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? ""),
    data: json ? JSON.parse(json[1]!) : null,
  };
}

/**
 * The page's button: `POST /store/payment-collections/:id/payment-sessions` with the page's
 * publishable key and the provider it names (a boleto's payer fields as `data`).
 */
export async function tap(
  base: string,
  data: NonNullable<OpenedPage["data"]>,
  providerId: string,
  payer?: Record<string, string>,
): Promise<{ status: number; body: Json; session: Json | undefined }> {
  const response = await fetch(
    `${base}/store/payment-collections/${data.collectionId}/payment-sessions`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": data.publishableKey },
      body: JSON.stringify(
        payer ? { provider_id: providerId, data: payer } : { provider_id: providerId },
      ),
    },
  );
  const body = (await response.json().catch(() => ({}))) as Json;
  const session = (body?.payment_collection?.payment_sessions as Json[] | undefined)?.find(
    (s) => s.provider_id === providerId,
  );
  return { status: response.status, body, session };
}
