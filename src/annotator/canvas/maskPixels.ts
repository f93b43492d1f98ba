/**
 * Pixels of the mask layer for a dirty rectangle: filled states, or outlines only (a state pixel
 * with a 4-neighbour of another value). Pure: writes into a box-sized RGBA buffer.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import { STATE_COLOURS, type Rgb } from '../overlayPixels';

export type MaskStyle = 'fill' | 'outline';

/**
 * `colours`: the colour of each map value shown (the states' per-class choice, or in an objects
 * project each object's slot: annotator/pixelCodec.ts); values without one stay transparent.
 */
export function maskBoxPixels(map: LabelMap, box: Box, style: MaskStyle, out: Uint8ClampedArray, colours: Readonly<Record<number, Rgb>> = STATE_COLOURS): void {
  const { width: W, height: H, data } = map;
  for (let y = box.y; y < box.y + box.h; y++) {
    let o = (y - box.y) * box.w * 4;
    for (let x = box.x; x < box.x + box.w; x++, o += 4) {
      const i = y * W + x;
      const v = data[i];
      const c = v === 0 ? undefined : colours[v];
      let on = c !== undefined;
      if (on && style === 'outline') {
        on =
          x === 0 || y === 0 || x === W - 1 || y === H - 1 ||
          data[i - 1] !== v || data[i + 1] !== v || data[i - W] !== v || data[i + W] !== v;
      }
      if (on && c) {
        out[o] = c[0];
        out[o + 1] = c[1];
        out[o + 2] = c[2];
        out[o + 3] = 255;
      } else {
        out[o + 3] = 0;
      }
    }
  }
}

/** Outline pixels of every state in grey-white, for the onion skin of the previous frame. */
export function outlinePixels(map: LabelMap, out: Uint8ClampedArray): void {
  const { width: W, height: H, data } = map;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const v = data[i];
      const edge =
        v !== 0 && (x === 0 || y === 0 || x === W - 1 || y === H - 1 || data[i - 1] !== v || data[i + 1] !== v || data[i - W] !== v || data[i + W] !== v);
      const o = i * 4;
      if (edge) {
        out[o] = v === 1 ? 255 : 180;
        out[o + 1] = v === 1 ? 220 : 255;
        out[o + 2] = v === 1 ? 120 : 200;
        out[o + 3] = 255;
      } else out[o + 3] = 0;
    }
  }
}

/** '#rrggbb' as [r, g, b]; white for anything else. */
export function hexRgb(colour: string): Rgb {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : [255, 255, 255];
}
