// Interleaved 2 of 5, the symbology of every Brazilian boleto (FEBRABAN). Each digit is
// five elements, two of them wide; digits go in pairs, the first drawn in bars and the
// second in the spaces between them. About 30 lines, so no dependency for it.
const DIGITS = [
  "nnwwn",
  "wnnnw",
  "nwnnw",
  "wwnnn",
  "nnwnw",
  "wnwnn",
  "nwwnn",
  "nnnww",
  "wnnwn",
  "nwnwn",
];

/** Wide-to-narrow ratio; FEBRABAN allows 2.25 to 3, and 3 reads best on phone scanners. */
const WIDE = 3;
/** Quiet zone on each side, in narrow modules (ITF wants at least 10). */
export const ITF_QUIET = 10;

/**
 * Element widths in narrow modules, alternating bar and space and starting with a bar:
 * start pattern, the digit pairs, stop pattern.
 */
export function itfWidths(digits: string): number[] {
  if (!/^(\d\d)+$/.test(digits)) throw new RangeError("ITF encodes an even number of digits.");
  const width = (c: string | undefined) => (c === "w" ? WIDE : 1);
  const out = [1, 1, 1, 1];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = DIGITS[Number(digits[i])] ?? "";
    const spaces = DIGITS[Number(digits[i + 1])] ?? "";
    for (let k = 0; k < 5; k++) out.push(width(bars[k]), width(spaces[k]));
  }
  out.push(WIDE, 1, 1);
  return out;
}

/** An SVG path drawing the bars in a `width` x 1 box, quiet zones included. */
export function itfPath(digits: string): { d: string; width: number } {
  let x = ITF_QUIET;
  let d = "";
  itfWidths(digits).forEach((w, i) => {
    if (i % 2 === 0) d += `M${x} 0h${w}v1h-${w}z`;
    x += w;
  });
  return { d, width: x + ITF_QUIET };
}
