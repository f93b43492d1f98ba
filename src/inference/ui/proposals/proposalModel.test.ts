import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../../masks/labelMap';
import { cropMask } from '../../spoc/croppedMask';
import { acceptLayer, regionsOfLayer } from './layerRegions';
import { applyProposalMask, classForAccept, cycleIndex, labelOf, proposalAt, type ShownProposal } from './proposalModel';

const W = 10;
const H = 8;
/** A rectangle mask [x0, x1) x [y0, y1) as a cropped mask. */
function rect(x0: number, y0: number, x1: number, y1: number): ShownProposal['mask'] {
  const full = new Uint8Array(W * H);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) full[y * W + x] = 1;
  return cropMask(full, W, H);
}
const shown = (mask: ShownProposal['mask'], sAct: number | null = null, sTrf: number | null = null): ShownProposal => ({ mask, samIou: 0.9, sAct, sTrf });

describe('proposal labels', () => {
  it('follows Eq. 1 under the given thresholds and re-labels without new scores', () => {
    const p = shown(rect(0, 0, 2, 2), 0.3, 0.25);
    expect(labelOf(p, { tau: 0.5, delta: 0.01 })).toBe('actionable');
    expect(labelOf(p, { tau: 0.5, delta: 0.1 })).toBe('ambiguous'); // |0.05| < 0.1
    expect(labelOf(p, { tau: 0.6, delta: 0.01 })).toBe('background'); // 0.55 < 0.6
    expect(labelOf(shown(p.mask, 0.2, 0.4), { tau: 0.5, delta: 0.01 })).toBe('transformed');
    expect(labelOf(shown(p.mask), { tau: 0.5, delta: 0.01 })).toBe('unlabelled');
    expect(labelOf({ ...shown(p.mask, 0, 0), fixed: 'transformed' }, { tau: 0.5, delta: 0.01 })).toBe('transformed');
  });

  it('accepts a confident state as itself, anything else as the active class', () => {
    expect(classForAccept('actionable', 2)).toBe(1);
    expect(classForAccept('transformed', 1)).toBe(2);
    expect(classForAccept('ambiguous', 2)).toBe(2);
    expect(classForAccept('unlabelled', 1)).toBe(1);
    expect(classForAccept('background', 0)).toBeNull();
  });
});

describe('picking and accepting', () => {
  const big = shown(rect(0, 0, 8, 6));
  const small = shown(rect(2, 2, 4, 4));
  const other = shown(rect(8, 6, 10, 8));
  const items = [big, small, other];

  it('picks the smallest proposal under the pointer, none outside', () => {
    expect(proposalAt(items, 2.5, 2.9)).toBe(1);
    expect(proposalAt(items, 6, 1)).toBe(0);
    expect(proposalAt(items, 9.2, 7.7)).toBe(2);
    expect(proposalAt(items, 9, 1)).toBeNull();
    expect(proposalAt(items, 2.5, 2.9, (i) => i === 1)).toBe(0);
  });

  it('cycles over visible proposals', () => {
    expect(cycleIndex(3, null, 1)).toBe(0);
    expect(cycleIndex(3, 2, 1)).toBe(0);
    expect(cycleIndex(3, 0, -1)).toBe(2);
    expect(cycleIndex(3, 0, 1, (i) => i !== 1)).toBe(2);
    expect(cycleIndex(0, null, 1)).toBeNull();
  });

  it('writes the mask in the class, sparing the other class when protected', () => {
    const map = createLabelMap(W, H);
    map.data[2 * W + 2] = 2; // inside `small`
    const protectedNext = applyProposalMask(map, small.mask, 1, true);
    expect(protectedNext[2 * W + 2]).toBe(2);
    expect(protectedNext[3 * W + 3]).toBe(1);
    expect([...protectedNext].filter((v) => v === 1)).toHaveLength(3);
    const free = applyProposalMask(map, small.mask, 1, false);
    expect([...free].filter((v) => v === 1)).toHaveLength(4);
    expect(map.data[3 * W + 3]).toBe(0); // the input map is untouched
    expect(() => applyProposalMask(createLabelMap(4, 4), small.mask, 1, true)).toThrow(/10x8/);
  });
});

describe('proposal layer regions', () => {
  it('splits labels into 4-connected regions with tight boxes', () => {
    const map = createLabelMap(W, H);
    for (let x = 0; x < 3; x++) map.data[x] = 1; // row 0, x 0..2
    map.data[W + 3] = 1; // diagonal to (2, 0): a separate region
    for (let y = 4; y < 6; y++) for (let x = 5; x < 7; x++) map.data[y * W + x] = 2;
    map.data[7 * W + 9] = 5; // an imported label: not a state
    const r = regionsOfLayer(map);
    expect(r.map((x) => [x.label, x.mask.area, x.mask.box])).toEqual([
      [1, 3, { x: 0, y: 0, w: 3, h: 1 }],
      [1, 1, { x: 3, y: 1, w: 1, h: 1 }],
      [2, 4, { x: 5, y: 4, w: 2, h: 2 }],
    ]);
    expect(regionsOfLayer(map, 2)).toHaveLength(2);
  });

  it('accepts a whole frame by filling empty gt pixels only, or replacing', () => {
    const gt = createLabelMap(W, H);
    const prop = createLabelMap(W, H);
    gt.data[0] = 2;
    gt.data[5] = 1;
    prop.data[0] = 1;
    prop.data[1] = 2;
    const fill = acceptLayer(gt, prop, 'fill-empty');
    expect([fill[0], fill[1], fill[5]]).toEqual([2, 2, 1]);
    const rep = acceptLayer(gt, prop, 'replace');
    expect([rep[0], rep[1], rep[5]]).toEqual([1, 2, 0]);
    expect(() => acceptLayer(gt, createLabelMap(2, 2), 'replace')).toThrow(/2x2/);
  });
});
