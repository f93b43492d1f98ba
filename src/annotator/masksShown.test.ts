import { describe, expect, it } from 'vitest';
import { holdRequest, inForce, masksShown, toggledChoice, type MasksChoice, type MasksRequestInForce } from './masksShown';

const show: MasksRequestInForce = { serial: 3, visible: true };
const hide: MasksRequestInForce = { serial: 3, visible: false };
const under = (visible: boolean, madeUnder: number | null): MasksChoice => ({ visible, madeUnder });

describe('masksShown: every combination of the user choice and the request in force', () => {
  const cases: [string, MasksChoice | null, MasksRequestInForce | null, boolean][] = [
    // No request (an editor with no rooms): the user's choice, else shown.
    ['no choice, no request', null, null, true],
    ['shown with no request, no request', under(true, null), null, true],
    ['hidden with no request, no request', under(false, null), null, false],
    ['hidden under a request now gone', under(false, 3), null, true],
    ['shown under a request now gone', under(true, 3), null, true],
    // A request that shows the masks (review's gt and both overlays).
    ['no choice, request shows', null, show, true],
    ['hidden under this request', under(false, 3), show, false],
    ['shown under this request', under(true, 3), show, true],
    ['hidden under an earlier request', under(false, 2), show, true],
    ['hidden with no request, then a request shows', under(false, null), show, true],
    // A request that hides them (prediction-only overlays, the annotator's version).
    ['no choice, request hides', null, hide, false],
    ['shown under this request', under(true, 3), hide, true],
    ['hidden under this request', under(false, 3), hide, false],
    ['shown under an earlier request', under(true, 2), hide, false],
    ['shown with no request, then a request hides', under(true, null), hide, false],
  ];
  for (const [name, choice, request, expected] of cases) {
    it(`${name} → ${expected ? 'shown' : 'hidden'}`, () => expect(masksShown(choice, request)).toBe(expected));
  }
});

describe('toggledChoice', () => {
  it('flips what shows, whatever made it so, and records the request in force', () => {
    for (const choice of [null, under(true, 3), under(false, 3), under(true, 2), under(false, null)]) {
      for (const request of [null, show, hide]) {
        const next = toggledChoice(choice, request);
        expect(masksShown(next, request)).toBe(!masksShown(choice, request));
        expect(next.madeUnder).toBe(request ? request.serial : null);
      }
    }
  });
});

describe('holdRequest', () => {
  it('numbers each change of key, so returning to an earlier view starts from what it asks', () => {
    const h0 = { key: null, serial: 0 };
    const gt = { key: 'overlay:gt', visible: true };
    const h1 = holdRequest(h0, gt);
    expect(h1).toEqual({ key: 'overlay:gt', serial: 1 });
    expect(holdRequest(h1, { ...gt })).toBe(h1);
    // The user hides the masks in gt mode, views the annotator's version, comes back: shown again.
    const hidden = toggledChoice(null, inForce(h1, gt));
    expect(masksShown(hidden, inForce(h1, gt))).toBe(false);
    const annotator = { key: 'annotator-version', visible: false };
    const h2 = holdRequest(h1, annotator);
    expect(masksShown(hidden, inForce(h2, annotator))).toBe(false);
    const h3 = holdRequest(h2, gt);
    expect(h3.serial).toBe(3);
    expect(masksShown(hidden, inForce(h3, gt))).toBe(true);
    expect(inForce(h3, null)).toBeNull();
  });
});
