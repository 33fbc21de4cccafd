/** Status words of a checkout session, verbatim from the store contract. */
export type SessionStatus = "pending" | "paid" | "expired" | "failed" | "canceled";

/** Statuses after which nothing changes: the element stops listening. */
export const FINAL_STATUSES: readonly SessionStatus[] = ["paid", "expired", "failed", "canceled"];

/** Pix display data, as the store backend returns it. */
export interface PixData {
  /** The Pix copy-and-paste code (BR Code / EMV string). */
  copy_paste: string;
  /** URL of a QR image rendered by the backend (SVG or PNG); relative to `backend-url` or absolute. */
  qr_image_url?: string | null;
  /** The payment service's own QR, base64 PNG (Variant B), or a `data:image/...` URL. */
  qr_code?: string | null;
  /** A payment link the shopper may open or share. */
  payment_link?: string | null;
}

/** Boleto display data, as the store backend returns it. */
export interface BoletoData {
  /** URL of the boleto document (PDF or printable page). */
  url: string;
  /** The 44-digit barcode number, drawn as ITF. */
  barcode: string;
  /** The 47-digit digitable line (formatting characters are ignored). */
  digitable_line: string;
  /** Due date, `YYYY-MM-DD`. */
  due_date: string;
}

/** The object the status route returns and the stream sends on each change. */
export interface CheckoutSession {
  session_id: string;
  method: "pix" | "boleto";
  status: SessionStatus;
  /** Integer cents. */
  amount: number;
  /** ISO 4217 code, `BRL`. */
  currency: string;
  /** ISO 8601. */
  expires_at: string;
  /** ISO 8601, or null while unpaid. */
  paid_at: string | null;
  /** The backend's clock when it answered, ISO 8601; corrects the countdown for skew. */
  server_time: string;
  pix?: PixData | null;
  boleto?: BoletoData | null;
}
