import QRCode from "qrcode";

/** A base64 PNG (no `data:` prefix) of a QR code holding exactly `text`. */
export async function qrPngBase64(text: string): Promise<string> {
  const buffer = await QRCode.toBuffer(text, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 4,
    scale: 6,
  });
  return buffer.toString("base64");
}
