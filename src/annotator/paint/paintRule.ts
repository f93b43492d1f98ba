/**
 * Which pixels a paint operation may change, as a 256-entry table old label -> new label.
 * Every raster helper writes `data[i] = table[data[i]]`, so the "protect other class" option costs
 * nothing per pixel and cannot be forgotten by one tool and honoured by another.
 *
 * The rule:
 *   painting class c (1 or 2), protect on : only pixels that are 0 (or already c) become c, so the
 *                                           other class, and any imported label, is left alone;
 *   painting class c,          protect off: every pixel becomes c;
 *   erasing (class 0)                     : every pixel becomes 0, protect on or off. An eraser
 *                                           erases: "protect other class" guards against painting
 *                                           over the other state by accident, and an eraser that
 *                                           silently skipped it (as it once did) looked broken.
 *   locked values (objects someone locked or hid, docs/objects.md "The object list") are never
 *                                           overwritten, by any tool, protect on or off, painting or
 *                                           erasing; painting with a locked value changes nothing.
 */

/** 0 erases; 1 and 2 are the states; in an objects project, the active object's slot (annotator/pixelCodec.ts). */
export type PaintClass = number;

/** old label -> new label. */
export type WriteTable = Uint8Array;

/**
 * The table for writing `value` (a PaintClass; the move tool also passes the label it drags, which
 * may be an imported one) with the given protect option, leaving every `locked` value as it is.
 */
export function paintTable(value: number, protect: boolean, locked: readonly number[] = []): WriteTable {
  const table = new Uint8Array(256);
  for (let old = 0; old < 256; old++) table[old] = writes(old, value, protect) ? value : old;
  for (const v of locked) table[v] = v;
  // A locked object neither shrinks nor grows: painting with its own value changes nothing.
  if (locked.includes(value)) for (let old = 0; old < 256; old++) table[old] = old;
  return table;
}

function writes(old: number, value: number, protect: boolean): boolean {
  if (!protect || value === 0) return true;
  return old === 0 || old === value;
}

/** Whether the table changes `label` (a flood fill or a move of a whole region asks this once). */
export function changes(table: WriteTable, label: number): boolean {
  return table[label] !== label;
}
