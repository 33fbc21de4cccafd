/**
 * Renders `text` as a QR SVG data URL. The encoder is imported on first use, so it
 * lands in its own chunk and costs nothing when the backend serves the image.
 * SVG keeps the modules sharp at any device pixel ratio.
 */
export async function qrDataUrl(text: string): Promise<string> {
  const { qrSvg } = await import("./qr-encoder.js");
  return `data:image/svg+xml,${encodeURIComponent(await qrSvg(text))}`;
}
