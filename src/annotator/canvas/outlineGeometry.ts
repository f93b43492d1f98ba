/**
 * Mask outlines as vectors, so they can be stroked at a constant width on screen at any zoom (a
 * one-image-pixel outline vanished at low zoom and grew fat at high zoom), in two contrasting
 * strokes: a halo (black or white, whichever contrasts more with the class colour) under a line in
 * the class colour. Whatever the frame looks like there, one of the two stands out: the actionable
 * red on an orange carrot was nearly invisible as a fill alone.
 *
 * The outline of label L is the set of pixel edges between a pixel of L and one that is not (or the
 * frame's edge), merged into runs. The frame is split into square tiles; a tile owns the horizontal
 * edges at its rows' tops and the vertical edges at its columns' lefts (the last tiles also the
 * frame's bottom and right edges), so each edge belongs to one tile and a stroke recomputes only
 * the tiles around it. Pure: no DOM, no Konva.
 */
import type { Box, LabelMap } from '../../masks/labelMap';

/** Width of the coloured line, in screen pixels. */
export const OUTLINE_LINE_PX = 2;
/** Width of the halo under it, in screen pixels (1 px shows on each side of the line). */
export const OUTLINE_HALO_PX = 4;
/** Tile side in image pixels. */
export const OUTLINE_TILE = 128;

/** Line and halo widths in image units for a view scale (screen px per image px). */
export function outlineWidths(scale: number): { line: number; halo: number } {
  return { line: OUTLINE_LINE_PX / scale, halo: OUTLINE_HALO_PX / scale };
}

/** Black or white, whichever has the higher WCAG contrast with `colour` (#rrggbb). */
export function haloColour(colour: string): '#000000' | '#ffffff' {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!m) return '#000000';
  const lin = (hex: string) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** The tiles (clipped to the frame) whose edges change when the pixels of `dirty` change. */
export function tilesTouching(dirty: Box, width: number, height: number, tile = OUTLINE_TILE): Box[] {
  // A pixel's right and bottom edges belong to the tiles after it: grow by one.
  const x0 = Math.max(0, Math.floor(dirty.x / tile));
  const y0 = Math.max(0, Math.floor(dirty.y / tile));
  const x1 = Math.min(Math.ceil(width / tile) - 1, Math.floor(Math.min(width - 1, dirty.x + dirty.w) / tile));
  const y1 = Math.min(Math.ceil(height / tile) - 1, Math.floor(Math.min(height - 1, dirty.y + dirty.h) / tile));
  const out: Box[] = [];
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      const x = tx * tile;
      const y = ty * tile;
      out.push({ x, y, w: Math.min(tile, width - x), h: Math.min(tile, height - y) });
    }
  }
  return out;
}

/**
 * The outline edges of `label` owned by `tile` (see the file comment), merged into straight runs:
 * [x0, y0, x1, y1] per segment, in image coordinates on pixel corners. Both kinds of edge are found
 * row by row (memory order); vertical runs are carried down the rows per column.
 */
export function boundarySegments(map: LabelMap, label: number, tile: Box): Float32Array {
  const { width: W, height: H, data } = map;
  const out: number[] = [];
  const x0 = tile.x;
  const xEnd = tile.x + tile.w;
  const yEnd = tile.y + tile.h;
  // The last tile row also owns the frame's bottom edge (y = H), the last column its right edge.
  const lastRow = yEnd === H ? H : yEnd - 1;
  const lastCol = xEnd === W ? W : xEnd - 1;
  const cols = lastCol - x0 + 1;
  // Per column: the row where the current vertical run started, or -1.
  const runStart = new Int32Array(cols).fill(-1);
  for (let y = tile.y; y <= lastRow; y++) {
    const up = y > 0 ? (y - 1) * W : -1;
    const here = y < H ? y * W : -1;
    // Horizontal edges at y, between rows y-1 and y.
    let start = -1;
    for (let x = x0; x < xEnd; x++) {
      const a = up >= 0 && data[up + x] === label;
      const b = here >= 0 && data[here + x] === label;
      if (a !== b) {
        if (start < 0) start = x;
      } else if (start >= 0) {
        out.push(start, y, x, y);
        start = -1;
      }
    }
    if (start >= 0) out.push(start, y, xEnd, y);
    // Vertical edges at x, between columns x-1 and x, on row y (rows of this tile only).
    if (y >= yEnd) break;
    for (let c = 0; c < cols; c++) {
      const x = x0 + c;
      const a = x > 0 && data[here + x - 1] === label;
      const b = x < W && data[here + x] === label;
      if (a !== b) {
        if (runStart[c] < 0) runStart[c] = y;
      } else if (runStart[c] >= 0) {
        out.push(x, runStart[c], x, y);
        runStart[c] = -1;
      }
    }
  }
  for (let c = 0; c < cols; c++) if (runStart[c] >= 0) out.push(x0 + c, runStart[c], x0 + c, yEnd);
  return Float32Array.from(out);
}

