import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LabelMap, RgbaImage } from '../masks/labelMap';
import { countFrame } from '../metrics/spoc';
import { DIFF_BITS, ERROR_CLASS, ERROR_COLOURS, diffMaps, errorMap, frameCountsOf, paintErrorMap, summarizeErrors } from './errorMap';
import { draw } from '../testing/review';

/** Label values as they occur: states, background, release labels, void, and a stray value. */
const labelArb = fc.constantFrom(0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 255, 7);

const pairArb = fc
  .record({ w: fc.integer({ min: 1, max: 9 }), h: fc.integer({ min: 1, max: 9 }) })
  .chain(({ w, h }) =>
    fc.record({
      gt: fc.array(labelArb, { minLength: w * h, maxLength: w * h }).map((a): LabelMap => ({ width: w, height: h, data: Uint8Array.from(a) })),
      pred: fc.option(
        fc.array(labelArb, { minLength: w * h, maxLength: w * h }).map((a): LabelMap => ({ width: w, height: h, data: Uint8Array.from(a) })),
      ),
    }),
  );

describe('errorMap', () => {
  it('classes every pixel', () => {
    const gt = draw(['aaat..', 'tt4.a.']);
    const pred = draw(['atat.a', '.a1.v.']);
    const { data, counts } = errorMap(gt, pred);
    const C = ERROR_CLASS;
    expect(Array.from(data)).toEqual([C.tpAct, C.actAsTrf, C.tpAct, C.tpTrf, C.none, C.fpAct, C.fnTrf, C.trfAsAct, C.excluded, C.none, C.fnAct, C.none]);
    expect(counts).toEqual({ none: 3, tpAct: 2, tpTrf: 1, fpAct: 1, fpTrf: 0, fnAct: 1, fnTrf: 1, actAsTrf: 1, trfAsAct: 1, excluded: 1 });
  });

  it('reproduces countFrame exactly: I and U per state and for the fused object (property)', () => {
    fc.assert(
      fc.property(pairArb, ({ gt, pred }) => {
        const { counts } = errorMap(gt, pred);
        expect(frameCountsOf(counts)).toEqual(countFrame(gt, pred));
        // Every pixel is in exactly one class.
        expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(gt.data.length);
      }),
      { numRuns: 300 },
    );
  });

  it('FP and FN against background are what the I∪U arithmetic of countFrame implies (property)', () => {
    fc.assert(
      fc.property(pairArb, ({ gt, pred }) => {
        const { counts } = errorMap(gt, pred);
        const c = countFrame(gt, pred);
        const self = countFrame(gt, gt); // iX of gt with itself = |G_X| without excluded pixels
        // Fused object: FN = |G| - I, FP = U - |G|.
        expect(counts.fnAct + counts.fnTrf).toBe(self.iObj - c.iObj);
        expect(counts.fpAct + counts.fpTrf).toBe(c.uObj - self.iObj);
        // Per state: |P_s \ G_s| + |G_s \ P_s| = U - I, and |G_s \ P_s| = |G_s| - I.
        const s = summarizeErrors(counts);
        expect(s.act.fp + s.act.fn).toBe(c.uAct - c.iAct);
        expect(s.trf.fp + s.trf.fn).toBe(c.uTrf - c.iTrf);
        expect(s.act.fn).toBe(self.iAct - c.iAct);
        expect(s.trf.fn).toBe(self.iTrf - c.iTrf);
      }),
      { numRuns: 300 },
    );
  });

  it('scores a missing prediction as empty, and summarises IoU (NaN when a state is absent from both)', () => {
    const gt = draw(['aa.', 't..']);
    const { counts } = errorMap(gt, null);
    expect(counts).toMatchObject({ fnAct: 2, fnTrf: 1, none: 3 });
    expect(frameCountsOf(counts)).toEqual(countFrame(gt, null));
    const s = summarizeErrors(errorMap(draw(['aa.']), draw(['a..'])).counts);
    expect(s.act.iou).toBe(0.5);
    expect(s.trf.iou).toBeNaN();
  });

  it('refuses maps of different sizes', () => {
    expect(() => errorMap(draw(['a.']), draw(['a', '.']))).toThrow(/differ in size/);
  });

  it('paints distinct colours for FP, FN and wrong state', () => {
    const map = errorMap(draw(['a.t']), draw(['.at']));
    const out: RgbaImage = { width: 3, height: 1, data: new Uint8ClampedArray(12) };
    paintErrorMap(map, out);
    expect(Array.from(out.data.slice(0, 4))).toEqual([...ERROR_COLOURS[ERROR_CLASS.fnAct]]);
    expect(Array.from(out.data.slice(4, 8))).toEqual([...ERROR_COLOURS[ERROR_CLASS.fpAct]]);
    const fp = ERROR_COLOURS[ERROR_CLASS.fpAct].join();
    const fn = ERROR_COLOURS[ERROR_CLASS.fnAct].join();
    const wrong = ERROR_COLOURS[ERROR_CLASS.actAsTrf].join();
    expect(new Set([fp, fn, wrong]).size).toBe(3);
    expect(ERROR_COLOURS[ERROR_CLASS.fpTrf].join()).toBe(fp);
    expect(ERROR_COLOURS[ERROR_CLASS.fnTrf].join()).toBe(fn);
    expect(ERROR_COLOURS[ERROR_CLASS.trfAsAct].join()).toBe(wrong);
  });
});

describe('diffMaps', () => {
  it('reports added and removed pixels per state, with boxes', () => {
    const before = draw(['aa..', 'tt..', '....']);
    const after = draw(['a...', 'at..', '..tt']);
    const d = diffMaps(before, after);
    expect(d.act).toEqual({ added: 1, removed: 1, addedBox: { x: 0, y: 1, w: 1, h: 1 }, removedBox: { x: 1, y: 0, w: 1, h: 1 } });
    expect(d.trf).toEqual({ added: 2, removed: 1, addedBox: { x: 2, y: 2, w: 2, h: 1 }, removedBox: { x: 0, y: 1, w: 1, h: 1 } });
    expect(d.changed).toBe(4);
    expect(d.box).toEqual({ x: 0, y: 0, w: 4, h: 3 });
    expect(d.data[4]).toBe(DIFF_BITS.actAdded | DIFF_BITS.trfRemoved);
  });

  it('is empty for equal maps; a null "before" is an empty map', () => {
    const m = draw(['at.', '...']);
    expect(diffMaps(m, m)).toMatchObject({ changed: 0, box: null, act: { added: 0, removed: 0, addedBox: null } });
    expect(diffMaps(null, m)).toMatchObject({ changed: 2, act: { added: 1, removed: 0 }, trf: { added: 1, removed: 0 } });
  });

  it('added minus removed is the change of area, per state (property)', () => {
    fc.assert(
      fc.property(pairArb, ({ gt, pred }) => {
        if (!pred) return;
        const d = diffMaps(gt, pred);
        const area = (m: LabelMap, v: number) => m.data.reduce((n, x) => n + (x === v ? 1 : 0), 0);
        expect(d.act.added - d.act.removed).toBe(area(pred, 1) - area(gt, 1));
        expect(d.trf.added - d.trf.removed).toBe(area(pred, 2) - area(gt, 2));
      }),
    );
  });
});
