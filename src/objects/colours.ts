/**
 * Distinct colours for classes and objects that bring none: hues a golden angle apart, so any
 * number of neighbours in a list differ, at a saturation and lightness that read on video frames.
 */
const GOLDEN_ANGLE = 137.508;

/** The i-th colour of the sequence, as #rrggbb. */
export function classColour(i: number): string {
  const hue = (i * GOLDEN_ANGLE + 20) % 360;
  return hslToHex(hue, 0.7, 0.55);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
