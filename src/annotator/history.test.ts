import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createLabelMap, type LabelMap } from '../masks/labelMap';
import { History } from './history';
import type { LoggedRevision } from './historyReplay';
import { applyPatch, diffToPatch, type Patch } from './patch';
import { patchToRevision } from './revisionPatch';

/** Sets a w x h box at (x, y) to `v` and returns the patch (null if nothing changed). */
function paint(map: LabelMap, frameIndex: number, x: number, y: number, w: number, h: number, v: number, action = 'brush'): Patch | null {
  const before = { ...map, data: map.data.slice() };
  for (let yy = y; yy < y + h; yy++) map.data.fill(v, yy * map.width + x, yy * map.width + x + w);
  return diffToPatch(before, map, { x, y, w, h }, frameIndex, action);
}

describe('History', () => {
  it('undo and redo restore the bytes exactly and return the patch as applied', () => {
    const map = createLabelMap(20, 20);
    const h = new History();
    const s0 = map.data.slice();
    h.commit(paint(map, 0, 2, 2, 5, 5, 1)!);
    const s1 = map.data.slice();
    h.commit(paint(map, 0, 4, 4, 5, 5, 2, 'fill')!);
    const s2 = map.data.slice();
    const u = h.undo(0, map)!;
    expect(map.data).toEqual(s1);
    expect(u.action).toBe('undo:fill');
    // Oriented as applied: before = what was replaced, after = what is there now.
    const probe = { ...map, data: s2.slice() };
    applyPatch(probe, u, 'redo');
    expect(probe.data).toEqual(s1);
    h.undo(0, map);
    expect(map.data).toEqual(s0);
    expect(h.undo(0, map)).toBeNull();
    expect(h.redo(0, map)!.action).toBe('redo:brush');
    expect(map.data).toEqual(s1);
    h.redo(0, map);
    expect(map.data).toEqual(s2);
    expect(h.redo(0, map)).toBeNull();
  });

  it('a new commit clears the redo stack of that frame only', () => {
    const a = createLabelMap(10, 10);
    const b = createLabelMap(10, 10);
    const h = new History();
    h.commit(paint(a, 0, 0, 0, 2, 2, 1)!);
    h.commit(paint(b, 1, 0, 0, 2, 2, 1)!);
    h.undo(0, a);
    h.undo(1, b);
    expect(h.canRedo(0) && h.canRedo(1)).toBe(true);
    h.commit(paint(a, 0, 5, 5, 2, 2, 2)!);
    expect(h.canRedo(0)).toBe(false);
    expect(h.canRedo(1)).toBe(true);
    expect(h.depth(0)).toEqual({ undo: 1, redo: 0 });
  });

  it('evicts the least recently used stack bottoms across frames to stay within the budget', () => {
    const maps = [createLabelMap(10, 10), createLabelMap(10, 10)];
    const h = new History({ budgetBytes: 1000 }); // each 10 x 5 patch holds 100 bytes
    h.commit(paint(maps[0], 0, 0, 0, 10, 5, 1)!); // oldest
    h.commit(paint(maps[1], 1, 0, 0, 10, 5, 1)!);
    for (let k = 0; k < 8; k++) h.commit(paint(maps[1], 1, 0, 0, 10, 5, k % 2 === 0 ? 2 : 1)!);
    expect(h.bytes).toBe(1000);
    h.commit(paint(maps[1], 1, 0, 5, 10, 5, 1)!);
    expect(h.bytes).toBe(1000);
    expect(h.canUndo(0)).toBe(false); // frame 0's only step was the oldest
    expect(h.depth(1).undo).toBe(10);
    h.commit(paint(maps[0], 0, 0, 5, 10, 5, 2)!);
    expect(h.depth(1).undo).toBe(9);
    // Undo still restores exactly what each remaining step describes.
    for (let k = 0; k < 9; k++) expect(h.undo(1, maps[1])).not.toBeNull();
    expect(h.undo(1, maps[1])).toBeNull();
  });

  it('keeps the newest step even when it alone exceeds the budget', () => {
    const map = createLabelMap(100, 100);
    const h = new History({ budgetBytes: 1000 });
    h.commit(paint(map, 0, 0, 0, 5, 5, 1)!);
    h.commit(paint(map, 0, 0, 0, 100, 100, 2)!);
    expect(h.depth(0).undo).toBe(1);
    expect(h.bytes).toBe(20000);
    expect(h.undo(0, map)).not.toBeNull();
  });

  it('drops a stale frame history instead of writing over pixels it does not describe', () => {
    const map = createLabelMap(10, 10);
    const onStale = vi.fn();
    const h = new History({ onStale });
    h.commit(paint(map, 3, 0, 0, 4, 4, 1)!);
    map.data[0] = 2; // changed behind the history's back
    const snapshot = map.data.slice();
    expect(h.undo(3, map)).toBeNull();
    expect(map.data).toEqual(snapshot);
    expect(onStale).toHaveBeenCalledWith(3);
    expect(h.canUndo(3)).toBe(false);
    expect(h.bytes).toBe(0);
  });

  it('forgetFrame releases the memory', () => {
    const map = createLabelMap(10, 10);
    const h = new History();
    h.commit(paint(map, 0, 0, 0, 4, 4, 1)!);
    h.forgetFrame(0);
    expect(h.bytes).toBe(0);
    expect(h.canUndo(0)).toBe(false);
  });
});

