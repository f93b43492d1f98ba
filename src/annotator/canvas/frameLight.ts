/**
 * Brightness and contrast of the frame picture, for dark frames: applied as a CSS filter on the frame
 * layer's canvas only (canvasView.ts setImageFilter), so the masks keep their colours and nothing is
 * re-decoded. 1 is the picture as decoded.
 */
export const LIGHT_MIN = 0.25;
export const LIGHT_MAX = 4;

/** A stored value when it makes sense, else 1 (a hand-edited or older settings entry). */
export function validLight(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= LIGHT_MIN && v <= LIGHT_MAX ? v : 1;
}

/** The CSS filter for the frame layer; 'none' at the defaults. */
export function frameLightFilter(brightness: number, contrast: number): string {
  const parts: string[] = [];
  if (brightness !== 1) parts.push(`brightness(${brightness})`);
  if (contrast !== 1) parts.push(`contrast(${contrast})`);
  return parts.length > 0 ? parts.join(' ') : 'none';
}
