import QRCode from "qrcode";

/**
 * Renders `text` as a QR code SVG string (error correction M, 4-module quiet zone).
 * This module and `qrcode` form the lazily loaded QR chunk.
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
}