/** A live session that logs every applied patch as a revision, as the editor does. */
class Session {
  readonly history = new History();
  readonly log: LoggedRevision[] = [];
  private seq = 100;
  constructor(readonly maps: LabelMap[]) {}

  record(patch: Patch | null): void {
    if (patch) this.log.push({ ...patchToRevision(patch), seq: this.seq++ });
  }
  edit(frame: number, x: number, y: number, w: number, h: number, v: number): void {
    const patch = paint(this.maps[frame], frame, x, y, w, h, v);
    if (!patch) return;
    this.history.commit(patch);
    this.record(patch);
  }
  undo(frame: number): void {
    this.record(this.history.undo(frame, this.maps[frame]));
  }
  redo(frame: number): void {
    this.record(this.history.redo(frame, this.maps[frame]));
  }
}

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), frame: fc.nat(2), x: fc.nat(7), y: fc.nat(7), w: fc.integer({ min: 1, max: 5 }), h: fc.integer({ min: 1, max: 5 }), v: fc.nat(2) }),
  fc.record({ kind: fc.constant('undo' as const), frame: fc.nat(2) }),
  fc.record({ kind: fc.constant('redo' as const), frame: fc.nat(2) }),
);

describe('History.fromRevisions (undo across reloads)', () => {
  it('rebuilds stacks that undo and redo exactly like the live session (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.array(fc.constantFrom('undo', 'redo'), { maxLength: 12 }), (ops, after) => {
        const live = new Session([0, 1, 2].map(() => createLabelMap(12, 12)));
        for (const op of ops) {
          if (op.kind === 'edit') live.edit(op.frame, op.x, op.y, op.w, op.h, op.v);
          else live[op.kind](op.frame);
        }
        // Reload: the maps are the stored layers (the replay of the log); the log is shuffled on purpose.
        const reloaded = History.fromRevisions(live.log.slice().reverse());
        const maps = live.maps.map((m) => ({ ...m, data: m.data.slice() }));
        for (let f = 0; f < 3; f++) {
          expect(reloaded.depth(f)).toEqual(live.history.depth(f));
          for (const step of after) {
            const a = live.history[step](f, live.maps[f]);
            const b = reloaded[step](f, maps[f]);
            expect(b).toEqual(a);
            expect(maps[f].data).toEqual(live.maps[f].data);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('replays an undo that does not fit its stack as a plain edit (still pixel-correct)', () => {
    const s = new Session([createLabelMap(10, 10)]);
    s.edit(0, 0, 0, 3, 3, 1);
    s.edit(0, 5, 5, 3, 3, 2);
    // A foreign "undo" of the first edit while the second is on top (two tabs writing at once).
    const first = s.log[0];
    s.log.push({ ...first, seq: 999, action: 'undo:brush', before: first.after, after: first.before, beforeTrf: first.afterTrf, afterTrf: first.beforeTrf });
    applyPatch(s.maps[0], { frameIndex: 0, box: first.box, before: new Uint8Array(9).fill(1), after: new Uint8Array(9), action: 'x' }, 'redo');
    const h = new History();
    expect(h.loadFrame(0, s.log)).toEqual({ mismatched: 1, unreadable: 0 });
    expect(h.depth(0)).toEqual({ undo: 3, redo: 0 });
    const map = s.maps[0];
    for (let k = 0; k < 3; k++) expect(h.undo(0, map)).not.toBeNull();
    expect(map.data).toEqual(new Uint8Array(100));
  });

  it('keeps only the newest steps that fit the budget, without decoding the rest', () => {
    const s = new Session([createLabelMap(10, 10)]);
    for (let k = 0; k < 20; k++) s.edit(0, 0, 0, 10, 10, 1 + (k % 2)); // 200 bytes each
    s.undo(0);
    s.undo(0);
    const h = History.fromRevisions(s.log, { budgetBytes: 1000 });
    expect(h.depth(0)).toEqual({ undo: 3, redo: 2 });
    expect(h.bytes).toBe(1000);
  });

  it('an unreadable revision costs only the steps below it', () => {
    const s = new Session([createLabelMap(10, 10)]);
    for (let k = 0; k < 4; k++) s.edit(0, k, k, 2, 2, 1);
    s.log[1] = { ...s.log[1], after: { size: [9, 9], counts: '0' } };
    const h = new History();
    expect(h.loadFrame(0, s.log)).toEqual({ mismatched: 0, unreadable: 2 });
    expect(h.depth(0)).toEqual({ undo: 2, redo: 0 });
  });
});

describe('History with relation steps', () => {
  const touch = { type: 'contact' as const, subjectId: 'hand', answer: 'contact' as const, objectId: 'pan' };
  const step = (map: LabelMap, before: (typeof touch)[], after: (typeof touch)[]): Patch => ({
    frameIndex: 0,
    box: { x: 0, y: 0, w: 1, h: 1 },
    before: map.data.slice(0, 1),
    after: map.data.slice(0, 1),
    action: 'contact:contact',
    relations: { before, after },
  });

  it('undoes and redoes a relation step only when the frame still has the relations it left', () => {
    const map = createLabelMap(4, 4);
    const h = new History();
    h.commit(step(map, [], [touch]));
    const u = h.undo(0, map, [touch])!;
    expect(u.relations).toEqual({ before: [touch], after: [] });
    const r = h.redo(0, map, [])!;
    expect(r.relations).toEqual({ before: [], after: [touch] });
    const onStale = vi.fn();
    const stale = new History({ onStale });
    stale.commit(step(map, [], [touch]));
    expect(stale.undo(0, map, [])).toBeNull();
    expect(onStale).toHaveBeenCalledWith(0);
  });

  it('rebuilds relation steps from the log: an undo revision pops the step it inverts', () => {
    const map = createLabelMap(4, 4);
    const rev = (seq: number, action: string, before: (typeof touch)[], after: (typeof touch)[]): LoggedRevision => ({
      ...patchToRevision(step(map, before, after)),
      action,
      seq,
      relationsBefore: before,
      relationsAfter: after,
    });
    const other = { ...touch, objectId: 'knife' };
    const h = History.fromRevisions([rev(1, 'contact:contact', [], [touch]), rev(2, 'contact:contact', [touch], [other]), rev(3, 'undo:contact:contact', [other], [touch])]);
    expect(h.depth(0)).toEqual({ undo: 1, redo: 1 });
    expect(h.undo(0, map, [touch])!.relations).toEqual({ before: [touch], after: [] });
    expect(h.redo(0, map, [])!.relations).toEqual({ before: [], after: [touch] });
  });
});
