/**
 * Store rows <-> rows on the wire (src/sync/protocol.ts): the (kind, id) that names each one, what is
 * left out (local numbers), and the fingerprint the outbox compares to tell a changed row.
 */
import type { ClipComment, Clip, FlagDismissal, Frame, Project } from '../store/types';
import { flagDismissalRowId, frameRowId, type SyncKind } from './protocol';
import type { SyncLink } from './syncState';

/** The kinds the outbox finds by content (the logs go by `seq`). */
export type MutableKind = 'project' | 'clip' | 'frame' | 'comment' | 'flagDismissal';

export function mutableRowId(kind: MutableKind, row: Project | Clip | Frame | ClipComment | FlagDismissal): string {
  switch (kind) {
    case 'frame': {
      const f = row as Frame;
      return frameRowId(f.clipId, f.index);
    }
    case 'flagDismissal': {
      const d = row as FlagDismissal;
      return flagDismissalRowId(d.clipId, d.source, d.flagId);
    }
    default:
      return (row as { id: string }).id;
  }
}

/**
 * A mutable row as it goes on the wire. The project row and every clip's `projectId` carry the
 * server project's id (the `:projectId` of its URLs), whatever id the project has here: a browser
 * that shared a local project keeps its own id locally and maps it both ways; a browser that opened
 * a server project uses the server's id locally too.
 */
export function toWireRow(kind: MutableKind, row: object, link: Pick<SyncLink, 'serverProjectId'>): Record<string, unknown> {
  if (kind === 'project') {
    const { deletedAt: _trashed, ...rest } = row as Project;
    return { ...rest, id: link.serverProjectId };
  }
  if (kind === 'clip') {
    // The import marker is this browser's (the server refuses a row carrying it); the trash mark
    // travels, so a manager's trash or restore reaches everyone (docs/sync.md "Deletions").
    const { importing: _importing, ...rest } = row as Clip;
    return { ...rest, projectId: link.serverProjectId };
  }
  return { ...(row as Record<string, unknown>) };
}

/** The local form of a pulled mutable row (see toWireRow). */
export function fromWireRow(kind: MutableKind, row: Record<string, unknown>, link: Pick<SyncLink, 'projectId'>): Record<string, unknown> {
  if (kind === 'project') return { ...row, id: link.projectId };
  if (kind === 'clip') return { ...row, projectId: link.projectId };
  return row;
}

/** A log row as pushed: everything but its local `seq` and the cursor this browser noted. */
export function wireLogRow(row: { seq: number; cursor?: string }): Record<string, unknown> {
  const { seq: _seq, cursor: _cursor, ...rest } = row;
  return rest;
}

/**
 * Fields left out of a mutable row's fingerprint, so that changing only them does not make the row
 * "changed": `updatedAt` moves on every stroke (store/touch.ts) and says nothing the server needs
 * pushed for it. (A clip's `status` is in: the server keeps its own except for the first edit's
 * move from to do to in progress, which it takes from a clip row.)
 */
const VOLATILE: Partial<Record<SyncKind, readonly string[]>> = {
  project: ['updatedAt'],
  clip: ['updatedAt'],
};

/** A short, stable digest of a row's content: equal content (whatever the key order) gives an equal string. */
export function fingerprint(kind: SyncKind, row: object): string {
  const top: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const key of VOLATILE[kind] ?? []) delete top[key];
  const text = JSON.stringify(top, (_key: string, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) sorted[k] = (value as Record<string, unknown>)[k];
      return sorted;
    }
    return value;
  });
  return fnv1a64(text);
}

/** FNV-1a over UTF-16 code units, as two independent 32-bit lanes (64 bits in all): no collision worth fearing among one row's versions. */
function fnv1a64(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(36) + '.' + (b >>> 0).toString(36);
}
