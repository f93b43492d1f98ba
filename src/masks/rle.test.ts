import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SIDE } from './labelMap';
import {
  MaskFormatError,
  canonicalCounts,
  decodeCounts,
  decodeRle,
  encodeCounts,
  encodeCountsWhere,
  encodeRle,
  onTableFor,
  parseCocoRle,
  rleCounts,
  rleFromCounts,
} from './rle';
import { rleArea, rleToBbox } from './rleOps';
import vectors from './testdata/cocoapi-vectors.json';
import { firstDifference, fromRows, maskArb, naiveBbox, naiveCounts, naiveDecode, sq } from './testdata/naive';

describe('reference vectors §2 (table)', () => {
  const table: { name: string; mask: Uint8Array; h: number; w: number; counts: number[]; s: string; area: number; bbox: number[] }[] = [
    { name: '2x3', ...fromRows(['011', '010']), counts: [2, 3, 1], s: '231', area: 3, bbox: [1, 0, 2, 2] },
    { name: '2x2', ...fromRows(['10', '00']), counts: [0, 1, 3], s: '013', area: 1, bbox: [0, 0, 1, 1] },
    { name: '4x4 empty', mask: new Uint8Array(16), h: 4, w: 4, counts: [16], s: '`0', area: 0, bbox: [0, 0, 0, 0] },
    { name: '3x3 full', mask: new Uint8Array(9).fill(1), h: 3, w: 3, counts: [0, 9], s: '09', area: 9, bbox: [0, 0, 3, 3] },
    { name: '5x5 sq(1..3,1..3)', mask: sq(5, 5, 1, 3, 1, 3), h: 5, w: 5, counts: [6, 3, 2, 3, 2, 3, 6], s: '6320004', area: 9, bbox: [1, 1, 3, 3] },
    { name: '5x5 sq(1..3,2..4)', mask: sq(5, 5, 1, 3, 2, 4), h: 5, w: 5, counts: [11, 3, 2, 3, 2, 3, 1], s: ';32000O', area: 9, bbox: [2, 1, 3, 3] },
    { name: '10x10 empty', mask: new Uint8Array(100), h: 10, w: 10, counts: [100], s: 'T3', area: 0, bbox: [0, 0, 0, 0] },
    { name: '1x200', mask: sq(1, 200, 0, 0, 100, 149), h: 1, w: 200, counts: [100, 50, 50], s: 'T3b1b1', area: 50, bbox: [100, 0, 50, 1] },
    // 2x19 given by its counts [5, 10, 20, 3]: column-major runs, built from them.
    { name: '2x19', mask: naiveDecode([5, 10, 20, 3], 2, 19), h: 2, w: 19, counts: [5, 10, 20, 3], s: '5:d0I', area: 13, bbox: [2, 0, 17, 2] },
  ];
  it.each(table)('$name', ({ mask, h, w, counts, s, area, bbox }) => {
    expect(Array.from(encodeCounts(mask, h, w))).toEqual(counts);
    const rle = encodeRle(mask, h, w);
    expect(rle).toEqual({ size: [h, w], counts: s });
    expect(rleArea(rle)).toBe(area);
    expect(rleToBbox(rle)).toEqual(bbox);
    expect(decodeRle(rle)).toEqual(mask);
    expect(parseCocoRle({ size: [h, w], counts: s })).toEqual(rle);
    expect(parseCocoRle({ size: [h, w], counts })).toEqual(rle);
  });
});

describe('cocoapi outputs (testdata/cocoapi-vectors.json)', () => {
  it.each(vectors.encode)('encode $h x $w $rows', ({ h, w, rows, counts, area, bbox }) => {
    const { mask } = fromRows(rows);
    const rle = encodeRle(mask, h, w);
    expect(rle.counts).toBe(counts);
    expect(rleArea(rle)).toBe(area);
    expect(rleToBbox(rle)).toEqual(bbox);
    expect(decodeRle(rle)).toEqual(mask);
  });
});

