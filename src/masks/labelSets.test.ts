import { describe, expect, it } from 'vitest';
import { MaskFormatError } from './errors';
import { checkSpocLabels, foreignLabelsProblem, labelsPresent } from './labelSets';

const map = (data: number[], width = data.length) => ({ width, height: data.length / width, data: Uint8Array.from(data) });

describe('SPOC label sets per layout', () => {
  it('lists the labels present', () => {
    expect(labelsPresent(map([0, 255, 2, 2, 0, 1]))).toEqual([0, 1, 2, 255]);
  });

  it('accepts the release palette only in the WhereToChange layout', () => {
    const release = map([0, 1, 2, 3, 4, 5, 255, 0], 4);
    expect(foreignLabelsProblem(release, 'wtc', 'hint')).toBeNull();
    expect(foreignLabelsProblem(release, 'davis', 'hint')).toBe(
      'holds labels 0, 1, 2, 3, 4, 5, 255: 3, 4, 5 are not SPOC labels (label 3 first at x=3, y=0); ' +
        'a SPOC mask in the DAVIS layout holds only 0 background, 1 actionable, 2 transformed and 255 void. ' +
        'A mask whose index is an object id (DAVIS multi-object) is not a SPOC mask: hint',
    );
    expect(foreignLabelsProblem(map([0, 1, 2, 255]), 'davis', 'hint')).toBeNull();
  });

  it('throws a MaskFormatError naming the file', () => {
    expect(() => checkSpocLabels(map([0, 0, 6, 0], 2), 'wtc', 'a/b.png', 'use --task vos')).toThrow(MaskFormatError);
    expect(() => checkSpocLabels(map([0, 0, 6, 0], 2), 'wtc', 'a/b.png', 'use --task vos')).toThrow(/^a\/b\.png: holds labels 0, 6: 6 is not a SPOC label \(label 6 first at x=0, y=1\)/);
  });
});
