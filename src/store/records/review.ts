/**
 * The review rows of a clip: flag dismissals, frame verdicts, lifecycle events and comments
 * (types.ts). Repositories hand in `input` rows they completed (trimmed text, their time, their
 * clip), bundles `stored` rows as read. Where the two readers have always phrased a problem
 * differently (the editor's "Frame index 4 is outside the clip (4 frames)" against a bundle's
 * JSON-path message), `mode` picks the phrase; the rule itself is one.
 */
import { CLIP_STATUSES, FRAME_VERDICTS, type ClipComment, type ClipEvent, type ClipEventInput, type FlagDismissal, type FrameVerdict, type FrameVerdictInput } from '../types';
import type { RecordCheck } from './check';
import { box, layerSource, logRowId, optionalString, sameClip, type ClipShape, type RowMode } from './masks';

/** Longest note a verdict may carry. */
export const MAX_VERDICT_NOTE = 2000;
/** Longest comment (the text as the store keeps it, trimmed). */
export const MAX_COMMENT_TEXT = 4000;
/** Longest reason for dismissing a flag. */
export const MAX_FLAG_REASON = 2000;
const MAX_NOTE = 100_000;

const FLAG_FIELDS = new Set(['clipId', 'source', 'flagId', 'kind', 'frameIndex', 'box', 'reason', 'by', 'at']);
const VERDICT_FIELDS = new Set(['id', 'clipId', 'frameIndex', 'verdict', 'note', 'by', 'at']);
const EVENT_FIELDS = new Set(['id', 'clipId', 'action', 'from', 'to', 'by', 'at', 'note']);
const COMMENT_FIELDS = new Set(['id', 'clipId', 'frameIndex', 'x', 'y', 'author', 'at', 'text', 'parentId', 'resolved']);

/** A frame index of the clip, phrased as the reader of `mode` expects. */
function frameOf(c: RecordCheck, o: Record<string, unknown>, path: string, clip: ClipShape, mode: RowMode, what: string): number {
  const p = c.at(path, 'frameIndex');
  const raw = c.required(o, 'frameIndex', path);
  if (mode === 'input') {
    if (!Number.isInteger(raw) || (raw as number) < 0 || (raw as number) >= clip.frameCount) {
      c.fail(path, `${what} ${String(raw)} is outside the clip (${clip.frameCount} frames)`);
    }
    return raw as number;
  }
  const i = c.integer(raw, p, 0);
  if (i >= clip.frameCount) c.fail(p, `is ${i}, outside the clip's ${clip.frameCount} frames`);
  return i;
}

/** A person's name or a reason: required, not blank. */
function said(c: RecordCheck, o: Record<string, unknown>, key: string, path: string, max: number, why: string): string {
  const v = o[key];
  if (typeof v === 'string' && v.trim() === '') c.fail(c.at(path, key), `must not be empty: ${why}`);
  if (v === undefined) c.fail(c.at(path, key), `is missing: ${why}`);
  return c.string(v, c.at(path, key), max);
}

/** A reviewer dismissed an automatic review flag of the clip. */
export function checkFlagDismissal(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: RowMode): FlagDismissal {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, FLAG_FIELDS, path);
  const clipId = sameClip(c, o, path, clip);
  const source = layerSource(c, c.required(o, 'source', path), c.at(path, 'source'));
  const flag: FlagDismissal = {
    clipId,
    source,
    flagId: c.nonEmptyString(c.required(o, 'flagId', path), c.at(path, 'flagId'), 1000),
    kind: c.nonEmptyString(c.required(o, 'kind', path), c.at(path, 'kind'), 200),
    frameIndex: frameOf(c, o, path, clip, mode, 'Flag at frame index'),
    reason: said(c, o, 'reason', path, MAX_FLAG_REASON, 'say why the flag is dismissed (the reason is empty)'),
    by: said(c, o, 'by', path, 1000, 'a flag dismissal needs who dismissed it'),
    at: c.number(c.required(o, 'at', path), c.at(path, 'at')),
  };
  const raw = c.optional(o, 'box');
  if (raw !== undefined) {
    const b = box(c, raw, c.at(path, 'box'), mode === 'stored');
    if (b.x + b.w > clip.width || b.y + b.h > clip.height) {
      c.fail(c.at(path, 'box'), `${b.w}x${b.h} at (${b.x}, ${b.y}) is not inside the ${clip.width}x${clip.height} frame`);
    }
    flag.box = b;
  }
  return flag;
}

