/**
 * A clip row (types.ts Clip) and its source video reference. The import commit checks the row it
 * builds from a draft; a bundle's clip.json row is checked as stored (every field, no other).
 */
import { assertSize } from '../../masks/labelMap';
import { StoreError, reasonOf } from '../errors';
import { CLIP_STATUSES, type Clip, type ClipSourceKind, type SourceVideoRef } from '../types';
import { RecordCheck } from './check';
import { optionalString, type RowMode } from './masks';

export const SOURCE_KINDS: readonly ClipSourceKind[] = ['video', 'images', 'zip', 'wtc', 'demo', 'bundle'];
export const SUBSETS = ['seen', 'novel'] as const;

/** What a bundle's clip row may hold: the import marker and the trash mark stay local. */
const CLIP_FIELDS = new Set(['id', 'projectId', 'name', 'createdAt', 'updatedAt', 'width', 'height', 'frameCount', 'sampleFps', 'source', 'osc', 'subset', 'status', 'assignee']);
const SOURCE_FIELDS = new Set(['kind', 'fileName', 'durationSec', 'videoCodec', 'video']);
const OSC_FIELDS = new Set(['verb', 'noun', 'actionable', 'transformed']);

export function checkClip(c: RecordCheck, v: unknown, path: string, mode: RowMode): Clip {
  const stored = mode === 'stored';
  const o = c.object(v, path);
  if (stored) c.strictFields(o, CLIP_FIELDS, path);
  const width = c.number(c.required(o, 'width', path), c.at(path, 'width'));
  const height = c.number(c.required(o, 'height', path), c.at(path, 'height'));
  try {
    assertSize(width, height);
  } catch (err) {
    c.fail(path, reasonOf(err));
  }
  const sampleFps = c.number(c.required(o, 'sampleFps', path), c.at(path, 'sampleFps'), 0, 1000);
  if (!(sampleFps > 0)) c.fail(c.at(path, 'sampleFps'), 'must be positive');
  const clip: Clip = {
    id: c.string(c.required(o, 'id', path), c.at(path, 'id'), 64),
    projectId: c.string(c.required(o, 'projectId', path), c.at(path, 'projectId'), 64),
    name: c.nonEmptyString(c.required(o, 'name', path), c.at(path, 'name'), 1000),
    createdAt: c.number(c.required(o, 'createdAt', path), c.at(path, 'createdAt')),
    updatedAt: c.number(c.required(o, 'updatedAt', path), c.at(path, 'updatedAt')),
    width,
    height,
    frameCount: c.integer(c.required(o, 'frameCount', path), c.at(path, 'frameCount'), 1, 1_000_000),
    sampleFps,
    source: checkSource(c, c.required(o, 'source', path), c.at(path, 'source'), stored),
    osc: checkOsc(c, c.required(o, 'osc', path), c.at(path, 'osc'), stored),
    subset: c.oneOf(c.required(o, 'subset', path), c.at(path, 'subset'), SUBSETS),
    status: c.oneOf(c.required(o, 'status', path), c.at(path, 'status'), CLIP_STATUSES),
  };
  const assignee = optionalString(c, o, 'assignee', path, 200);
  if (assignee !== undefined) clip.assignee = assignee;
  if (!stored) {
    // Marks the store itself sets on its rows; an input passing through (a draft) keeps them.
    if (o.importing !== undefined) clip.importing = o.importing as Clip['importing'];
    if (o.deletedAt !== undefined) clip.deletedAt = c.number(o.deletedAt, c.at(path, 'deletedAt'));
  }
  return clip;
}

function checkSource(c: RecordCheck, v: unknown, path: string, strict: boolean): Clip['source'] {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, SOURCE_FIELDS, path);
  const source: Clip['source'] = {
    kind: c.oneOf(c.required(o, 'kind', path), c.at(path, 'kind'), SOURCE_KINDS),
    fileName: c.string(c.required(o, 'fileName', path), c.at(path, 'fileName'), 4096),
  };
  const duration = c.optional(o, 'durationSec');
  if (duration !== undefined) source.durationSec = c.number(duration, c.at(path, 'durationSec'), 0);
  const codec = optionalString(c, o, 'videoCodec', path, 200);
  if (codec !== undefined) source.videoCodec = codec;
  // The reference travels with the clip; the video itself does not (the editor offers to link it).
  const video = c.optional(o, 'video');
  if (video !== undefined) source.video = checkSourceVideo(c, video, c.at(path, 'video'));
  return source;
}

function checkOsc(c: RecordCheck, v: unknown, path: string, strict: boolean): Clip['osc'] {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, OSC_FIELDS, path);
  return {
    verb: c.string(c.required(o, 'verb', path), c.at(path, 'verb'), 200),
    noun: c.string(c.required(o, 'noun', path), c.at(path, 'noun'), 200),
    actionable: c.string(c.required(o, 'actionable', path), c.at(path, 'actionable'), 2000),
    transformed: c.string(c.required(o, 'transformed', path), c.at(path, 'transformed'), 2000),
  };
}

const SOURCE_VIDEO_FIELDS = ['sha256', 'size', 'type', 'fileName', 'nativeFps', 'durationSec', 'startSec'] as const;

/**
 * A clip's source video reference (types.ts SourceVideoRef). A reference that lied (a hash of the
 * wrong shape, a negative size) would send the editor looking for a file that can never match.
 * Problems are reported at the reference itself ("source.video sha256 must be ...").
 */
export function checkSourceVideo(c: RecordCheck, v: unknown, path: string): SourceVideoRef {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) c.fail(path, 'is not an object');
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !(SOURCE_VIDEO_FIELDS as readonly string[]).includes(k));
  if (extra.length > 0) c.fail(path, `has unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  if (typeof o.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(o.sha256)) c.fail(path, 'sha256 must be 64 lower-case hex digits');
  if (!Number.isSafeInteger(o.size) || (o.size as number) <= 0) c.fail(path, 'size must be a positive whole number of bytes');
  if (typeof o.type !== 'string' || o.type.length > 200) c.fail(path, 'type must be a MIME type string');
  if (typeof o.fileName !== 'string' || o.fileName.length > 4096) c.fail(path, 'fileName must be a string');
  if (o.nativeFps !== null && !(typeof o.nativeFps === 'number' && o.nativeFps > 0 && o.nativeFps <= 1000)) c.fail(path, 'nativeFps must be a positive rate or null');
  if (!(typeof o.durationSec === 'number' && Number.isFinite(o.durationSec) && o.durationSec > 0)) c.fail(path, 'durationSec must be positive');
  if (!(typeof o.startSec === 'number' && Number.isFinite(o.startSec))) c.fail(path, 'startSec must be a number');
  return { ...(o as unknown as SourceVideoRef) };
}

/** What is wrong with a source video reference, or null when it is sound (for callers that only ask). */
export function sourceVideoProblem(v: unknown): string | null {
  try {
    checkSourceVideo(new ProblemOnly(), v, '');
    return null;
  } catch (err) {
    if (err instanceof StoreError) return err.message;
    throw err;
  }
}

/** A check whose message is the bare problem. */
class ProblemOnly extends RecordCheck {
  constructor() {
    super('');
  }
  override fail(_path: string, problem: string): never {
    throw new StoreError('invalid', problem);
  }
}
