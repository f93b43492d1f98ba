/**
 * Which pixels a paint operation may change, as a 256-entry table old label -> new label.
 * Every raster helper writes `data[i] = table[data[i]]`, so the "protect other class" option costs
 * nothing per pixel and cannot be forgotten by one tool and honoured by another.
 *
 * The rule:
 *   painting class c (1 or 2), protect on : only pixels that are 0 (or already c) become c, so the
 *                                           other class, and any imported label, is left alone;
 *   painting class c,          protect off: every pixel becomes c;
 *   erasing (class 0),         protect on : only pixels of the active class become 0 — the eraser
 *                                           removes what you are working on and spares the other
 *                                           class; with active class 0 there is nothing to spare,
 *                                           so it erases everything;
 *   erasing,                   protect off: every pixel becomes 0.
 */

export type PaintClass = 0 | 1 | 2;

/** old label -> new label. */
export type WriteTable = Uint8Array;

/**
 * The table for writing `value` (a PaintClass; the move tool also passes the label it drags, which
 * may be an imported one) with the given protect option and active class.
 */
export function paintTable(value: number, protect: boolean, activeClass: number): WriteTable {
  const table = new Uint8Array(256);
  for (let old = 0; old < 256; old++) table[old] = writes(old, value, protect, activeClass) ? value : old;
  return table;
}

function writes(old: number, value: number, protect: boolean, activeClass: number): boolean {
  if (!protect) return true;
  if (value !== 0) return old === 0 || old === value;
  return activeClass === 0 || old === activeClass;
}

/** Whether the table changes `label` (a flood fill or a move of a whole region asks this once). */
export function changes(table: WriteTable, label: number): boolean {
  return table[label] !== label;
}
