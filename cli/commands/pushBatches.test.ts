import { expect, it } from 'vitest';
import type { PushChange } from '../../src/sync/protocol';
import { DataError } from '../io';
import { pushBatches } from './push';

const item = (i: number, pad = 0) => ({ change: { kind: 'revision', id: `r${i}`, row: { pad: 'x'.repeat(pad) } } as PushChange, label: `frame ${i}` });
const size = (c: ReturnType<typeof item>) => Buffer.byteLength(JSON.stringify(c.change)) + 1;

it('splits by count: every batch within the limit, in order, nothing lost', () => {
  const items = Array.from({ length: 1201 }, (_, i) => item(i));
  const batches = pushBatches(items, 500);
  expect(batches.map((b) => b.length)).toEqual([500, 500, 201]);
  expect(batches.flat()).toEqual(items);
});

it('splits by bytes: no body over the limit, however the sizes fall', () => {
  const items = Array.from({ length: 40 }, (_, i) => item(i, (i * 37) % 300));
  const limit = 1024 + 900;
  const batches = pushBatches(items, 500, limit);
  expect(batches.length).toBeGreaterThan(5);
  for (const b of batches) expect(1024 + b.reduce((n, c) => n + size(c), 0)).toBeLessThanOrEqual(limit);
  expect(batches.flat()).toEqual(items);
});

it('a single change larger than any body is a data error naming the frame', () => {
  expect(() => pushBatches([item(1), item(2, 5000)], 500, 4096)).toThrow(DataError);
  expect(() => pushBatches([item(1), item(2, 5000)], 500, 4096)).toThrow(/frame 2: its revision is \d+ bytes/);
});
