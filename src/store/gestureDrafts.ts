/**
 * Strokes in progress (docs/durability.md, "Strokes in progress"). A drag gesture's pointer input
 * is written row by row while it is drawn, each row in a small transaction of its own started in
 * the event handler; the gesture's commit (the layer and its revision) deletes its rows in the
 * same transaction. So the rows left in this table are exactly the gestures whose commit never
 * landed — the browser died in the instant after pointer-up, or mid-stroke — and the next start
 * replays them through the same tool (src/annotator/session/recoverGestures.ts).
 *
 * Why rows of input rather than pixels: input is a few bytes per event, and replaying it through
 * the tool on the stored layer gives the very pixels the tool painted. These rows are never
 * journaled (store/journal/capture.ts): they are not work yet, only a way to finish it.
 */
import type { SpocDb } from './db';
import { Dexie } from 'dexie';

export type { DraftPointer, DraftStart, DraftTool, GestureDraftKey, GestureDraftRow } from './types';
import type { GestureDraftKey, GestureDraftRow } from './types';

/** The rows a commit settles: gesture `gesture` of `clipId` wrote rows 0..rows-1. */
export interface GestureDraftRef {
  clipId: string;
  gesture: number;
  rows: number;
}

export function draftKeys(refs: readonly GestureDraftRef[]): GestureDraftKey[] {
  const keys: GestureDraftKey[] = [];
  for (const r of refs) for (let seq = 0; seq < r.rows; seq++) keys.push([r.clipId, r.gesture, seq]);
  return keys;
}

/**
 * Writes one row in a transaction of its own, issued now and committed at once (no read, no round
 * trip), so it lands even if the page goes away in the next instant. Never throws: a draft that
 * cannot be written (a full disk) only means this gesture has no second chance; its commit is
 * still made and kept by the usual paths.
 */
export function writeGestureDraft(db: SpocDb, row: GestureDraftRow): Promise<void> {
  return db
    .transaction('rw', [db.gestureDrafts], () => {
      const put = db.gestureDrafts.put(row);
      (Dexie.currentTransaction?.idbtrans as (IDBTransaction & { commit?: () => void }) | undefined)?.commit?.();
      return put;
    })
    .then(
      () => undefined,
      (err: unknown) => console.warn('Could not write the draft of a stroke in progress', err),
    );
}

/**
 * Forgets a gesture that ended without a commit (cancelled, or nothing changed). Through
 * `db.transaction` like the writes: Dexie creates transactions a few microtasks after the call,
 * and only calls that take the same path keep their order (a plain `bulkDelete` would overtake
 * the gesture's last row and leave it behind).
 */
export function dropGestureDraft(db: SpocDb, ref: GestureDraftRef): Promise<void> {
  return db
    .transaction('rw', [db.gestureDrafts], () => db.gestureDrafts.bulkDelete(draftKeys([ref])))
    .catch((err: unknown) => console.warn('Could not drop a stroke draft', err));
}

/** Every row left, grouped by gesture in key order (clip, then gesture number, then event). */
export async function listGestureDrafts(db: SpocDb): Promise<GestureDraftRow[][]> {
  const rows = await db.gestureDrafts.toArray();
  const groups = new Map<string, GestureDraftRow[]>();
  for (const row of rows) {
    const key = `${row.clipId}\u0000${row.gesture}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

/** Deletes given rows (a gesture that cannot be replayed: its clip is gone, trashed or approved). */
export async function deleteGestureDraftRows(db: SpocDb, rows: readonly GestureDraftRow[]): Promise<void> {
  await db.gestureDrafts.bulkDelete(rows.map((r): GestureDraftKey => [r.clipId, r.gesture, r.seq]));
}
