/**
 * Judges one pushed change inside the push's transaction (push.ts holds the project's lock): is the
 * row well formed (checkRow.ts: the browser's validators), may this member push it now
 * (auth/syncPermissions.ts, src/review/lifecycle.ts `transition`, src/review/reviewGate.ts
 * `approvalRefusal`), and what does the server store (its own fields filled in). Either writes the
 * row under a new cursor, answers "already there", or throws RowRefused before writing anything.
 * docs/sync.md "The protocol" is the rule book.
 */
import { CLIP_ACTIONS, transition, type ClipAction } from '../../src/review/lifecycle';
import { approvalRefusal, checkApproval, type ApprovalFacts } from '../../src/review/reviewGate';
import { latestVerdicts } from '../../src/store/frameVerdicts';
import type { JsonObject } from '../../src/store/records';
import type { Clip, ClipComment, ClipEvent, Frame, FrameVerdict, Revision } from '../../src/store/types';
import { CURSOR_START, LOG_KINDS, concurrentEditRowId, type FrameImageRef, type PushChange, type PushOutcome, type SyncKind } from '../../src/sync/protocol';
import type { Queryable } from '../db/db';
import {
  mayAssign,
  mayCreateClip,
  mayEditClipMetadata,
  mayEditProject,
  mayGiveVerdict,
  mayMarkFrame,
  mayPaint,
  mayStartWorkByEditing,
  mayTakeStep,
  mayTrashClip,
  type Pusher,
  type Refusal,
} from '../auth/syncPermissions';
import { checkProjectName } from '../auth/validation';
import { projectHasBlob } from './blobRefs';
import { RowRefused, checkRow, clipIdOf, invalid, sameJson } from './checkRow';
import type { BatchRows } from './batchRows';
import { clipRows, gtPainters, revisionsAfter, type StoredRow } from './syncStore';

export interface PushScope {
  tx: Queryable;
  projectId: string;
  clientId: string;
  userId: string;
  pusher: Pusher;
  /** The batch's rows, read once and written at its end (batchRows.ts). */
  rows: BatchRows;
}

/** Kinds whose ids browsers make (UUIDs): one id names one row on the whole server. */
const GLOBAL_ID_KINDS: readonly SyncKind[] = ['project', 'clip', 'revision', 'clipEvent', 'frameVerdict', 'comment'];

function refuse(code: 403 | 409, message: string): never {
  throw new RowRefused(code, message);
}
function allow(refusal: Refusal): void {
  if (refusal !== null) refuse(403, refusal);
}

export async function judgeChange(scope: PushScope, change: PushChange): Promise<PushOutcome> {
  const { projectId } = scope;
  const { kind, id, row } = change;
  if (kind === 'concurrentEdit') refuse(403, 'concurrentEdit rows are written by the server only');
  if ((change.base !== undefined) !== (kind === 'revision')) invalid(kind === 'revision' ? 'a revision needs its base cursor' : 'only revisions carry a base cursor');

  const clipId = clipIdOf(kind, row);
  const clipRow = kind === 'project' || kind === 'clip' ? null : await scope.rows.get('clip', clipId!);
  if (kind !== 'project' && kind !== 'clip' && !clipRow) refuse(409, `there is no clip "${clipId}" in this project`);
  const clip = clipRow?.body as Clip | undefined;
  const body = checkRow(kind, id, row, projectId, clip ?? null);

  const stored = await scope.rows.get(kind, id);
  if (stored && LOG_KINDS.includes(kind)) {
    // A resent batch (the answer was lost): the same row again changes nothing.
    if (sameJson(stored.body, body)) return duplicate(kind, id, stored);
    refuse(409, `another ${kind} is already stored under this id (log rows never change)`);
  }
  if (!stored && GLOBAL_ID_KINDS.includes(kind) && (await scope.rows.inOtherProject(kind, id))) {
    refuse(409, `the id of this ${kind} belongs to another project`);
  }

  const final = await rules(scope, kind, body, stored, clip);
  if (stored && sameJson(stored.body, final)) return duplicate(kind, id, stored);
  const cursor = await scope.rows.write({ kind, rowId: id, clientId: scope.clientId, userId: scope.userId, body: final });
  if (kind === 'clipEvent') await applyStep(scope, clipRow!, final as unknown as ClipEvent);
  if (kind === 'revision') await flagConcurrentEdit(scope, final as unknown as Revision, change.base!);
  return { kind, id, status: 'accepted', cursor };
}

function duplicate(kind: SyncKind, id: string, stored: StoredRow): PushOutcome {
  return { kind, id, status: 'accepted', cursor: stored.cursor, duplicate: true };
}

/** Rows carry their writer's name: the signed-in user's, except in a manager's upload of history. */
function ownName(scope: PushScope, name: string | undefined, what: string): void {
  if (scope.pusher.upload || name === undefined) return;
  if (name !== scope.pusher.username) refuse(403, `${what} is "${name}", not you (${scope.pusher.username}): rows you push carry your own name`);
}

