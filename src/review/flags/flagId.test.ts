import { describe, expect, it } from 'vitest';
import { draw, framesOf } from '../../testing/review';
import { computeFlags } from '.';
import { applyDismissals, dismissFlag, flagId, hash53 } from './flagId';

describe('flag ids', () => {
  it('depend on kind, frame, state and box only', () => {
    const key = { kind: 'speck' as const, frameIndex: 3, state: 1 as const, box: { x: 1, y: 2, w: 3, h: 4 } };
    const id = flagId(key);
    expect(id).toMatch(/^speck:3:[0-9a-f]{14}$/);
    expect(flagId({ ...key })).toBe(id);
    expect(flagId({ ...key, frameIndex: 4 })).not.toBe(id);
    expect(flagId({ ...key, state: 2 })).not.toBe(id);
    expect(flagId({ ...key, box: { x: 1, y: 2, w: 3, h: 5 } })).not.toBe(id);
    expect(flagId({ ...key, kind: 'hole' })).not.toBe(id);
    expect(flagId({ ...key, group: true })).not.toBe(id);
    expect(hash53('a')).not.toBe(hash53('b'));
  });

  it('are stable when flags are recomputed, so a dismissal sticks; an edit of the region brings the flag back', () => {
    const maps = [draw(['......', '.aa...', '.aa..a', '......']), draw(['......', '.tt...', '.tt...', '......'])];
    const flags = computeFlags(framesOf(maps), { speck: { maxArea: 2 } });
    const speck = flags.find((f) => f.kind === 'speck')!;
    const dismissal = dismissFlag(speck, '  a real crumb ', { clipId: 'c1', by: 'rev', at: 5 });
    expect(dismissal).toEqual({ clipId: 'c1', source: 'gt', flagId: speck.id, kind: 'speck', frameIndex: 0, box: speck.box, reason: 'a real crumb', by: 'rev', at: 5 });

    const again = applyDismissals(computeFlags(framesOf(maps), { speck: { maxArea: 2 } }), [dismissal]);
    expect(again.dismissed.map((d) => d.flag.id)).toEqual([speck.id]);
    expect(again.open.some((f) => f.kind === 'speck')).toBe(false);

    const edited = [draw(['......', '.aa...', '.aa.a.', '......']), maps[1]];
    const afterEdit = applyDismissals(computeFlags(framesOf(edited), { speck: { maxArea: 2 } }), [dismissal]);
    expect(afterEdit.dismissed).toEqual([]);
    expect(afterEdit.open.some((f) => f.kind === 'speck')).toBe(true);
  });

  it('refuses a dismissal without a reason', () => {
    const [flag] = computeFlags(framesOf([null]));
    expect(() => dismissFlag(flag, '   ', { clipId: 'c', by: 'r' })).toThrow(/reason is empty/);
  });
});