describe('encode / decode (properties)', () => {
  it('encodeCounts equals the naive transpose-and-run encoder', () => {
    fc.assert(
      fc.property(maskArb(), ({ mask, h, w }) => {
        expect(Array.from(encodeCounts(mask, h, w))).toEqual(naiveCounts(mask, h, w));
      }),
      { numRuns: 400 },
    );
  });

  it('decode(encode(m)) = m, through the string and through JSON', () => {
    fc.assert(
      fc.property(maskArb(), ({ mask, h, w }) => {
        expect(decodeCounts(encodeCounts(mask, h, w), h, w)).toEqual(mask);
        const rle = encodeRle(mask, h, w);
        const back = parseCocoRle(JSON.parse(JSON.stringify(rle)));
        expect(back).toEqual(rle);
        expect(decodeRle(back)).toEqual(mask);
      }),
      { numRuns: 400 },
    );
  });

  it('treats any nonzero byte as on, and decodes to 0/1', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2, 7, 255]), ({ mask, h, w }) => {
        const binary = mask.map((v) => (v ? 1 : 0));
        expect(decodeRle(encodeRle(mask, h, w))).toEqual(binary);
      }),
    );
  });

  it('encodeCountsWhere selects one label, from aligned and unaligned buffers alike', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2]), fc.integer({ min: 0, max: 3 }), ({ mask, h, w }, shift) => {
        const padded = new Uint8Array(mask.length + shift);
        padded.set(mask, shift);
        const view = padded.subarray(shift);
        const ones = mask.map((v) => (v === 2 ? 1 : 0));
        expect(Array.from(encodeCountsWhere(view, h, w, onTableFor(2)))).toEqual(naiveCounts(ones, h, w));
      }),
    );
  });

  it('decodeCounts writes the requested value', () => {
    expect(Array.from(decodeCounts([1, 2, 1], 2, 2, 7))).toEqual([0, 7, 7, 0]);
  });

  it('encode and decode a 1920x1080 mask in a few ms', () => {
    const h = 1080;
    const w = 1920;
    const mask = new Uint8Array(h * w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) if ((x - 900) ** 2 + (y - 500) ** 2 < 300 ** 2) mask[y * w + x] = 1;
    }
    let counts = encodeCounts(mask, h, w);
    decodeCounts(counts, h, w); // warm up the JIT
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) counts = encodeCounts(mask, h, w);
    const t1 = performance.now();
    let back = decodeCounts(counts, h, w);
    for (let i = 0; i < 9; i++) back = decodeCounts(counts, h, w);
    const t2 = performance.now();
    expect(firstDifference(back, mask)).toBe(-1); // toEqual on 2M elements takes seconds
    // Generous bounds so a busy CI machine does not flake; typical is ~1 ms each.
    expect((t1 - t0) / 10).toBeLessThan(25);
    expect((t2 - t1) / 10).toBeLessThan(25);
  });
});

describe('canonical form', () => {
  it('merges empty interior runs and keeps an empty first run', () => {
    expect(Array.from(canonicalCounts([3, 0, 2, 4]))).toEqual([5, 4]);
    expect(Array.from(canonicalCounts([0, 0, 5]))).toEqual([5]);
    expect(Array.from(canonicalCounts([0, 3, 2]))).toEqual([0, 3, 2]);
    expect(Array.from(canonicalCounts([2, 3, 0]))).toEqual([2, 3]);
    expect(Array.from(canonicalCounts([1, 0, 0, 2, 3]))).toEqual([1, 2, 3]);
  });

  it('non-canonical input parses to the same RLE as the canonical one', () => {
    fc.assert(
      fc.property(maskArb(), fc.array(fc.nat(10), { maxLength: 5 }), ({ mask, h, w }, inserts) => {
        const counts = naiveCounts(mask, h, w);
        // Split a run into (a, 0, b): same mask, different counts.
        for (const at of inserts.slice(0, h * w)) {
          const i = at % counts.length;
          const c = counts[i];
          counts.splice(i, 1, Math.floor(c / 2), 0, c - Math.floor(c / 2));
        }
        expect(rleFromCounts(counts, h, w)).toEqual(encodeRle(mask, h, w));
      }),
    );
  });
});

