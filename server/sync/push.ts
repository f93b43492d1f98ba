/**
 * A push (docs/sync.md "The protocol"): every change judged in order, in one transaction that holds
 * the project's lock, one outcome each; refused rows are reported and never stored, the rest lands.
 * Listeners are told through NOTIFY, which PostgreSQL delivers only when the transaction commits.
 */
import type { PushOutcome, PushRequest, PushResponse } from '../../src/sync/protocol';
import type { Role } from '../auth/permissions';
import type { Db } from '../db/db';
import { recordAudit } from '../store/audit';
import type { SignedInUser } from '../store/sessions';
import { RowRefused } from './checkRow';
import { judgeChange, type PushScope } from './judge';
import { PushRows } from './pushRows';
import { lockProject, projectCursor } from './syncStore';

export const SYNC_CHANNEL = 'spoc_sync';

/** The NOTIFY payload: "<projectId> <cursor>". */
export function changedPayload(projectId: string, cursor: string): string {
  return `${projectId} ${cursor}`;
}

export function parseChangedPayload(payload: string): { projectId: string; cursor: string } | null {
  const m = /^([0-9a-f-]{36}) (0|[1-9][0-9]{0,18})$/.exec(payload);
  return m ? { projectId: m[1], cursor: m[2] } : null;
}

export interface PushInput {
  projectId: string;
  role: Role;
  user: SignedInUser;
  request: PushRequest;
}

export async function pushChanges(db: Db, input: PushInput): Promise<PushResponse> {
  const { projectId, user, request } = input;
  return db.transaction(async (tx) => {
    await lockProject(tx, projectId);
    const scope: PushScope = {
      tx,
      projectId,
      clientId: request.clientId.toLowerCase(),
      userId: user.id,
      pusher: { role: input.role, username: user.username, upload: request.upload === true },
      rows: new PushRows(tx, projectId),
      revisionClipIds: () => [...new Set(request.changes.filter((c) => c.kind === 'revision' && typeof c.row.clipId === 'string').map((c) => String(c.row.clipId)))],
    };
    // The push's rows and the clips they belong to, in one query (a malformed row is judged, and refused, later).
    await scope.rows.prefetch(
      request.changes.flatMap((c) => {
        const clipId = c.kind === 'clip' || c.kind === 'project' ? null : c.row.clipId;
        return typeof clipId === 'string' ? [[c.kind, c.id] as const, ['clip', clipId] as const] : [[c.kind, c.id] as const];
      }),
    );
    const outcomes: PushOutcome[] = [];
    let wrote = false;
    for (const change of request.changes) {
      try {
        const judged = await judgeChange(scope, change);
        outcomes.push(judged.outcome);
        wrote ||= judged.wrote;
      } catch (err) {
        if (!(err instanceof RowRefused)) throw err;
        outcomes.push({ kind: change.kind, id: change.id, status: 'refused', code: err.code, error: err.message });
      }
    }
    const cursor = await projectCursor(tx, projectId);
    if (wrote) await tx.query('SELECT pg_notify($1, $2)', [SYNC_CHANNEL, changedPayload(projectId, cursor)]);
    if (request.upload) {
      const accepted = outcomes.filter((o) => o.status === 'accepted').length;
      await recordAudit(tx, { userId: user.id, action: 'sync.upload', projectId, details: { clientId: scope.clientId, accepted, refused: outcomes.length - accepted } });
    }
    return { outcomes, cursor };
  });
}
