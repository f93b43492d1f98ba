import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { emptyClipStore, stroke } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { labelArea } from '../../masks/geometry';
import { EditorSession } from './editorSession';
import { saveFrameEdits, type FrameEdits } from '../../store/layers';
import { H, rleWithArea, W } from '../../testing/storeFixtures';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(4)); // 8x6 frames, no masks
});
afterEach(() => db.close());

async function storedArea(frame: number, label: 'actArea' | 'trfArea') {
  return (await getLayer(db, clip.id, 'gt', frame))?.[label] ?? 0;
}

describe('EditorSession', () => {
  it('reloadFromStore() drops what it cached and shows (and undoes) what another tab stored', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 1.5);
    await s.flush();
    // Another tab replaces frame 0 with 20 actionable pixels, as one more revision.
    const before = rleWithArea(H, W, 8);
    const after = rleWithArea(H, W, 20);
    await saveFrameEdits(db, [
      {
        layer: { clipId: clip.id, frameIndex: 0, source: 'gt', act: after, trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'other', at: 5 } },
        revisions: [{ clipId: clip.id, frameIndex: 0, source: 'gt', author: 'other', at: 5, action: 'brush', box: { x: 0, y: 0, w: W, h: H }, before, after }],
      },
    ]);
    expect(labelArea(s.map, 1)).toBe(8); // still the cached map
    await s.reloadFromStore();
    expect(labelArea(s.map, 1)).toBe(20);
    expect(s.snapshot.canUndo).toBe(true);
    await s.undo(); // the other tab's step, replayed from the log
    expect(labelArea(s.map, 1)).toBe(8);
    await s.close();
  });

  it('starts the write of a gesture in pointer-up itself', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 1.5);
    // No timer has run: the write is already under way (or done), not waiting to start.
    expect(s.persistStatus.state).toBe('saving');
    await s.flush();
    expect(await storedArea(0, 'actArea')).toBe(8);
    await s.close();
  });

  it('while saves fail, keeps every unsaved edit through the pending port, and forgets them once saved', async () => {
    const kept: FrameEdits[][] = [];
    let dropped = 0;
    const port = {
      keep: async (_clipId: string, edits: FrameEdits[]) => void kept.push(edits),
      drop: async () => void dropped++,
    };
    const s = await EditorSession.open(db, clip, 'ann', 0, { pending: port });
    s.setBrushSize(1);
    const realTx = db.transaction.bind(db);
    (db as { transaction: unknown }).transaction = () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
    stroke(s, 1.5);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.persistStatus.state).toBe('error');
    expect(s.hasUnsavedEdits).toBe(true);
    stroke(s, 3.5); // same frame: the kept copy grows although the status does not change
    await new Promise((r) => setTimeout(r, 0));
    expect(kept.at(-1)).toHaveLength(1);
    expect(kept.at(-1)![0].revisions).toHaveLength(2);
    (db as { transaction: unknown }).transaction = realTx;
    await s.flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.hasUnsavedEdits).toBe(false);
    expect(dropped).toBe(1);
    expect(await listRevisions(db, clip.id, 'gt', 0)).toHaveLength(2);
    // Once a save has failed in this session, a write merely in flight counts as unsaved and is
    // kept too: on a full disk it may fail after the page is gone.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    (db as { transaction: unknown }).transaction = (...args: unknown[]) => held.then(() => (realTx as (...a: unknown[]) => unknown)(...args));
    const keptBefore = kept.length;
    stroke(s, 5.5);
    expect(s.persistStatus.state).toBe('saving');
    expect(s.hasUnsavedEdits).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(kept.length).toBeGreaterThan(keptBefore);
    (db as { transaction: unknown }).transaction = realTx;
    release();
    await s.flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.hasUnsavedEdits).toBe(false);
    expect(dropped).toBe(2);
    await s.close();
  });

  it('a write the database leaves unanswered counts as failed: its edits are kept, and keeping is retried until it works', async () => {
    const kept: FrameEdits[][] = [];
    let keepFailures = 1;
    const port = {
      keep: async (_clipId: string, edits: FrameEdits[]) => {
        if (keepFailures-- > 0) throw new DOMException('full', 'QuotaExceededError');
        kept.push(edits);
      },
      drop: async () => undefined,
    };
    const s = await EditorSession.open(db, clip, 'ann', 0, { pending: port, stallMs: 30 });
    s.setBrushSize(1);
    const realTx = db.transaction.bind(db);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    (db as { transaction: unknown }).transaction = (...args: unknown[]) => held.then(() => (realTx as (...a: unknown[]) => unknown)(...args));
    stroke(s, 1.5);
    expect(s.hasUnsavedEdits).toBe(false); // a write merely in flight commits even if the page goes
    await new Promise((r) => setTimeout(r, 60));
    expect(s.persistStatus.stalled).toBe(true);
    expect(s.hasUnsavedEdits).toBe(true);
    expect(s.snapshot.unsavedKept).toBe('not-kept');
    await new Promise((r) => setTimeout(r, 2100)); // the keep is tried again
    expect(s.snapshot.unsavedKept).toBe('kept');
    expect(kept.at(-1)![0].revisions).toHaveLength(1);
    (db as { transaction: unknown }).transaction = realTx;
    release();
    await s.flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.persistStatus).toMatchObject({ state: 'idle', stalled: false });
    expect(s.snapshot.unsavedKept).toBeNull();
    expect(s.hasUnsavedEdits).toBe(false);
    expect(await listRevisions(db, clip.id, 'gt', 0)).toHaveLength(1);
    await s.close();
  });

  it('persists each gesture as a layer and a revision, and undoes across frame switches', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 1.5);
    const painted = labelArea(s.map, 1);
    expect(painted).toBe(8);
    await s.goToFrame(1);
    s.setClass(2);
    stroke(s, 3.5);
    await s.goToFrame(0);
    await s.undo();
    expect(labelArea(s.map, 1)).toBe(0);
    // Switch and undo at once, without waiting for the switch: the undo acts on frame 1.
    void s.goToFrame(1);
    await s.undo();
    expect(s.snapshot.frameIndex).toBe(1);
    expect(labelArea(s.map, 2)).toBe(0);
    await s.redo();
    expect(labelArea(s.map, 2)).toBe(8);
    await s.flush();
    expect(await storedArea(0, 'actArea')).toBe(0);
    expect(await storedArea(1, 'trfArea')).toBe(8);
    expect((await listRevisions(db, clip.id, 'gt', 1)).map((r) => r.action)).toEqual(['brush', 'undo:brush', 'redo:brush']);
    await s.close();

    // A new session (a reload) rebuilds the history from the revisions.
    const again = await EditorSession.open(db, clip, 'ann', 1);
    expect(again.snapshot.canUndo).toBe(true);
    await again.undo();
    expect(labelArea(again.map, 2)).toBe(0);
    await again.close();
    expect(await storedArea(1, 'trfArea')).toBe(0);
  });

  it('copies the previous frame as one undoable step, and refuses edits when read-only', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 2.5);
    await s.goToFrame(1);
    await s.copyPreviousFrame();
    expect(labelArea(s.map, 1)).toBe(8);
    await s.undo();
    expect(labelArea(s.map, 1)).toBe(0);
    await s.close();

    const ro = await EditorSession.open(db, clip, 'viewer', 2, true);
    stroke(ro, 1.5);
    expect(labelArea(ro.map, 1)).toBe(0);
    await ro.close();
  });

  it('tags instances on the label map and stores them with the layer', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 0.5);
    stroke(s, 4.5);
    s.setTool('tag');
    s.setInstanceId(2);
    s.pointerDown({ x: 3.5, y: 4.5, button: 0, shift: false, alt: false });
    s.pointerDown({ x: 3.5, y: 2.5, button: 0, shift: false, alt: false }); // background: no tag
    expect(s.tags).toEqual([{ id: 2, x: 3, y: 4 }]);
    expect(labelArea(s.map, 1)).toBe(16); // tagging never paints
    await s.close();
    expect((await getLayer(db, clip.id, 'gt', 0))?.instances).toEqual({ tags: [{ id: 2, x: 3, y: 4 }] });
    const again = await EditorSession.open(db, clip, 'ann', 0);
    expect(again.tags).toEqual([{ id: 2, x: 3, y: 4 }]);
    await again.close();
  });
});

