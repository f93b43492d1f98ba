/**
 * Finishes the gestures a dying browser cut off (store/gestureDrafts.ts): each draft left in the
 * store is replayed through the same tool on the frame's stored layer, and the resulting patch is
 * saved as the revision the gesture would have made (its author and time), deleting the draft in
 * the same transaction. Runs once at start, after kept edits are replayed and before any view opens
 * a clip (app/journal/JournalGate.tsx), so an editor never loads a frame a recovery then changes.
 *
 * A stroke cut off mid-drag is kept as far as it got (the person can undo it); a flood fill that
 * was waiting for its leak to be confirmed, or a gesture that changed nothing, is dropped.
 */
import type { SpocDb } from '../../store/db';
import { deleteGestureDraftRows, listGestureDrafts, type GestureDraftRow } from '../../store/gestureDrafts';
import { getLayer, saveFrameEdits } from '../../store/layers';
import type { Clip } from '../../store/types';
import type { Patch } from '../patch';
import { codecFor } from '../pixelCodec';
import { createTool } from '../tools/createTool';
import type { ToolContext, ToolId } from '../tools/types';

export interface RecoveredGesture {
  clipId: string;
  clipName: string | null;
  frameIndex: number;
  tool: string;
  outcome: 'saved' | 'dropped' | 'waiting';
  /** Why a gesture was dropped or left waiting. */
  reason?: string;
}

/** Runs `fn` while this tab may write the clip (the app passes its clip write lock); throws if it may not. */
export type ClipWriteGuard = <T>(clip: Clip, fn: () => Promise<T>) => Promise<T>;

/** Tools whose half-done gesture means something when the pointer never came up: they commit on finish(). */
const FINISHES_WITHOUT_UP: ReadonlySet<ToolId> = new Set<ToolId>(['brush', 'eraser', 'lasso', 'move']);

export async function recoverGestureDrafts(db: SpocDb, guard: ClipWriteGuard = (_clip, fn) => fn()): Promise<RecoveredGesture[]> {
  const out: RecoveredGesture[] = [];
  for (const rows of await listGestureDrafts(db)) {
    rows.sort((a, b) => a.seq - b.seq);
    const head = rows[0]!;
    const clip = await db.clips.get(head.clipId);
    const base = { clipId: head.clipId, clipName: clip?.name ?? null, frameIndex: head.frameIndex, tool: head.start?.tool ?? 'unknown' };
    const refusal = !head.start || head.seq !== 0 ? 'its first event was not stored' : clipRefusal(clip);
    if (refusal) {
      await deleteGestureDraftRows(db, rows);
      out.push({ ...base, outcome: 'dropped', reason: refusal });
      continue;
    }
    try {
      const saved = await guard(clip!, () => replayAndSave(db, clip!, rows));
      out.push({ ...base, outcome: saved ? 'saved' : 'dropped', ...(saved ? {} : { reason: 'it changed nothing' }) });
    } catch (err) {
      // Another tab edits the clip (or the save failed): the draft stays for the next start.
      out.push({ ...base, outcome: 'waiting', reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}

function clipRefusal(clip: Clip | undefined): string | null {
  if (!clip) return 'its clip no longer exists';
  if (clip.deletedAt !== undefined) return 'its clip is in the trash';
  if (clip.importing) return 'its clip is an incomplete import';
  if (clip.status === 'approved') return 'its clip was approved since (read-only)';
  return null;
}

/** Replays the gesture on the stored layer and saves it with its draft's deletion; false when nothing was committed. */
async function replayAndSave(db: SpocDb, clip: Clip, rows: GestureDraftRow[]): Promise<boolean> {
  const head = rows[0]!;
  const start = head.start!;
  const frameIndex = head.frameIndex;
  const layer = await getLayer(db, clip.id, 'gt', frameIndex);
  // Slots are a session's own numbers: an objects project's stroke is replayed by the object it named.
  const codec = codecFor(await db.projects.get(clip.projectId));
  const map = codec.mapOf(layer, clip.width, clip.height);
  const activeClass = start.object !== undefined && codec.slots ? codec.slots.slotOf(start.object) : start.activeClass;
  const patches: Patch[] = [];
  const ctx: ToolContext = {
    map,
    frameIndex,
    activeClass,
    protect: start.protect,
    ...(start.locked && codec.slots ? { locked: start.locked.map((id) => codec.slots!.slotOf(id)) } : {}),
    brushSize: start.brushSize,
    hitRadius: start.hitRadius,
    commit: (patch) => patches.push(patch),
    invalidate: () => undefined,
  };
  const tool = createTool(start.tool, ctx);
  for (const row of rows) {
    if (row.kind === 'down') tool.onPointerDown(row.p);
    else if (row.kind === 'move') tool.onPointerMove(row.p);
    else tool.onPointerUp(row.p);
  }
  if (patches.length === 0 && tool.busy && FINISHES_WITHOUT_UP.has(start.tool)) tool.finish();
  const drafts = [{ clipId: clip.id, gesture: head.gesture, rows: rows.at(-1)!.seq + 1 }];
  if (patches.length !== 1) {
    await deleteGestureDraftRows(db, rows);
    return false;
  }
  const at = rows.at(-1)!.at;
  const revision = { ...codec.toRevision(patches[0]!), clipId: clip.id, source: 'gt' as const, author: start.author, at };
  await saveFrameEdits(db, [
    {
      layer: {
        clipId: clip.id,
        frameIndex,
        source: 'gt',
        ...codec.layerOf(map, layer?.objects),
        ...(layer?.instances !== undefined ? { instances: layer.instances } : {}),
        provenance: { kind: 'manual', by: start.author, at },
      },
      revisions: [revision],
      drafts,
    },
  ]);
  return true;
}
