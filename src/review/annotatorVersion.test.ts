import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LabelMap } from '../masks/labelMap';
import { diffToPatch } from '../annotator/patch';
import { patchToRevision } from '../annotator/revisionPatch';
import type { ClipEvent, Revision } from '../store/types';
import { annotatorVersion, reviewBaseline } from './annotatorVersion';
import { diffMaps } from './errorMap';
import { draw } from '../testing/review';

const ev = (seq: number, action: string, by: string, at: number): ClipEvent => ({ seq, id: `e${seq}`, clipId: 'c', action, from: 'in_progress', to: 'submitted', by, at });

/** Applies `next` over the map as an editor edit would and returns the stored revision row. */
function edit(log: Revision[], map: LabelMap, next: LabelMap, author: string, at: number, frameIndex = 0): Revision {
  const patch = diffToPatch(map, next, { x: 0, y: 0, w: map.width, h: map.height }, frameIndex, 'brush');
  if (!patch) throw new Error('no change');
  const rev: Revision = { ...patchToRevision(patch), seq: log.length + 1, id: `r${log.length + 1}`, clipId: 'c', source: 'gt', author, at };
  log.push(rev);
  map.data.set(next.data);
  return rev;
}

const stateCount = (m: LabelMap, label: number) => m.data.reduce((n, v) => n + (v === label ? 1 : 0), 0);

describe('reviewBaseline', () => {
  it('is the last submit (who and when); null when never submitted', () => {
    expect(reviewBaseline([])).toBeNull();
    expect(reviewBaseline([ev(1, 'start_review', 'rev', 1)])).toBeNull();
    expect(reviewBaseline([ev(1, 'submit', 'ann', 5), ev(2, 'start_review', 'rev', 6), ev(3, 'request_changes', 'rev', 7), ev(4, 'submit', 'ann2', 9)])).toEqual({
      annotator: 'ann2',
      submittedAt: 9,
    });
  });
});

describe('annotatorVersion', () => {
  it('undoes the reviewer revisions after the submission, and everything written after the first of them', () => {
    const log: Revision[] = [];
    const map = draw(['......', '......', '......']);
    edit(log, map, draw(['aaa...', '......', '......']), 'ann', 1); // before the submission
    edit(log, map, draw(['aaat..', 'a.....', '......']), 'ann', 3); // submitted at 4 with this
    edit(log, map, draw(['aaat..', 'a.....', 'tttt..']), 'ann', 5); // the annotator again, before any review: theirs
    const submitted = { data: map.data.slice(), width: map.width, height: map.height };
    edit(log, map, draw(['.aat..', 'a..aa.', 'tttt..']), 'rev', 6);
    edit(log, map, draw(['.aat..', 'a..aa.', 'tttt.t']), 'ann', 7); // after the reviewer started: undone too
    edit(log, map, draw(['.att..', 'a..aa.', 'tttt.t']), 'rev2', 8);
    // A revision of another frame or source never counts.
    log.push({ ...log[3], seq: 99, frameIndex: 1 });
    const baseline = { annotator: 'ann', submittedAt: 4 };
    const v = annotatorVersion(map, log, 0, baseline);
    expect(Array.from(v.map.data)).toEqual(Array.from(submitted.data));
    expect(v.undone.map((r) => r.author)).toEqual(['rev', 'ann', 'rev2']);
    expect(v.reviewers).toEqual(['rev', 'rev2']);
    // The input map is not touched.
    expect(Array.from(map.data)).toEqual(Array.from(draw(['.att..', 'a..aa.', 'tttt.t']).data));
  });

  it('is the current map when no one but the annotator edited after the submission', () => {
    const log: Revision[] = [];
    const map = draw(['....', '....']);
    edit(log, map, draw(['aa..', '....']), 'rev', 1); // a reviewer's edit *before* the submission is history
    edit(log, map, draw(['aat.', '....']), 'ann', 3);
    const v = annotatorVersion(map, log, 0, { annotator: 'ann', submittedAt: 2 });
    expect(Array.from(v.map.data)).toEqual(Array.from(map.data));
    expect(v.undone).toEqual([]);
  });

  it('reconstructs the submitted map for random edit sequences (property)', () => {
    const W = 7;
    const H = 5;
    const mapArb = fc.array(fc.constantFrom(0, 0, 1, 2), { minLength: W * H, maxLength: W * H }).map((a): LabelMap => ({ width: W, height: H, data: Uint8Array.from(a) }));
    fc.assert(
      fc.property(fc.array(mapArb, { minLength: 1, maxLength: 4 }), fc.array(mapArb, { minLength: 0, maxLength: 4 }), (annEdits, revEdits) => {
        const log: Revision[] = [];
        const map: LabelMap = { width: W, height: H, data: new Uint8Array(W * H) };
        let at = 1;
        for (const m of annEdits) if (diffToPatch(map, m, { x: 0, y: 0, w: W, h: H })) edit(log, map, m, 'ann', at++);
        const submitted = map.data.slice();
        const submittedAt = at++;
        for (const m of revEdits) if (diffToPatch(map, m, { x: 0, y: 0, w: W, h: H })) edit(log, map, m, 'rev', at++);
        const v = annotatorVersion(map, log, 0, { annotator: 'ann', submittedAt });
        expect(Array.from(v.map.data)).toEqual(Array.from(submitted));
        // The diff of the two versions: per state, added - removed = after - before.
        const d = diffMaps(v.map, map);
        expect(d.act.added - d.act.removed).toBe(stateCount(map, 1) - stateCount(v.map, 1));
        expect(d.trf.added - d.trf.removed).toBe(stateCount(map, 2) - stateCount(v.map, 2));
      }),
      { numRuns: 200 },
    );
  });
});

describe('diffMaps counts (reviewer diff overlay)', () => {
  it('added - removed = after - before, per state, for any two maps (property)', () => {
    const arb = fc
      .record({ w: fc.integer({ min: 1, max: 10 }), h: fc.integer({ min: 1, max: 10 }) })
      .chain(({ w, h }) => {
        const m = fc.array(fc.constantFrom(0, 1, 2, 3, 4, 255), { minLength: w * h, maxLength: w * h }).map((a): LabelMap => ({ width: w, height: h, data: Uint8Array.from(a) }));
        return fc.record({ before: m, after: m });
      });
    fc.assert(
      fc.property(arb, ({ before, after }) => {
        const d = diffMaps(before, after);
        expect(d.act.added - d.act.removed).toBe(stateCount(after, 1) - stateCount(before, 1));
        expect(d.trf.added - d.trf.removed).toBe(stateCount(after, 2) - stateCount(before, 2));
        // Every changed pixel carries at least one bit; unchanged ones none.
        let changed = 0;
        for (let i = 0; i < d.data.length; i++) if (d.data[i]) changed++;
        expect(changed).toBe(d.changed);
      }),
      { numRuns: 300 },
    );
  });
});