/** A reviewer's verdict on one frame, without its store-local `seq`; an input's `id` may be left for the store to make. */
export function checkFrameVerdict(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: 'input'): Omit<FrameVerdictInput, 'seq'>;
export function checkFrameVerdict(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: 'stored'): Omit<FrameVerdict, 'seq'>;
export function checkFrameVerdict(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: RowMode): Omit<FrameVerdictInput, 'seq'> {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, VERDICT_FIELDS, path);
  const id = logRowId(c, o, path, mode);
  const clipId = sameClip(c, o, path, clip);
  const frameIndex = mode === 'input' ? frameOf(c, o, path, clip, mode, 'Frame index') : c.integer(c.required(o, 'frameIndex', path), c.at(path, 'frameIndex'), 0, clip.frameCount - 1);
  const verdict = c.required(o, 'verdict', path);
  if (mode === 'input' && !(FRAME_VERDICTS as readonly unknown[]).includes(verdict)) c.fail(path, `Unknown frame verdict "${String(verdict)}"`);
  const row: Omit<FrameVerdictInput, 'seq'> = {
    ...(id === undefined ? {} : { id }),
    clipId,
    frameIndex,
    verdict: c.oneOf(verdict, c.at(path, 'verdict'), FRAME_VERDICTS),
    by: said(c, o, 'by', path, 1000, 'a frame verdict needs who gave it'),
    at: c.number(c.required(o, 'at', path), c.at(path, 'at')),
  };
  const note = c.optional(o, 'note');
  if (note !== undefined) {
    const text = c.string(note, c.at(path, 'note'), Infinity);
    if (text.length > MAX_VERDICT_NOTE) c.fail(c.at(path, 'note'), `is ${text.length} characters long (at most ${MAX_VERDICT_NOTE})`);
    row.note = text;
  }
  return row;
}

/** One step of the clip's review lifecycle, without its store-local `seq`; an input's `id` may be left for the store to make. */
export function checkClipEvent(c: RecordCheck, v: unknown, path: string, clip: Pick<ClipShape, 'id'>, mode: 'input'): Omit<ClipEventInput, 'seq'>;
export function checkClipEvent(c: RecordCheck, v: unknown, path: string, clip: Pick<ClipShape, 'id'>, mode: 'stored'): Omit<ClipEvent, 'seq'>;
export function checkClipEvent(c: RecordCheck, v: unknown, path: string, clip: Pick<ClipShape, 'id'>, mode: RowMode): Omit<ClipEventInput, 'seq'> {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, EVENT_FIELDS, path);
  const id = logRowId(c, o, path, mode);
  const event: Omit<ClipEventInput, 'seq'> = {
    ...(id === undefined ? {} : { id }),
    clipId: sameClip(c, o, path, clip),
    action: c.nonEmptyString(c.required(o, 'action', path), c.at(path, 'action'), 200),
    from: c.oneOf(c.required(o, 'from', path), c.at(path, 'from'), CLIP_STATUSES),
    to: c.oneOf(c.required(o, 'to', path), c.at(path, 'to'), CLIP_STATUSES),
    by: said(c, o, 'by', path, 1000, 'a review step needs who took it'),
    at: c.number(c.required(o, 'at', path), c.at(path, 'at')),
  };
  const note = optionalString(c, o, 'note', path, MAX_NOTE);
  if (note !== undefined) event.note = note;
  return event;
}

/**
 * A comment pinned to a point of a frame. The store rounds points to pixels, so a point may sit on
 * the far edge (x = width). Threads (a reply's parent) are checked by whoever holds them all.
 */
export function checkComment(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: RowMode): ClipComment {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, COMMENT_FIELDS, path);
  const clipId = sameClip(c, o, path, clip);
  const frameIndex = frameOf(c, o, path, clip, mode, 'Frame index');
  const x = c.integer(c.required(o, 'x', path), c.at(path, 'x'), 0, clip.width);
  const y = c.integer(c.required(o, 'y', path), c.at(path, 'y'), 0, clip.height);
  const text = c.nonEmptyString(c.required(o, 'text', path), c.at(path, 'text'), Infinity);
  if (text.length > MAX_COMMENT_TEXT) c.fail(c.at(path, 'text'), `is ${text.length} characters long (at most ${MAX_COMMENT_TEXT})`);
  const comment: ClipComment = {
    id: c.nonEmptyString(c.required(o, 'id', path), c.at(path, 'id'), 64),
    clipId,
    frameIndex,
    x,
    y,
    author: said(c, o, 'author', path, 1000, 'a comment needs its author'),
    at: c.number(c.required(o, 'at', path), c.at(path, 'at')),
    text,
    resolved: c.boolean(c.required(o, 'resolved', path), c.at(path, 'resolved')),
  };
  const parentId = c.optional(o, 'parentId');
  if (parentId !== undefined) comment.parentId = c.nonEmptyString(parentId, c.at(path, 'parentId'), 64);
  return comment;
}