describe('EditorSession with the SAM tool', () => {
  it('routes pointer input and keys to the SAM tool, commits its mask as one undoable stored step', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    const seen: string[] = [];
    s.setSamTool({
      busy: false,
      onPointerDown: (p) => seen.push(`down ${p.x},${p.y}`),
      onPointerMove: () => seen.push('move'),
      onPointerUp: () => seen.push('up'),
      onKey: (key, shift) => {
        seen.push(`key ${key}${shift ? '+shift' : ''}`);
        if (key !== 'Enter') return false;
        // What SamTool.accept does: one patch through the tool context.
        const ctx = s.toolContext;
        const before = ctx.map.data.slice();
        ctx.map.data.fill(ctx.activeClass, 0, 8);
        ctx.commit({ frameIndex: ctx.frameIndex, box: { x: 0, y: 0, w: 8, h: 1 }, before: before.subarray(0, 8), after: ctx.map.data.slice(0, 8), action: 'sam-replace' });
        return true;
      },
      clear: () => seen.push('clear'),
    });
    stroke(s, 1.5); // brush: not the SAM tool's business
    expect(seen).toEqual([]);
    s.setTool('sam');
    stroke(s, 2.5);
    expect(s.toolKey('Enter', true)).toBe(true);
    expect(s.toolKey('Tab')).toBe(false);
    expect(seen).toEqual(['down 0.5,2.5', 'move', 'up', 'key Enter+shift', 'key Tab']);
    expect(labelArea(s.map, 1)).toBe(8 + 8);
    await s.flush();
    expect(await storedArea(0, 'actArea')).toBe(16);
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.action)).toContain('sam-replace');
    await s.undo();
    expect(labelArea(s.map, 1)).toBe(8);
    s.setTool('brush');
    expect(seen.at(-1)).toBe('clear');
    await s.close();
  });
});
