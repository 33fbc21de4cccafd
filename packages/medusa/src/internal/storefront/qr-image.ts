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
  const svg = await QRCode.toString(copyPaste, QR_OPTIONS);
  return { svg, hash: createHash("sha256").update(svg).digest("base64url").slice(0, 27) };
}
