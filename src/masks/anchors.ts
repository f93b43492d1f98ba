/**
 * A point inside each of some regions of a label map, to draw a line or a label at (the contact
 * relations' overlay): the region's pixel nearest its centre of mass. The centre itself may lie
 * outside a bent region (a hand around a handle); its nearest pixel never does. Two passes over
 * the map, only for the values asked for.
 */
import type { LabelMap } from './labelMap';

export interface Anchor {
  /** Pixel centre, image coordinates. */
  x: number;
  y: number;
}

export function regionAnchors(map: LabelMap, values: ReadonlySet<number>): Map<number, Anchor> {
  const { width: w, height: h, data } = map;
  const wanted = new Uint8Array(256);
  for (const v of values) if (v > 0 && v < 256) wanted[v] = 1;
  const n = new Float64Array(256);
  const sx = new Float64Array(256);
  const sy = new Float64Array(256);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const v = data[row + x];
      if (wanted[v] === 0) continue;
      n[v]++;
      sx[v] += x;
      sy[v] += y;
    }
  }
  const best = new Float64Array(256).fill(Infinity);
  const out = new Map<number, Anchor>();
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const v = data[row + x];
      if (wanted[v] === 0) continue;
      const dx = x - sx[v] / n[v];
      const dy = y - sy[v] / n[v];
      const d = dx * dx + dy * dy;
      if (d < best[v]) {
        best[v] = d;
        out.set(v, { x: x + 0.5, y: y + 0.5 });
      }
    }
  }
  return out;
}
