/**
 * Is a pushed row well formed? The browser's own row validators decide (src/store/records/, in
 * `stored` mode: every field checked, no other allowed), so the server never keeps a second copy of
 * the rules; this file only adds what exists on the wire alone (the frame's image reference, the
 * composed row ids of docs/sync.md) and what PostgreSQL's jsonb cannot hold. Pure.
 */
import { BLOB_ID_PATTERN, flagDismissalRowId, frameRowId, type FrameImageRef, type SyncKind } from '../../src/sync/protocol';
import { StoreError } from '../../src/store/errors';
import {
  RecordCheck,
  checkClip,
  checkClipEvent,
  checkComment,
  checkFlagDismissal,
  checkFrame,
  checkFrameVerdict,
  checkProject,
  checkRevision,
  hasOwn,
  type ClipShape,
  type JsonObject,
} from '../../src/store/records';

/** A change that is not stored, with its push outcome's code. */
export class RowRefused extends Error {
  constructor(
    readonly code: 400 | 403 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'RowRefused';
  }
}

export function invalid(message: string): never {
  throw new RowRefused(400, message);
}

/** Runs a store validator, turning its StoreError into a 400 refusal with the same message. */
function validated<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof StoreError) throw new RowRefused(400, err.message);
    throw err;
  }
}

// jsonb refuses "\u0000" and unpaired surrogates: a row holding one would abort the whole push, so it is refused alone first.
// eslint-disable-next-line no-control-regex -- the point is to find NUL
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function storable(v: unknown, depth = 0): void {
  if (depth > 32) invalid('the row is nested too deeply');
  if (typeof v === 'string') {
    if (UNSTORABLE.test(v)) invalid('the row holds a NUL character or an unpaired surrogate, which cannot be stored');
  } else if (Array.isArray(v)) {
    for (const x of v) storable(x, depth + 1);
  } else if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) {
      storable(k, depth + 1);
      storable((v as JsonObject)[k], depth + 1);
    }
  }
}

/** The clip a row belongs to (every kind but `project` and `clip` itself), before the clip is looked up. */
export function clipIdOf(kind: SyncKind, row: JsonObject): string | null {
  if (kind === 'project') return null;
  const raw = kind === 'clip' ? row.id : row.clipId;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 64) return invalid(`the row's ${kind === 'clip' ? 'id' : 'clipId'} must be a clip id`);
  return raw;
}

const sameId = (id: string, expected: string) => {
  if (id !== expected) invalid(`the change's id "${id}" does not name its row (expected "${expected}")`);
};

function checkImage(c: RecordCheck, v: unknown): FrameImageRef {
  const o = c.object(v, 'image');
  c.strictFields(o, new Set(['sha256', 'mime', 'width', 'height', 'size']), 'image');
  const sha256 = c.string(c.required(o, 'sha256', 'image'), 'image.sha256', 64);
  if (!BLOB_ID_PATTERN.test(sha256)) c.fail('image.sha256', 'must be 64 lower-case hex digits');
  return {
    sha256,
    mime: c.nonEmptyString(c.required(o, 'mime', 'image'), 'image.mime', 200),
    width: c.integer(c.required(o, 'width', 'image'), 'image.width', 1, 65_535),
    height: c.integer(c.required(o, 'height', 'image'), 'image.height', 1, 65_535),
    size: c.integer(c.required(o, 'size', 'image'), 'image.size', 0),
  };
}

/**
 * The row as the server stores it (the validator's own copy: no field it does not know), or a 400.
 * `clip` is the server's row of the clip this row belongs to (null for `project` and `clip`).
 */
export function checkRow(kind: SyncKind, id: string, row: JsonObject, projectId: string, clip: ClipShape | null): JsonObject {
  storable(row);
  const c = new RecordCheck(kind);
  // Through JSON once, as jsonb will hold it (no undefined-valued keys), so stored and pushed rows compare equal.
  return JSON.parse(JSON.stringify(validated(() => checkedRow(c, kind, id, row, projectId, clip)))) as JsonObject;
}

function checkedRow(c: RecordCheck, kind: SyncKind, id: string, row: JsonObject, projectId: string, clip: ClipShape | null): JsonObject {
  {
    switch (kind) {
      case 'project': {
        const p = checkProject(c, row, '', 'stored');
        if (p.id !== projectId) invalid(`a project row must be this project's (${projectId}), not "${p.id}"`);
        sameId(id, p.id);
        return { ...p };
      }
      case 'clip': {
        // The trash mark travels on the wire (docs/sync.md "Deletions"); the import marker never does.
        const { deletedAt, ...rest } = row;
        const k = checkClip(c, rest, '', 'stored');
        if (k.projectId !== projectId) invalid(`the clip's projectId must be this project's (${projectId})`);
        sameId(id, k.id);
        return deletedAt === undefined ? { ...k } : { ...k, deletedAt: c.integer(deletedAt, 'deletedAt', 0) };
      }
      case 'frame': {
        const { image, ...rest } = row;
        const f = checkFrame(c, rest, '', clip!.id, 'stored');
        if (f.index >= clip!.frameCount) invalid(`frame index ${f.index} is outside the clip, which has ${clip!.frameCount} frames`);
        sameId(id, frameRowId(f.clipId, f.index));
        return { ...f, image: checkImage(c, image) };
      }
      case 'revision': {
        // The wire row is the store row minus its local seq; the validator wants one, so it gets a stand-in.
        if (hasOwn(row, 'seq')) invalid('a pushed revision carries no seq (it is local to each browser)');
        const { seq: _seq, ...r } = checkRevision(c, { ...row, seq: 1 }, '', clip!, 'stored');
        sameId(id, r.id);
        return { ...r };
      }
      case 'clipEvent': {
        const e = checkClipEvent(c, row, '', clip!, 'stored');
        sameId(id, e.id);
        return { ...e };
      }
      case 'frameVerdict': {
        const v = checkFrameVerdict(c, row, '', clip!, 'stored');
        sameId(id, v.id);
        return { ...v };
      }
      case 'comment': {
        const m = checkComment(c, row, '', clip!, 'stored');
        sameId(id, m.id);
        return { ...m };
      }
      case 'flagDismissal': {
        const d = checkFlagDismissal(c, row, '', clip!, 'stored');
        sameId(id, flagDismissalRowId(d.clipId, d.source, d.flagId));
        return { ...d };
      }
      case 'concurrentEdit':
        throw new RowRefused(403, 'concurrentEdit rows are written by the server only');
    }
  }
}

/** Two JSON values with the same content, whatever the order of object keys (jsonb reorders them). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}
