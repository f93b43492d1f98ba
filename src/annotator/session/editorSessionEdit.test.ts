/**
 * EditorSession.edit, the one transaction of every whole-frame writer (docs/architecture.md): one
 * undo step and one stored revision per applied edit, on the shown frame or any other, refused on a
 * read-only clip and under a stroke in progress, never two edits of one frame from the same stale map.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { emptyClipStore } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { labelArea } from '../../masks/geometry';
import type { LabelMap } from '../../masks/labelMap';
import { EditorSession } from './editorSession';
import { labelsPatch } from '../frameOps';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(4)); // 8x6 frames, no masks
});
afterEach(() => db.close());

/** The frame with label `v` on pixel `i` (and what it held elsewhere). */
const setPixel = (i: number, v: number) => (map: LabelMap) => {
  const next = map.data.slice();
  next[i] = v;
  return next;
};
const storedArea = async (k: number) => (await getLayer(db, clip.id, 'gt', k))?.actArea ?? 0;

describe('EditorSession.edit', () => {
  it('on the shown frame: one undo step, one revision named by the action, redrawn; an edit that changes nothing writes nothing', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const redrawn: unknown[] = [];
    s.onInvalidate((b) => redrawn.push(b));
    const edited: number[] = [];
    s.onEdit((k) => edited.push(k));
    expect(await s.edit(0, 'suggest-states', setPixel(9, 1))).toMatchObject({ status: 'applied', frameIndex: 0 });
    expect(redrawn).toEqual([{ x: 1, y: 1, w: 1, h: 1 }]);
    expect(edited).toEqual([0]);
    expect(await s.edit(0, 'suggest-states', setPixel(9, 1))).toEqual({ status: 'unchanged', frameIndex: 0 });
    await s.flush();
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => [r.action, r.author])).toEqual([['suggest-states', 'ann']]);
    await s.undo();
    expect(labelArea(s.map, 1)).toBe(0);
    await s.close();
  });

  it('on a frame that is not shown: stored and undoable there, the shown frame and view untouched', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const redrawn: unknown[] = [];
    s.onInvalidate((b) => redrawn.push(b));
    const outcome = await s.edit(2, 'propagate-flow', setPixel(0, 1));
    expect(outcome).toMatchObject({ status: 'applied', frameIndex: 2 });
    expect(s.snapshot.frameIndex).toBe(0);
    expect(labelArea(s.map, 1)).toBe(0);
    expect(redrawn).toEqual([]);
    await s.flush();
    expect(await storedArea(2)).toBe(1);
    await s.goToFrame(2);
    expect(labelArea(s.map, 1)).toBe(1);
    expect(s.snapshot.canUndo).toBe(true);
    await s.undo();
    await s.flush();
    expect(await storedArea(2)).toBe(0);
    await s.close();
  });

  it('is refused on a read-only clip, and on the shown frame while a stroke is under way (another frame is fine)', async () => {
    const ro = await EditorSession.open(db, clip, 'ann', 0, true);
    expect(await ro.edit(1, 'clear', () => new Uint8Array(48))).toMatchObject({ status: 'refused', reason: expect.stringMatching(/read-only/) });
    expect(await ro.edit(0, 'clear', () => new Uint8Array(48))).toMatchObject({ status: 'refused' });
    await ro.close();

    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.pointerDown({ x: 0.5, y: 0.5, button: 0, shift: false, alt: false });
    expect(s.snapshot.busy).toBe(true);
    expect(await s.edit(0, 'sam-replace', setPixel(40, 2))).toMatchObject({ status: 'refused', reason: expect.stringMatching(/stroke/) });
    expect(await s.edit(1, 'propagate-sam', setPixel(40, 2))).toMatchObject({ status: 'applied' });
    s.pointerUp({ x: 0.5, y: 0.5, button: 0, shift: false, alt: false });
    await s.flush();
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.action)).toEqual(['brush']);
    expect((await listRevisions(db, clip.id, 'gt', 1)).map((r) => r.action)).toEqual(['propagate-sam']);
    await s.close();
  });

  it('two edits of one unshown frame started together both land (they run one after the other)', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const [a, b] = await Promise.all([s.edit(3, 'a', setPixel(0, 1)), s.edit(3, 'b', setPixel(47, 1))]);
    expect([a.status, b.status]).toEqual(['applied', 'applied']);
    await s.flush();
    expect(await storedArea(3)).toBe(2);
    expect((await listRevisions(db, clip.id, 'gt', 3)).map((r) => r.action)).toEqual(['a', 'b']);
    await s.close();
  });

  it('writes the frame tags with the pixels in the same step, and refuses a frame outside the clip', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    await s.edit(1, 'propagate-sam', setPixel(9, 1), { tags: () => [{ id: 4, x: 1, y: 1 }] });
    expect(s.tagsAt(1)).toEqual([{ id: 4, x: 1, y: 1 }]);
    await s.flush();
    expect((await getLayer(db, clip.id, 'gt', 1))?.instances).toEqual({ tags: [{ id: 4, x: 1, y: 1 }] });
    expect(await s.edit(4, 'x', setPixel(0, 1))).toMatchObject({ status: 'refused', reason: expect.stringMatching(/not in this 4-frame clip/) });
    await s.close();
  });
});

describe('labelsPatch', () => {
  it('copies only the changed box, and takes over the result when every pixel changed (never aliasing the map)', () => {
    const map = { width: 4, height: 3, data: new Uint8Array(12) };
    const small = labelsPatch(map, setPixel(5, 2)(map), 0, 't')!;
    expect(small.box).toEqual({ x: 1, y: 1, w: 1, h: 1 });
    expect([small.before.length, small.after.length]).toEqual([1, 1]);
    const all = new Uint8Array(12).fill(1);
    const whole = labelsPatch(map, all, 0, 't')!;
    expect(whole.after).toBe(all);
    expect(whole.before).not.toBe(map.data);
    expect(Array.from(whole.before)).toEqual([0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(map.data)).toEqual(Array.from(all));
    expect(() => labelsPatch(map, map.data, 0, 't')).toThrow(/new labels/);
  });
});
