/**
 * A push (docs/sync.md "The protocol"): every change judged in order, in a transaction that holds
 * the project's lock, one outcome each; refused rows are reported and never stored, the rest lands.
 * Listeners are told through NOTIFY, which PostgreSQL delivers only when the transaction commits.
 */
import type { Cursor, PushOutcome, PushRequest, PushResponse } from '../../src/sync/protocol';
import type { Role } from '../auth/permissions';
import type { Db, Queryable } from '../db/db';
import { recordAudit } from '../store/audit';
import type { SignedInUser } from '../store/sessions';
import { RowRefused } from './checkRow';
import { judgeChange, type PushScope } from './judge';
import { BatchRows } from './batchRows';
import { projectCursor } from './syncStore';

export const SYNC_CHANNEL = 'spoc_sync';

/**
 * The NOTIFY payload: "<projectId> <after> <cursor>": the push's rows are exactly the project's rows
 * with a cursor in (after, cursor], since it held the project's lock while taking them (syncStore.ts
 * lockProject), so a listener can read and forward them without knowing anything else (liveFeed.ts).
 */
export function changedPayload(projectId: string, after: Cursor, cursor: Cursor): string {
  return `${projectId} ${after} ${cursor}`;
}

const CURSOR = '(0|[1-9][0-9]{0,18})';
const PAYLOAD = new RegExp(`^([0-9a-f-]{36}) (?:${CURSOR} )?${CURSOR}$`);

/** The payload, or null; `after` is absent in the older "<projectId> <cursor>" form. */
export function parseChangedPayload(payload: string): { projectId: string; after?: Cursor; cursor: Cursor } | null {
  const m = PAYLOAD.exec(payload);
  if (!m) return null;
  return m[2] === undefined ? { projectId: m[1], cursor: m[3] } : { projectId: m[1], after: m[2], cursor: m[3] };
}

export interface PushInput {
  projectId: string;
  role: Role;
  user: SignedInUser;
  request: PushRequest;
}

/**
 * Pushes to one project, each judged as if alone, in one transaction under the project's lock, with
 * one NOTIFY for all (pushQueue.ts gathers them: a commit and its wait for the disk are shared).
 * Each push sees the rows of the pushes before it. All land or, on an error that is not a refusal,
 * none does.
 *
 * Round trips are what a project's lock is held for, so the batch makes them once, not per push:
 * the lock and its cursors taken in one query, its rows read in one, every accepted row written in
 * one multi-row insert at the end that also sends the NOTIFY (batchRows.ts; docs/sync.md "Group commit").
 */
export async function pushBatch(db: Db, projectId: string, inputs: readonly PushInput[]): Promise<PushResponse[]> {
  if (inputs.some((input) => input.projectId !== projectId)) throw new Error('a push batch holds pushes to one project');
  return db.transaction(async (tx) => {
    const rows = new BatchRows(tx, projectId);
    const changes = inputs.flatMap((input) => input.request.changes);
    await rows.lock(changes.length);
    // The batch's rows and the clips they belong to, in one query (a malformed row is judged, and refused, later).
    await rows.prefetch(
      changes.flatMap((c) => {
        const clipId = c.kind === 'clip' || c.kind === 'project' ? null : c.row.clipId;
        return typeof clipId === 'string' ? [[c.kind, c.id] as const, ['clip', clipId] as const] : [[c.kind, c.id] as const];
      }),
    );
    await rows.prefetchRevisionLayers(changes.filter((c) => c.kind === 'revision' && typeof c.row.clipId === 'string').map((c) => String(c.row.clipId)));
    const responses: PushResponse[] = [];
    for (const input of inputs) responses.push(await judgePush(tx, rows, input));
    const written = rows.batchWritten();
    await rows.flushed(written && { channel: SYNC_CHANNEL, payload: changedPayload(projectId, (BigInt(written.first) - 1n).toString(), written.last) });
    return responses;
  });
}

/** One push, inside the batch's transaction, which holds its project's lock. */
async function judgePush(tx: Queryable, rows: BatchRows, input: PushInput): Promise<PushResponse> {
  const { projectId, user, request } = input;
  const scope: PushScope = {
    tx,
    projectId,
    clientId: request.clientId.toLowerCase(),
    userId: user.id,
    pusher: { role: input.role, username: user.username, upload: request.upload === true },
    rows,
  };
  const outcomes: PushOutcome[] = [];
  for (const change of request.changes) {
    try {
      outcomes.push(await judgeChange(scope, change));
    } catch (err) {
      if (!(err instanceof RowRefused)) throw err;
      outcomes.push({ kind: change.kind, id: change.id, status: 'refused', code: err.code, error: err.message });
    }
  }
  // Under the lock, the project's newest row is the last one the batch wrote (this push's last, if it wrote any).
  const cursor = rows.lastWritten() ?? (await projectCursor(tx, projectId));
  if (request.upload) {
    const accepted = outcomes.filter((o) => o.status === 'accepted').length;
    await recordAudit(tx, { userId: user.id, action: 'sync.upload', projectId, details: { clientId: scope.clientId, accepted, refused: outcomes.length - accepted } });
  }
  return { outcomes, cursor };
}
