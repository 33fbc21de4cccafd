/**
 * Renders `text` as a QR SVG data URL. The encoder is imported on first use, so it
 * lands in its own chunk and costs nothing when the backend serves the image.
 * SVG keeps the modules sharp at any device pixel ratio.
 */
export async function qrDataUrl(text: string): Promise<string> {
  const mod = await import("qrcode");
  // qrcode is CommonJS: bundlers hand it over either as the namespace or under `default`.
  const qr = ("default" in mod ? mod.default : mod) as typeof mod;
  const svg = await qr.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
