/**
 * Parts of rows shared by several row types: layer sources, COCO RLE masks, boxes, ids of clips and
 * of log rows.
 */
import { reasonOf } from '../errors';
import { UUID_PATTERN } from '../ids';
import { rleArea } from '../rleArea';
import type { Clip, LayerSource, RevisionBox, Rle } from '../types';
import type { RecordCheck } from './check';

/** What a row is checked against: the clip it belongs to. */
export type ClipShape = Pick<Clip, 'id' | 'width' | 'height' | 'frameCount'>;

/**
 * How a row reaches its validator. `input`: a repository's or importer's argument, which the store
 * completes (areas, times, seq) and which may carry fields it does not keep. `stored`: a whole row as
 * the store keeps it (a bundle's), written as it is: every field is checked and no other is allowed.
 */
export type RowMode = 'input' | 'stored';

export function isLayerSource(value: string): value is LayerSource {
  return (
    value === 'gt' ||
    value === 'proposal' ||
    (value.startsWith('pred:') && value.length > 'pred:'.length) ||
    (value.startsWith('ann:') && value.length > 'ann:'.length)
  );
}

export function layerSource(c: RecordCheck, v: unknown, path: string): LayerSource {
  const s = c.string(v, path, 300);
  if (!isLayerSource(s)) c.fail(path, `is ${JSON.stringify(s)}: Unknown layer source (expected gt, proposal, pred:<name> or ann:<name>)`);
  return s as LayerSource;
}

/** The row's clipId, which must be the clip it is checked against. */
export function sameClip(c: RecordCheck, o: Record<string, unknown>, path: string, clip: Pick<Clip, 'id'>): string {
  const p = c.at(path, 'clipId');
  const id = c.string(c.required(o, 'clipId', path), p, 64);
  if (id !== clip.id) c.fail(p, `is ${JSON.stringify(id)}, not this clip (${JSON.stringify(clip.id)})`);
  return id;
}

/** A COCO compressed RLE's shape: {size: [height, width], counts: string}. */
export function rle(c: RecordCheck, v: unknown, path: string, strict: boolean): Rle {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, RLE_FIELDS, path);
  const sizePath = c.at(path, 'size');
  const size = c.array(c.required(o, 'size', path), sizePath, 2);
  if (size.length !== 2) c.fail(sizePath, 'must be [height, width]');
  const h = c.integer(size[0], `${sizePath}[0]`, 0, 8192);
  const w = c.integer(size[1], `${sizePath}[1]`, 0, 8192);
  return { size: [h, w], counts: c.string(c.required(o, 'counts', path), c.at(path, 'counts'), 64 * 2 ** 20) };
}
const RLE_FIELDS = new Set(['size', 'counts']);

/** Pixels of a mask that must be h x w (its RLE is decoded to count them). */
export function maskArea(c: RecordCheck, mask: Rle, path: string, h: number, w: number): number {
  if (mask.size[0] !== h || mask.size[1] !== w) c.fail(path, `is ${mask.size[1]}x${mask.size[0]} but must be ${w}x${h}`);
  try {
    return rleArea(mask);
  } catch (err) {
    return c.fail(path, `has unreadable RLE: ${reasonOf(err).replace(/\.$/, '')}`);
  }
}

/** An RLE mask of h x w, checked and counted. */
export function mask(c: RecordCheck, v: unknown, path: string, h: number, w: number, strict: boolean): { rle: Rle; area: number } {
  const m = rle(c, v, path, strict);
  return { rle: m, area: maskArea(c, m, path, h, w) };
}

/** A box of whole pixels (x, y >= 0; w, h >= 1). */
export function box(c: RecordCheck, v: unknown, path: string, strict: boolean): RevisionBox {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, BOX_FIELDS, path);
  return {
    x: c.integer(c.required(o, 'x', path), c.at(path, 'x'), 0),
    y: c.integer(c.required(o, 'y', path), c.at(path, 'y'), 0),
    w: c.integer(c.required(o, 'w', path), c.at(path, 'w'), 1),
    h: c.integer(c.required(o, 'h', path), c.at(path, 'h'), 1),
  };
}
const BOX_FIELDS = new Set(['x', 'y', 'w', 'h']);

/** A frame index of the clip. */
export function frameIndexOf(c: RecordCheck, v: unknown, path: string, clip: ClipShape): number {
  const i = c.integer(v, path, 0);
  if (i >= clip.frameCount) c.fail(path, `${i} is outside the clip, which has ${clip.frameCount} frames (indices 0-${clip.frameCount - 1})`);
  return i;
}

/** An optional string field, copied only when present. */
export function optionalString(c: RecordCheck, o: Record<string, unknown>, key: string, path: string, max: number): string | undefined {
  const v = c.optional(o, key);
  return v === undefined ? undefined : c.string(v, c.at(path, key), max);
}

/**
 * The `id` of a log row (revision, clip event, frame verdict; schema v8): a canonical lower-case
 * UUID, so one row never goes by two spellings (docs/sync.md "Row identity"). Required in a stored
 * row; an input may leave it out (the store then makes one: store/ids.ts withRowId).
 */
export function logRowId(c: RecordCheck, o: Record<string, unknown>, path: string, mode: RowMode): string | undefined {
  const raw = mode === 'stored' ? c.required(o, 'id', path) : c.optional(o, 'id');
  if (raw === undefined) return undefined;
  const id = c.string(raw, c.at(path, 'id'), 36);
  if (!UUID_PATTERN.test(id)) c.fail(c.at(path, 'id'), `is ${JSON.stringify(id)}, not a UUID in canonical form (lower-case 8-4-4-4-12 hex)`);
  return id;
}