/**
 * The outline edges of both states (labels 1 and 2) owned by `tile`, in one pass: the same segments
 * in the same order as `boundarySegments(map, 1, tile)` and `(map, 2, tile)`, at about a third of the
 * cost, because two equal neighbours (almost every pair: inside a region or in the background) are
 * settled by one comparison for both labels. It runs on every frame switch for the whole frame
 * and on every brush move for the tiles under it, so its cost is the editor's (bench: switch frames).
 */
export function stateOutlineSegments(map: LabelMap, tile: Box): { 1: Float32Array; 2: Float32Array } {
  // Most tiles of a frame are background with no state nearby: one comparison per pixel says so.
  if (isBackground(map, tile)) return { 1: new Float32Array(0), 2: new Float32Array(0) };
  const { width: W, height: H, data } = map;
  const out1: number[] = [];
  const out2: number[] = [];
  const x0 = tile.x;
  const xEnd = tile.x + tile.w;
  const yEnd = tile.y + tile.h;
  const lastRow = yEnd === H ? H : yEnd - 1;
  const lastCol = xEnd === W ? W : xEnd - 1;
  const cols = lastCol - x0 + 1;
  const run1 = new Int32Array(cols).fill(-1);
  const run2 = new Int32Array(cols).fill(-1);
  for (let y = tile.y; y <= lastRow; y++) {
    const up = y > 0 ? (y - 1) * W : -1;
    const here = y < H ? y * W : -1;
    // Horizontal edges at y. Outside the frame (above row 0, below row H-1) reads as 0: not a state.
    let s1 = -1;
    let s2 = -1;
    for (let x = x0; x < xEnd; x++) {
      const a = up >= 0 ? data[up + x] : 0;
      const b = here >= 0 ? data[here + x] : 0;
      if (a === b) {
        if (s1 >= 0) {
          out1.push(s1, y, x, y);
          s1 = -1;
        }
        if (s2 >= 0) {
          out2.push(s2, y, x, y);
          s2 = -1;
        }
        continue;
      }
      if ((a === 1) !== (b === 1)) {
        if (s1 < 0) s1 = x;
      } else if (s1 >= 0) {
        out1.push(s1, y, x, y);
        s1 = -1;
      }
      if ((a === 2) !== (b === 2)) {
        if (s2 < 0) s2 = x;
      } else if (s2 >= 0) {
        out2.push(s2, y, x, y);
        s2 = -1;
      }
    }
    if (s1 >= 0) out1.push(s1, y, xEnd, y);
    if (s2 >= 0) out2.push(s2, y, xEnd, y);
    if (y >= yEnd) break;
    // Vertical edges at x on row y: between columns x-1 and x (outside the frame reads as 0).
    for (let c = 0; c < cols; c++) {
      const x = x0 + c;
      const a = x > 0 ? data[here + x - 1] : 0;
      const b = x < W ? data[here + x] : 0;
      const e1 = a !== b && (a === 1 || b === 1);
      const e2 = a !== b && (a === 2 || b === 2);
      if (e1) {
        if (run1[c] < 0) run1[c] = y;
      } else if (run1[c] >= 0) {
        out1.push(x, run1[c], x, y);
        run1[c] = -1;
      }
      if (e2) {
        if (run2[c] < 0) run2[c] = y;
      } else if (run2[c] >= 0) {
        out2.push(x, run2[c], x, y);
        run2[c] = -1;
      }
    }
  }
  for (let c = 0; c < cols; c++) if (run1[c] >= 0) out1.push(x0 + c, run1[c], x0 + c, yEnd);
  for (let c = 0; c < cols; c++) if (run2[c] >= 0) out2.push(x0 + c, run2[c], x0 + c, yEnd);
  return { 1: Float32Array.from(out1), 2: Float32Array.from(out2) };
}

/** Whether every pixel whose edges the tile owns, and the row above and column left of it, is 0. */
function isBackground(map: LabelMap, tile: Box): boolean {
  const { width: W, height: H, data } = map;
  const xa = Math.max(0, tile.x - 1);
  const xb = Math.min(W, tile.x + tile.w);
  const yb = Math.min(H, tile.y + tile.h);
  for (let y = Math.max(0, tile.y - 1); y < yb; y++) {
    const row = y * W;
    for (let i = row + xa, end = row + xb; i < end; i++) if (data[i] !== 0) return false;
  }
  return true;
}
