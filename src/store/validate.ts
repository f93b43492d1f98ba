import { StoreError, reasonOf } from './errors';
import { rleArea } from './rleArea';
import type { Clip, Layer, LayerInput, LayerSource, ProvenanceKind, RevisionInput, Rle } from './types';

const PROVENANCE_KINDS: readonly ProvenanceKind[] = ['manual', 'imported', 'proposal', 'propagated', 'interpolated', 'demo'];

/*
 * Checks shared by the repositories and the import: everything that would make a stored row lie
 * (an area that disagrees with its RLE, a mask of the wrong size, a frame outside the clip) is
 * refused here with a message a person can act on.
 */

export function isLayerSource(value: string): value is LayerSource {
  return (
    value === 'gt' ||
    value === 'proposal' ||
    (value.startsWith('pred:') && value.length > 'pred:'.length) ||
    (value.startsWith('ann:') && value.length > 'ann:'.length)
  );
}

/**
 * Validates a layer against its clip and computes the denormalised areas, so stored areas always
 * agree with the stored RLE. Throws StoreError('invalid').
 */
export function buildLayer(input: LayerInput, clip: Pick<Clip, 'width' | 'height' | 'frameCount'>, now: number): Layer {
  const where = `${input.source} layer at frame index ${input.frameIndex}`;
  if (!isLayerSource(input.source)) {
    throw new StoreError('invalid', `Unknown layer source "${input.source}" (expected gt, proposal, pred:<name> or ann:<name>).`);
  }
  if (!Number.isInteger(input.frameIndex) || input.frameIndex < 0 || input.frameIndex >= clip.frameCount) {
    throw new StoreError(
      'invalid',
      `The ${where} is outside the clip, which has ${clip.frameCount} frames (indices 0-${clip.frameCount - 1}).`,
    );
  }
  const p = input.provenance;
  if (!p || !PROVENANCE_KINDS.includes(p.kind) || !p.by?.trim() || !Number.isFinite(p.at)) {
    throw new StoreError('invalid', `The ${where} needs a provenance: kind, by (who or what made it) and at (time).`);
  }
  if (p.confidence !== undefined && !(p.confidence >= 0 && p.confidence <= 1)) {
    throw new StoreError('invalid', `The ${where} has confidence ${p.confidence}; it must be between 0 and 1.`);
  }
  return {
    ...input,
    actArea: maskArea(input.act, clip.height, clip.width, `${where} (actionable)`),
    trfArea: maskArea(input.trf, clip.height, clip.width, `${where} (transformed)`),
    updatedAt: now,
  };
}

/** Area of an RLE that must have size [h, w]; throws StoreError('invalid') naming `what`. */
export function maskArea(rle: Rle, h: number, w: number, what: string): number {
  if (!rle || !Array.isArray(rle.size) || typeof rle.counts !== 'string') {
    throw new StoreError('invalid', `The ${what} is not a COCO RLE ({size, counts: string}).`);
  }
  if (rle.size[0] !== h || rle.size[1] !== w) {
    throw new StoreError('invalid', `The ${what} is ${rle.size[1]}x${rle.size[0]} but must be ${w}x${h}.`);
  }
  try {
    return rleArea(rle);
  } catch (err) {
    throw new StoreError('invalid', `The ${what} has unreadable RLE: ${reasonOf(err)}.`, { cause: err });
  }
}

/** Validates a revision against its clip: known source, frame in range, box inside the frame, box-sized RLEs. */
export function checkRevision(rev: RevisionInput, clip: Pick<Clip, 'width' | 'height' | 'frameCount'>): void {
  if (!isLayerSource(rev.source)) throw new StoreError('invalid', `Unknown layer source "${rev.source}".`);
  if (!Number.isInteger(rev.frameIndex) || rev.frameIndex < 0 || rev.frameIndex >= clip.frameCount) {
    throw new StoreError('invalid', `Revision at frame index ${rev.frameIndex} is outside the clip (${clip.frameCount} frames).`);
  }
  if (!rev.author?.trim()) throw new StoreError('invalid', 'A revision needs an author.');
  if (!rev.action?.trim()) throw new StoreError('invalid', 'A revision needs the name of the action that made it.');
  if (!Number.isFinite(rev.at)) throw new StoreError('invalid', 'A revision needs a time.');
  const { x, y, w, h } = rev.box;
  const ints = [x, y, w, h].every(Number.isInteger);
  if (!ints || w <= 0 || h <= 0 || x < 0 || y < 0 || x + w > clip.width || y + h > clip.height) {
    throw new StoreError(
      'invalid',
      `Revision box ${w}x${h} at (${x}, ${y}) is not inside the ${clip.width}x${clip.height} frame.`,
    );
  }
  maskArea(rev.before, h, w, 'revision "before" patch');
  maskArea(rev.after, h, w, 'revision "after" patch');
  if (rev.beforeTrf) maskArea(rev.beforeTrf, h, w, 'revision "beforeTrf" patch');
  if (rev.afterTrf) maskArea(rev.afterTrf, h, w, 'revision "afterTrf" patch');
}

const SOURCE_VIDEO_FIELDS = ['sha256', 'size', 'type', 'fileName', 'nativeFps', 'durationSec', 'startSec'] as const;

/**
 * What is wrong with a clip's source video reference (types.ts SourceVideoRef), or null when it is
 * sound. Shared by the import (importCommit.ts) and bundles (io/bundle/rows.ts): a reference that
 * lied (a hash of the wrong shape, a negative size) would send the editor looking for a file that
 * can never match.
 */
export function sourceVideoProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'is not an object';
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(SOURCE_VIDEO_FIELDS as readonly string[]).includes(k));
  if (extra.length > 0) return `has unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
  if (typeof o.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(o.sha256)) return 'sha256 must be 64 lower-case hex digits';
  if (!Number.isSafeInteger(o.size) || (o.size as number) <= 0) return 'size must be a positive whole number of bytes';
  if (typeof o.type !== 'string' || o.type.length > 200) return 'type must be a MIME type string';
  if (typeof o.fileName !== 'string' || o.fileName.length > 4096) return 'fileName must be a string';
  if (o.nativeFps !== null && !(typeof o.nativeFps === 'number' && o.nativeFps > 0 && o.nativeFps <= 1000)) return 'nativeFps must be a positive rate or null';
  if (!(typeof o.durationSec === 'number' && Number.isFinite(o.durationSec) && o.durationSec > 0)) return 'durationSec must be positive';
  if (!(typeof o.startSec === 'number' && Number.isFinite(o.startSec))) return 'startSec must be a number';
  return null;
}
