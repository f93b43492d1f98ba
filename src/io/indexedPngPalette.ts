/**
 * Colours of mask PNGs.
 *
 * We write and expect the PASCAL VOC / DAVIS colour map, the palette DAVIS-style mask folders (and
 * so WhereToChange/SPOC ground truth, which follows that layout) are saved with by PIL:
 *
 * | index | meaning                    | colour              |
 * |-------|----------------------------|---------------------|
 * | 0     | background                 | #000000 black       |
 * | 1     | actionable                 | #800000 maroon      |
 * | 2     | transformed                | #008000 green       |
 * | 3     | background (SPOC release)  | #808000 olive       |
 * | 4     | ambiguous (SPOC release)   | #000080 navy        |
 * | 5     | ignore (SPOC release)      | #800080 purple      |
 * | 255   | void (DAVIS)               | #E0E0C0 cream       |
 *
 * Indexed PNGs are read by index, so their colours never matter; the colours only decide how RGB
 * masks are read back (and what other tools show). We had no copy of the SPOC release's own palette
 * file; if its colours differ, pass them as `rgbColors` when decoding.
 */
import { LABEL } from '../masks/labelMap';

export type Rgb = readonly [r: number, g: number, b: number];

/** The 256-entry VOC/DAVIS colour map: the bits of the index spread over r, g, b from the top bit down. */
export const VOC_PALETTE: readonly Rgb[] = Array.from({ length: 256 }, (_, index): Rgb => {
  let r = 0;
  let g = 0;
  let b = 0;
  let c = index;
  for (let bit = 7; bit >= 0; bit--) {
    r |= (c & 1) << bit;
    g |= ((c >> 1) & 1) << bit;
    b |= ((c >> 2) & 1) << bit;
    c >>= 3;
  }
  return [r, g, b];
});

/** The labels an RGB mask may use, with their colours (see the table above). */
export const SPOC_LABEL_COLORS: ReadonlyMap<number, Rgb> = new Map(
  [
    LABEL.background,
    LABEL.actionable,
    LABEL.transformed,
    LABEL.releaseBackground,
    LABEL.ambiguous,
    LABEL.ignore,
    LABEL.void,
  ].map((label) => [label, VOC_PALETTE[label]]),
);

/** 0xRRGGBB, a cheap Map key for a colour. */
export function rgbKey(r: number, g: number, b: number): number {
  return (r << 16) | (g << 8) | b;
}

export function rgbHex(key: number): string {
  return `#${key.toString(16).padStart(6, '0')}`;
}

/** Colour key -> label, refusing two labels with one colour (the file could not tell them apart). */
export function colorLookup(colors: ReadonlyMap<number, Rgb>): Map<number, number> {
  const byColor = new Map<number, number>();
  for (const [label, [r, g, b]] of colors) {
    const key = rgbKey(r, g, b);
    const other = byColor.get(key);
    if (other !== undefined) throw new RangeError(`labels ${other} and ${label} share the colour ${rgbHex(key)}`);
    byColor.set(key, label);
  }
  return byColor;
}