describe('parseCocoRle on hostile input', () => {
  const fails = (json: unknown, message: RegExp) => {
    expect(() => parseCocoRle(json)).toThrow(MaskFormatError);
    expect(() => parseCocoRle(json)).toThrow(message);
  };

  it('needs an object with size and counts', () => {
    fails(null, /must be an object/);
    fails('T3', /must be an object/);
    fails([10, 10], /must be an object/);
    fails({ counts: 'T3' }, /no size/);
    fails({ size: [10, 10] }, /no counts/);
    fails({ size: [10, 10], counts: 100 }, /string or an array/);
  });

  it('checks the size', () => {
    fails({ size: [10], counts: 'T3' }, /\[height, width\]/);
    fails({ size: '10x10', counts: 'T3' }, /\[height, width\]/);
    fails({ size: ['10', '10'], counts: 'T3' }, /two numbers/);
    fails({ size: [10.5, 10], counts: 'T3' }, /must be integers/);
    fails({ size: [-10, -10], counts: [100] }, /must be positive/);
    fails({ size: [0, 10], counts: [] }, /must be positive/);
    fails({ size: [MAX_SIDE + 1, 1], counts: [MAX_SIDE + 1] }, /exceeds the limit of 8192/);
    fails({ size: [NaN, 10], counts: 'T3' }, /must be integers/);
  });

  it('checks uncompressed counts', () => {
    fails({ size: [10, 10], counts: [50, 40] }, /cover 90 pixels but a 10x10 mask has 100/);
    fails({ size: [10, 10], counts: [50, 60] }, /cover more than the 100 pixels/);
    fails({ size: [10, 10], counts: [50, -10, 60] }, /run 1 is negative/);
    fails({ size: [10, 10], counts: [50, 'x', 50] }, /run 1 is not an integer/);
    fails({ size: [10, 10], counts: [50.5, 49.5] }, /not an integer/);
    fails({ size: [2, 2], counts: [...new Array<number>(30).fill(0), 4] }, /31 runs, far more than a 2x2 mask needs/);
  });

  it('checks compressed counts', () => {
    fails({ size: [10, 10], counts: 'T3b' }, /ends in the middle/);
    fails({ size: [10, 10], counts: 'T3 ' }, /invalid character/);
    fails({ size: [5, 5], counts: 'T3' }, /more than the 25 pixels/);
    fails({ size: [11, 10], counts: 'T3' }, /cover 100 pixels but the mask has 110/);
  });

  it('rejects a long hostile string quickly', () => {
    const t0 = performance.now();
    fails({ size: [10, 10], counts: '0'.repeat(10_000_000) }, /10000000 runs, far more than a mask of 100 pixels/);
    fails({ size: [8192, 8192], counts: 'o'.repeat(1_000_000) + '0' }, /more than 7 groups/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('MaskFormatError is an Error with a name and the bare problem', () => {
    try {
      parseCocoRle({ size: [10, 10] });
    } catch (err) {
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(MaskFormatError);
      expect((err as MaskFormatError).name).toBe('MaskFormatError');
      expect((err as MaskFormatError).problem).toBe('RLE has no counts');
    }
  });
});

describe('rleCounts', () => {
  it('gives the runs of an RLE', () => {
    const rle = encodeRle(sq(5, 5, 1, 3, 1, 3), 5, 5);
    expect(Array.from(rleCounts(rle))).toEqual([6, 3, 2, 3, 2, 3, 6]);
  });

  it('the bbox matches the naive one on random masks', () => {
    fc.assert(
      fc.property(maskArb(), ({ mask, h, w }) => {
        expect(rleToBbox(encodeRle(mask, h, w))).toEqual(naiveBbox(mask, h, w));
      }),
    );
  });
});
