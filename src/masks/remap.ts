/**
 * Changing label values through a table, e.g. from the SPOC release palette (3 background,
 * 4 ambiguous, 5 ignore) to what the editor paints, or from a model's class ids to ours.
 */
import type { LabelMap } from './labelMap';

/** A mapping from old to new values; values not listed keep their value. */
export type LabelTable = ReadonlyMap<number, number> | Readonly<Record<number, number>>;

/** A new label map with every value v replaced by table[v] (unlisted values unchanged). */
export function remapLabels(map: LabelMap, table: LabelTable): LabelMap {
  const lut = lookupTable(table);
  const src = map.data;
  const data = new Uint8Array(src.length);
  for (let i = 0; i < src.length; i++) data[i] = lut[src[i]];
  return { width: map.width, height: map.height, data };
}

/** The table as a 256-entry lookup, identity where not listed. Throws on values outside 0..255. */
export function lookupTable(table: LabelTable): Uint8Array {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = v;
  const entries: Iterable<[number | string, number]> = table instanceof Map ? table.entries() : Object.entries(table);
  for (const [key, to] of entries) {
    const from = Number(key);
    if (!isByte(from) || !isByte(to)) {
      throw new RangeError(`label table entry ${String(key)} -> ${String(to)}: labels are integers 0..255`);
    }
    lut[from] = to;
  }
  return lut;
}

function isByte(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= 255;
}
