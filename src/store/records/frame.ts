/**
 * A frame row (types.ts Frame): its time, its file stem, and what a person said about it (phase,
 * ignored with a reason, reviewed). Rules over a clip's frames together (times increasing, names
 * unique ignoring case) belong to whoever holds the whole list: the import commit and the bundle reader.
 */
import { IGNORE_REASONS, type Frame, type FrameIgnored, type FramePhase } from '../types';
import type { RecordCheck } from './check';
import { optionalString, type RowMode } from './masks';

export const PHASES: readonly FramePhase[] = ['initial', 'transitioning', 'end'];
const FRAME_FIELDS = new Set(['clipId', 'index', 'timestampSec', 'name', 'phase', 'ignored', 'reviewed']);
const IGNORED_FIELDS = new Set(['reason', 'note', 'by', 'at']);

/** The store's names for a frame's fields, after "frame 3" (RecordCheck words). */
export const FRAME_WORDS = { name: '', ignored: '', timestampSec: 'time' };

export function checkFrame(c: RecordCheck, v: unknown, path: string, clipId: string, mode: RowMode): Frame {
  const stored = mode === 'stored';
  const o = c.object(v, path);
  if (stored) c.strictFields(o, FRAME_FIELDS, path);
  const cid = c.string(c.required(o, 'clipId', path), c.at(path, 'clipId'), 64);
  if (cid !== clipId) c.fail(c.at(path, 'clipId'), `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clipId)})`);
  const frame: Frame = {
    clipId,
    index: c.integer(c.required(o, 'index', path), c.at(path, 'index'), 0),
    timestampSec: c.number(c.required(o, 'timestampSec', path), c.at(path, 'timestampSec'), 0),
  };
  const name = c.optional(o, 'name');
  if (name !== undefined) {
    if (typeof name !== 'string' || !name.trim() || name !== name.trim() || name.length > 200) {
      c.fail(c.at(path, 'name'), `has the name ${JSON.stringify(name)}; a frame name is 1-200 characters without surrounding spaces`);
    }
    frame.name = name as string;
  }
  const phase = c.optional(o, 'phase');
  if (phase !== undefined) frame.phase = c.oneOf(phase, c.at(path, 'phase'), PHASES);
  const ignored = c.optional(o, 'ignored');
  if (ignored !== undefined) frame.ignored = checkIgnored(c, ignored, c.at(path, 'ignored'), stored);
  const reviewed = c.optional(o, 'reviewed');
  if (reviewed !== undefined) frame.reviewed = c.boolean(reviewed, c.at(path, 'reviewed'));
  return frame;
}

/** Why a frame is ignored; problems are reported at `ignored` ("frame 1 is ignored with ..."). */
export function checkIgnored(c: RecordCheck, v: unknown, path: string, strict: boolean): FrameIgnored {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, IGNORED_FIELDS, path);
  const reason = o.reason;
  if (typeof reason !== 'string' || !(IGNORE_REASONS as readonly string[]).includes(reason)) {
    c.fail(path, `is ignored with an unknown reason ${JSON.stringify(reason)} (expected one of ${IGNORE_REASONS.join(', ')})`);
  }
  const at = o.at;
  if (typeof at !== 'number' || !Number.isFinite(at)) c.fail(path, 'is ignored without a valid time (at)');
  const out: FrameIgnored = { reason: reason as FrameIgnored['reason'], at: at as number };
  const note = optionalString(c, o, 'note', path, 100_000);
  if (note !== undefined) out.note = note;
  const by = optionalString(c, o, 'by', path, 200);
  if (by !== undefined) out.by = by;
  return out;
}
