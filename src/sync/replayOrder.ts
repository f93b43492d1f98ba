/**
 * The order every replica replays a frame's revisions in (docs/sync.md "The browser client"): by
 * server cursor ascending, then the revisions only this browser holds (not pushed yet, or refused)
 * by their local `seq`. Every replica that holds the same pushed revisions thus orders them the
 * same way, whatever order they arrived in, and this browser's own unpushed strokes come last, as
 * they will once the server numbers them.
 */
import { compareCursors, type Cursor } from './protocol';

export interface OrderedLogRow {
  seq: number;
  cursor?: Cursor;
}

export function compareReplayOrder(a: OrderedLogRow, b: OrderedLogRow): number {
  if (a.cursor !== undefined && b.cursor !== undefined) return compareCursors(a.cursor, b.cursor) || a.seq - b.seq;
  if (a.cursor !== undefined) return -1;
  if (b.cursor !== undefined) return 1;
  return a.seq - b.seq;
}

export function inReplayOrder<T extends OrderedLogRow>(rows: readonly T[]): T[] {
  return rows.slice().sort(compareReplayOrder);
}
