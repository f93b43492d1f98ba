import { describe, expect, it } from 'vitest';
import { withEditedAreas } from './frameAreas';

describe('withEditedAreas', () => {
  const stored = [
    { frameIndex: 0, actArea: 10, trfArea: 0 },
    { frameIndex: 2, actArea: 5, trfArea: 5 },
  ];

  it('is the stored rows while nothing was edited here', () => {
    expect(withEditedAreas(stored, new Map())).toEqual(stored);
  });

  it('puts an edited frame in place of its stored row, and adds one the store has not seen', () => {
    const rows = withEditedAreas(stored, new Map([[2, { act: 1, trf: 9 }], [1, { act: 4, trf: 0 }]]));
    expect(rows).toEqual([
      { frameIndex: 0, actArea: 10, trfArea: 0 },
      { frameIndex: 1, actArea: 4, trfArea: 0 },
      { frameIndex: 2, actArea: 1, trfArea: 9 },
    ]);
    expect(stored[1]).toEqual({ frameIndex: 2, actArea: 5, trfArea: 5 });
  });

  it('keeps a frame cleared here at zero, not at its stored areas', () => {
    expect(withEditedAreas(stored, new Map([[0, { act: 0, trf: 0 }]]))[0]).toEqual({ frameIndex: 0, actArea: 0, trfArea: 0 });
  });
});