const changed = (a: JsonObject, b: JsonObject | undefined, keys: readonly string[]) => keys.some((k) => !sameJson(a[k], b?.[k]));

/** The permission and lifecycle rules of each kind; returns the row to store (server-owned fields filled in). */
async function rules(scope: PushScope, kind: SyncKind, body: JsonObject, stored: StoredRow | null, clip: Clip | undefined): Promise<JsonObject> {
  const who = scope.pusher;
  const old = stored?.body;
  switch (kind) {
    case 'project': {
      allow(mayEditProject(who));
      // The server's project list shows the same name, under the server's own rule for names.
      const name = checkProjectName(body.name);
      if (!name.ok) invalid(name.message);
      await scope.tx.query('UPDATE projects SET name = $2 WHERE id = $1', [scope.projectId, name.value]);
      return body;
    }
    case 'clip':
      return clipRules(who, body, old as unknown as Clip | undefined);
    case 'frame': {
      if (!old) {
        allow(mayCreateClip(who));
      } else {
        if (changed(body, old, ['timestampSec', 'name', 'image'])) allow(mayEditClipMetadata(who));
        if (changed(body, old, ['phase', 'ignored', 'reviewed'])) allow(mayMarkFrame(who, clip!));
      }
      if (changed(body, old, ['ignored'])) ownName(scope, (body as unknown as Frame).ignored?.by, "the frame's ignored.by");
      if (old) await newImageHeld(scope, body, old);
      return body;
    }
    case 'revision': {
      const r = body as unknown as Revision;
      ownName(scope, r.author, 'the revision author');
      allow(mayPaint(who, clip!, r.source));
      return body;
    }
    case 'clipEvent':
      await stepRules(scope, body as unknown as ClipEvent, clip!);
      return body;
    case 'frameVerdict':
      ownName(scope, (body as unknown as FrameVerdict).by, 'the verdict by');
      allow(mayGiveVerdict(who, clip!));
      return body;
    case 'comment':
      await commentRules(scope, body as unknown as ClipComment, old as unknown as ClipComment | undefined);
      return body;
    case 'flagDismissal':
      ownName(scope, String(body.by), 'the dismissal by');
      return body;
    default:
      return refuse(403, `${kind} rows are written by the server only`);
  }
}

/**
 * Clips: new ones by managers, starting at `todo` whatever they say (a status follows accepted
 * lifecycle steps); afterwards the size never changes, metadata only by managers, the assignee and
 * the trash mark only by a manager, and the status only by steps (or by the first edit, todo to in
 * progress).
 */
function clipRules(who: Pusher, body: JsonObject, old: Clip | undefined): JsonObject {
  const next = { ...body } as unknown as Clip;
  if (!old) {
    allow(mayCreateClip(who));
    next.status = 'todo';
    return next as unknown as JsonObject;
  }
  if (next.width !== old.width || next.height !== old.height || next.frameCount !== old.frameCount) refuse(409, "a clip's size and frame count never change");
  if (changed(body, old as unknown as JsonObject, ['name', 'osc', 'subset', 'source', 'createdAt'])) allow(mayEditClipMetadata(who));
  if (next.status !== old.status && !mayStartWorkByEditing(who, old, next.status)) next.status = old.status;
  if (next.assignee !== old.assignee && !mayAssign(who)) {
    if (old.assignee === undefined) delete next.assignee;
    else next.assignee = old.assignee;
  }
  if (next.deletedAt !== old.deletedAt && mayTrashClip(who) !== null) trashByNonManager(who, next, old);
  return next as unknown as JsonObject;
}

/**
 * A clip row from someone who may not trash or restore clips whose trash mark differs from the
 * server's. If the mark is all the row would change, they moved the clip to the trash (or out of
 * it): refused. Otherwise the row comes from a browser that had not pulled a manager's trash or
 * restore yet: the server keeps its own mark, takes the rest, and the row comes back on the next pull.
 */
function trashByNonManager(who: Pusher, next: Clip, old: Clip): void {
  const { deletedAt: _mark, updatedAt: _next, ...rest } = next;
  const { deletedAt: _oldMark, updatedAt: _old, ...was } = old;
  if (sameJson(rest, was)) refuse(403, mayTrashClip(who)!);
  if (old.deletedAt === undefined) delete next.deletedAt;
  else next.deletedAt = old.deletedAt;
}

/**
 * A frame that changes its image must name bytes this project holds (the browser uploads them first):
 * otherwise a browser that had not pulled a newer image for a long time could point the frame back
 * at bytes garbage collection has removed since (blobGc.ts). A new frame may still come before its
 * image (docs/sync.md "The protocol").
 */
async function newImageHeld(scope: PushScope, body: JsonObject, old: JsonObject): Promise<void> {
  const sha256 = (body.image as unknown as FrameImageRef).sha256;
  if (sha256 === (old.image as unknown as FrameImageRef | undefined)?.sha256) return;
  if (!(await projectHasBlob(scope.tx, scope.projectId, sha256))) refuse(409, `the frame's new image ${sha256} is not on the server: upload its bytes first`);
}

