import jsQR from "jsqr";

/**
 * Decodes an SVG QR code as drawn by the `qrcode` package (one `<path>` of horizontal
 * strokes: `M x y`, `m dx dy`, `h n`): rebuilds the module grid, paints it into RGBA pixels
 * and reads it back with jsQR, as a phone camera would. Returns null when nothing decodes.
 */
export function decodeQrSvg(svg: string, scale = 4): string | null {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const d = /<path[^>]*stroke="[^"]*"[^>]*d="([^"]+)"/.exec(svg)?.[1];
  if (!size || !d) return null;
  const dark = new Uint8Array(size * size);
  let x = 0;
  let y = 0;
  for (const [, op, a, b] of d.matchAll(/([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
    const n = Number(a);
    if (op === "M") [x, y] = [n, Number(b)];
    else if (op === "m") [x, y] = [x + n, y + Number(b)];
    else {
      const row = Math.floor(y);
      for (let i = 0; i < n; i += 1) dark[row * size + x + i] = 1;
      x += n;
    }
  }
  const px = size * scale;
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  for (let row = 0; row < px; row += 1) {
    for (let col = 0; col < px; col += 1) {
      if (!dark[Math.floor(row / scale) * size + Math.floor(col / scale)]) continue;
      const at = (row * px + col) * 4;
      rgba[at] = rgba[at + 1] = rgba[at + 2] = 0;
    }
  }
  return jsQR(rgba, px, px)?.data ?? null;
}

/** Decodes a PNG QR code (base64), as a mail client would show it and a phone would read it. */
export async function decodeQrPng(base64: string): Promise<string | null> {
  const { PNG } = await import("pngjs");
  const png = PNG.sync.read(Buffer.from(base64, "base64"));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}
