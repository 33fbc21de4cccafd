import { createHash } from "node:crypto";
import QRCode from "qrcode";

/** Options the QR is drawn with: medium error correction, the standard 4-module quiet zone. */
export const QR_OPTIONS = { type: "svg", errorCorrectionLevel: "M", margin: 4 } as const;

/** An SVG QR code and a hash of its content (for ETag). */
export interface QrImage {
  svg: string;
  hash: string;
}

/**
 * Renders a Pix copy-and-paste code as an SVG QR code. The copy-and-paste code is the exact
 * text encoded, byte for byte: what a banking app scans is what the shopper could paste.
 */
export async function qrSvg(copyPaste: string): Promise<QrImage> {
  const cached = drawn.get(copyPaste);
  if (cached) {
    // Most recently used last: the oldest is the first to go.
    drawn.delete(copyPaste);
    drawn.set(copyPaste, cached);
    return cached;
  }
  const svg = await QRCode.toString(copyPaste, QR_OPTIONS);
  const image = { svg, hash: createHash("sha256").update(svg).digest("base64url").slice(0, 27) };
  drawn.set(copyPaste, image);
  if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value as string);
  return image;
}

/**
 * A charge's code never changes, so its QR is drawn once per process: a client asking for the
 * same image over and over (cache busting, a loop) costs a map lookup, not a drawing. The
 * codes of the last `DRAWN_MAX` charges shown are kept (a few KiB each).
 */
const DRAWN_MAX = 1_000;
const drawn = new Map<string, QrImage>();