async function stepRules(scope: PushScope, event: ClipEvent, clip: Clip): Promise<void> {
  ownName(scope, event.by, 'the step by');
  const action = event.action as ClipAction;
  if (!(CLIP_ACTIONS as readonly string[]).includes(action)) invalid(`unknown review action "${event.action}"`);
  allow(mayTakeStep(scope.pusher, clip, action));
  const step = transition(clip.status, action, event.note);
  if (!step.ok) refuse(409, step.error);
  if (step.to !== event.to) refuse(409, `"${action}" takes the clip from ${clip.status} to ${step.to}, not to ${event.to}`);
  if (action === 'approve' || action === 'approve_override') {
    const facts = await approvalFacts(scope, clip);
    const override = action === 'approve_override';
    const refusal = approvalRefusal(facts, event.by, override);
    if (refusal !== null) {
      const check = checkApproval(facts, event.by);
      // Approving one's own painting is a question of who; rejected or unreviewed frames, of the clip's state.
      refuse(!check.blocked && check.unreviewed.length === 0 ? 403 : 409, refusal);
    }
  }
}

/** What the review gate needs, from the server's rows: frames, latest verdicts, gt painters. */
async function approvalFacts(scope: PushScope, clip: Clip): Promise<ApprovalFacts> {
  const tx = await scope.rows.flushed();
  const frames = await clipRows(tx, scope.projectId, 'frame', clip.id);
  const verdicts = await clipRows(tx, scope.projectId, 'frameVerdict', clip.id);
  const painters = new Set((await gtPainters(tx, scope.projectId, clip.id)).map((a) => a.trim()));
  const ignored = new Set(frames.map((r) => r.body as unknown as Frame).filter((f) => f.ignored).map((f) => f.index));
  // Cursor order stands in for the browser's local seq as the tie-break between verdicts of the same time.
  const verdictRows = verdicts.map((r) => ({ ...(r.body as unknown as FrameVerdict), seq: Number(r.cursor) }));
  return { frameCount: clip.frameCount, ignored, verdicts: latestVerdicts(verdictRows), painters };
}

/** An accepted step moves the server's clip row to its status, under a new cursor of its own. */
async function applyStep(scope: PushScope, clipRow: StoredRow, event: ClipEvent): Promise<void> {
  const clip = { ...(clipRow.body as unknown as Clip), status: event.to };
  await scope.rows.write({ kind: 'clip', rowId: clip.id, clientId: scope.clientId, userId: scope.userId, body: clip as unknown as JsonObject });
}

async function commentRules(scope: PushScope, comment: ClipComment, old: ClipComment | undefined): Promise<void> {
  if (!old) ownName(scope, comment.author, 'the comment author');
  else {
    if (comment.author !== old.author) refuse(403, 'a comment keeps its author');
    const edited = changed(comment as unknown as JsonObject, old as unknown as JsonObject, ['frameIndex', 'x', 'y', 'text', 'parentId', 'at']);
    if (edited && !scope.pusher.upload && scope.pusher.username !== old.author) refuse(403, `only its author (${old.author}) edits a comment; anyone may resolve it`);
  }
  if (comment.parentId !== undefined) {
    const parent = await scope.rows.get('comment', comment.parentId);
    if (!parent || (parent.body as unknown as ClipComment).clipId !== comment.clipId) refuse(409, `there is no comment "${comment.parentId}" on this clip to reply to`);
  }
}

/**
 * Two people changed one frame's layer without seeing each other's revision: the server already
 * holds a revision of it from another client with a cursor above the one this revision was made on.
 * Both are kept (the replay applies each one's pixels in cursor order); the frame is flagged.
 */
async function flagConcurrentEdit(scope: PushScope, rev: Revision, base: string): Promise<void> {
  const rowId = concurrentEditRowId(rev.clipId, rev.source, rev.frameIndex);
  if (!(await scope.rows.mayHaveLaterRevisions(rev.clipId, scope.clientId, rowId, base || CURSOR_START))) return;
  const others = await revisionsAfter(await scope.rows.flushed(), {
    projectId: scope.projectId,
    clipId: rev.clipId,
    source: rev.source,
    frameIndex: rev.frameIndex,
    base: base || CURSOR_START,
    clientId: scope.clientId,
  });
  if (others.length === 0) return;
  const prev = (await scope.rows.get('concurrentEdit', rowId))?.body as { revisionIds?: string[]; users?: string[] } | undefined;
  const revisionIds = [...new Set([...(prev?.revisionIds ?? []), ...others.map((o) => o.row_id), rev.id])];
  const users = [...new Set([...(prev?.users ?? []), ...others.map((o) => o.author), rev.author])].sort();
  const body = { clipId: rev.clipId, source: rev.source, frameIndex: rev.frameIndex, revisionIds, users };
  await scope.rows.write({ kind: 'concurrentEdit', rowId, clientId: null, userId: scope.userId, body });
}
