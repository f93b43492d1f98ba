import { describe, expect, it } from 'vitest';
import { formatNumber, renderTable } from './table';

describe('renderTable', () => {
  it('aligns columns, leaves undefined values blank and has no trailing spaces', () => {
    const text = renderTable(['verb', 'n', 'mIoU', 'tau'], [
      ['Mean (verbs)', 2, 0.52549, -0.5],
      ['chopping', 1, NaN, null],
    ], { integerColumns: [1], signedColumns: [3] });
    expect(text).toBe(
      'verb          n   mIoU     tau\n' +
        'Mean (verbs)  2  0.525  -0.500\n' +
        'chopping      1\n',
    );
  });

  it('never prints -0.000 or NaN', () => {
    expect(formatNumber(-1e-9, 3)).toBe('0.000');
    expect(formatNumber(NaN, 3)).toBe('');
    expect(formatNumber(0.25, 3, true)).toBe('+0.250');
  });
});
