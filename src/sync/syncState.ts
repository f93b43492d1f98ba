/**
 * What this browser remembers about syncing (docs/sync.md "The browser client"), all in the store's
 * `meta` table so it lives and dies with the projects it describes (a new table would be a schema
 * version for three small records):
 *
 * - `sync.clientId`: one random UUID per browser profile, sent with every push so the server never
 *   counts this browser's revisions as concurrent with each other;
 * - `sync.<projectId>`: the link of one local project to one server project (SyncLink): where,
 *   how far pushes and pulls got, what the server refused;
 * - `sync.<projectId>.rows`: per mutable row (project, clip, frame, comment, flag dismissal), the
 *   fingerprint of the content last agreed with the server (pushed and accepted or refused, or
 *   pulled), which is how the outbox finds rows changed since (outbox.ts explains why);
 * - `sync.<projectId>.images`: per frame, the image it shows by SHA-256 and whether the server has
 *   the bytes (frame images travel apart from frame rows).
 */
import type { SpocDb } from '../store/db';
import { newId } from '../store/ids';
import { CURSOR_START, type Cursor, type FrameImageRef, type SyncKind } from './protocol';

export const CLIENT_ID_KEY = 'sync.clientId';
export const linkKey = (projectId: string) => `sync.${projectId}`;
export const rowsKey = (projectId: string) => `sync.${projectId}.rows`;
export const imagesKey = (projectId: string) => `sync.${projectId}.images`;

/** The store's append-only log tables, which push by local `seq` (docs/sync.md "Row identity"). */
export const LOG_TABLES = ['revisions', 'clipEvents', 'frameVerdicts'] as const;
export type LogTable = (typeof LOG_TABLES)[number];
export const LOG_KIND_OF: Record<LogTable, SyncKind> = { revisions: 'revision', clipEvents: 'clipEvent', frameVerdicts: 'frameVerdict' };

/** A row the server refused: kept here, never resent (until a mutable row changes again), shown to people. */
export interface SyncRefusal {
  kind: SyncKind;
  id: string;
  code: number;
  error: string;
  at: number;
}

/** A pulled row this browser could not store (it failed the store's checks); the rest of its page landed. */
export interface SyncProblem {
  kind: SyncKind | string;
  id: string;
  error: string;
  cursor: Cursor;
}

export interface SyncLink {
  projectId: string;
  /** The server's origin, e.g. "https://annotate.lab.example". */
  server: string;
  /** The project's id on the server (the `:projectId` of its URLs); the local project keeps its own id. */
  serverProjectId: string;
  clientId: string;
  /**
   * Per log table, the local `seq` up to which every row of this project has been pushed (accepted
   * or refused) or pulled: the outbox reads only above it.
   */
  pushedSeq: Record<LogTable, number>;
  /** The pull checkpoint: every server row up to this cursor is applied here. */
  cursor: Cursor;
  /**
   * true while a manager shares an existing local project (its history may carry other authors):
   * pushes then say `upload: true` until everything that was here is pushed.
   */
  upload: boolean;
  /** The newest refusal per row, oldest first. */
  refusals: SyncRefusal[];
  /** Pulled rows that were not stored, newest last (at most MAX_PROBLEMS). */
  problems: SyncProblem[];
  /** Frames the server flagged as concurrently edited (its `concurrentEdit` rows, by id). */
  concurrentEdits: Record<string, Record<string, unknown>>;
  /**
   * Clips deleted for good here while the server keeps them (docs/sync.md "Deletions"): their pulled
   * rows are skipped, until a manager restores one on the server (then the project is pulled again
   * from the start, and the clip comes back whole). Absent on links made before it existed.
   */
  purgedClips?: string[];
  linkedAt: number;
}

export const MAX_PROBLEMS = 200;

/** What the outbox last agreed with the server, per mutable row ("kind id" -> fingerprint). */
export type RowFingerprints = Record<string, string>;
export const rowKey = (kind: SyncKind, id: string) => `${kind} ${id}`;

/** Per frame row id (`<clipId>/<index>`): the image it shows and whether the server has its bytes. */
export type FrameImageRefs = Record<string, FrameImageRef & { onServer: boolean }>;

export function newLink(projectId: string, server: string, serverProjectId: string, clientId: string, upload: boolean): SyncLink {
  return {
    projectId,
    server,
    serverProjectId,
    clientId,
    pushedSeq: { revisions: 0, clipEvents: 0, frameVerdicts: 0 },
    cursor: CURSOR_START,
    upload,
    refusals: [],
    problems: [],
    concurrentEdits: {},
    linkedAt: Date.now(),
  };
}

/** This browser profile's client id, made on first use. */
export async function clientId(db: SpocDb): Promise<string> {
  return db.transaction('rw', db.meta, async () => {
    const row = await db.meta.get(CLIENT_ID_KEY);
    if (typeof row?.value === 'string') return row.value;
    const id = newId();
    await db.meta.put({ key: CLIENT_ID_KEY, value: id });
    return id;
  });
}

/** Reads (inside or outside a transaction that includes `meta`). */
export async function readLink(db: SpocDb, projectId: string): Promise<SyncLink | undefined> {
  return (await db.meta.get(linkKey(projectId)))?.value as SyncLink | undefined;
}
export async function writeLink(db: SpocDb, link: SyncLink): Promise<void> {
  await db.meta.put({ key: linkKey(link.projectId), value: link });
}
export async function readFingerprints(db: SpocDb, projectId: string): Promise<RowFingerprints> {
  return ((await db.meta.get(rowsKey(projectId)))?.value as RowFingerprints | undefined) ?? {};
}
export async function writeFingerprints(db: SpocDb, projectId: string, value: RowFingerprints): Promise<void> {
  await db.meta.put({ key: rowsKey(projectId), value });
}
export async function readImageRefs(db: SpocDb, projectId: string): Promise<FrameImageRefs> {
  return ((await db.meta.get(imagesKey(projectId)))?.value as FrameImageRefs | undefined) ?? {};
}
export async function writeImageRefs(db: SpocDb, projectId: string, value: FrameImageRefs): Promise<void> {
  await db.meta.put({ key: imagesKey(projectId), value });
}

/** Every project of this browser that syncs, with its link. */
export async function listLinks(db: SpocDb): Promise<SyncLink[]> {
  const rows = await db.meta.where('key').startsWith('sync.').toArray();
  return rows.filter((r) => r.key.split('.').length === 2 && r.key !== CLIENT_ID_KEY).map((r) => r.value as SyncLink);
}

/** Stops syncing a project: its link and bookkeeping go; its rows stay (cursors and all). */
export async function unlinkProject(db: SpocDb, projectId: string): Promise<void> {
  await db.transaction('rw', db.meta, () => db.meta.bulkDelete([linkKey(projectId), rowsKey(projectId), imagesKey(projectId)]));
}

/** Adds or replaces the refusal of one row (the newest wins). */
export function recordRefusal(link: SyncLink, refusal: SyncRefusal): void {
  link.refusals = link.refusals.filter((r) => r.kind !== refusal.kind || r.id !== refusal.id);
  link.refusals.push(refusal);
}

/** Adds or replaces the problem of one pulled row (a page applied twice records it once). */
export function recordProblem(link: SyncLink, problem: SyncProblem): void {
  link.problems = link.problems.filter((p) => p.kind !== problem.kind || p.id !== problem.id);
  link.problems.push(problem);
  if (link.problems.length > MAX_PROBLEMS) link.problems.splice(0, link.problems.length - MAX_PROBLEMS);
}

