/**
 * Rows as a browser would push them (the store's rows, docs/sync.md "The protocol"), a project set
 * up with one member of each role, and a snapshot of sync_rows to assert that a refused push
 * changed nothing. For the sync tests.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { JsonObject } from '../../src/store/records';
import { rleWithArea } from '../../src/testing/storeFixtures';
import { SYNC_PROTOCOL_VERSION, frameRowId, type PushChange, type PushOutcome, type SyncKind } from '../../src/sync/protocol';
import type { Db } from '../db/db';
import { newClient, type Client } from './testServer';

export const W = 8;
export const H = 6;
export const FRAMES = 3;

export function projectRow(id: string, name = 'Kitchen'): JsonObject {
  return { id, name, createdAt: 1, updatedAt: 1, settings: { sampleFps: 2, thresholds: { peel: { tau: 0.5, delta: 0.1 } } } };
}

export function clipRow(projectId: string, over: Partial<JsonObject> = {}): JsonObject {
  return {
    id: randomUUID(),
    projectId,
    name: 'peel-1',
    createdAt: 1,
    updatedAt: 1,
    width: W,
    height: H,
    frameCount: FRAMES,
    sampleFps: 2,
    source: { kind: 'images', fileName: 'peel-1' },
    osc: { verb: 'peel', noun: 'banana', actionable: 'skin', transformed: 'peeled skin' },
    subset: 'seen',
    status: 'todo',
    ...over,
  };
}

export const SHA_A = 'a'.repeat(64);

export function frameRow(clipId: string, index: number, over: Partial<JsonObject> = {}): JsonObject {
  return { clipId, index, timestampSec: index / 2, image: { sha256: SHA_A, mime: 'image/png', width: W, height: H, size: 10 }, ...over };
}

export function revisionRow(clipId: string, frameIndex: number, author: string, over: Partial<JsonObject> = {}): JsonObject {
  return {
    id: randomUUID(),
    clipId,
    frameIndex,
    source: 'gt',
    author,
    at: 10,
    action: 'brush',
    box: { x: 0, y: 0, w: 2, h: 1 },
    before: rleWithArea(1, 2, 0),
    after: rleWithArea(1, 2, 1),
    ...over,
  };
}

export function eventRow(clipId: string, action: string, from: string, to: string, by: string, note?: string): JsonObject {
  return { id: randomUUID(), clipId, action, from, to, by, at: 20, ...(note ? { note } : {}) };
}

export function verdictRow(clipId: string, frameIndex: number, verdict: string, by: string): JsonObject {
  return { id: randomUUID(), clipId, frameIndex, verdict, by, at: 30 };
}

export function commentRow(clipId: string, author: string, text: string, over: Partial<JsonObject> = {}): JsonObject {
  return { id: randomUUID(), clipId, frameIndex: 0, x: 1, y: 1, author, at: 40, text, resolved: false, ...over };
}

/** A change naming its row as docs/sync.md says (frames by clip and index, the rest by their id). */
export function change(kind: SyncKind, row: JsonObject, extra: Partial<PushChange> = {}): PushChange {
  const id = kind === 'frame' ? frameRowId(String(row.clipId), Number(row.index)) : String(row.id);
  return { kind, id, row, ...(kind === 'revision' ? { base: '0' } : {}), ...extra };
}

/** One client id per test client (a browser profile). */
const clientIds = new WeakMap<Client, string>();
export function clientIdOf(client: Client): string {
  let id = clientIds.get(client);
  if (!id) clientIds.set(client, (id = randomUUID()));
  return id;
}

export function push(client: Client, projectId: string, changes: PushChange[], extra: JsonObject = {}): Promise<LightMyRequestResponse> {
  return client.request('POST', `/api/projects/${projectId}/sync/push`, { protocol: SYNC_PROTOCOL_VERSION, clientId: clientIdOf(client), changes, ...extra });
}

/** Pushes and expects every change accepted; returns the outcomes. */
export async function pushOk(client: Client, projectId: string, changes: PushChange[], extra: JsonObject = {}): Promise<PushOutcome[]> {
  const res = await push(client, projectId, changes, extra);
  expect(res.statusCode, res.body).toBe(200);
  const outcomes: PushOutcome[] = res.json().outcomes;
  expect(outcomes.filter((o) => o.status !== 'accepted'), res.body).toEqual([]);
  return outcomes;
}

export interface Team {
  projectId: string;
  manager: Client;
  annotator: Client;
  reviewer: Client;
  /** A second reviewer (who painted nothing). */
  reviewer2: Client;
  outsider: Client;
}

export async function newTeam(app: FastifyInstance, db: Db): Promise<Team> {
  const manager = await newClient(app, db, 'mgr');
  const [annotator, reviewer, reviewer2, outsider] = [await newClient(app, db, 'ann'), await newClient(app, db, 'rev'), await newClient(app, db, 'rvw'), await newClient(app, db, 'out')];
  const projectId = (await manager.request('POST', '/api/projects', { name: 'Synced' })).json().id;
  for (const [c, role] of [[annotator, 'annotator'], [reviewer, 'reviewer'], [reviewer2, 'reviewer']] as const) {
    await manager.request('POST', `/api/projects/${projectId}/members`, { username: c.user.username, role });
  }
  return { projectId, manager, annotator, reviewer, reviewer2, outsider };
}

/** A clip with its frames, created by the manager and assigned to the annotator. */
export async function newClip(team: Team, over: Partial<JsonObject> = {}): Promise<string> {
  const clip = clipRow(team.projectId, { assignee: team.annotator.user.username, ...over });
  const id = String(clip.id);
  await pushOk(team.manager, team.projectId, [change('clip', clip), ...Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(id, i)))]);
  return id;
}

/** Every sync row (kind, id, cursor, body), to compare before and after a refused push. */
export async function syncSnapshot(db: Db): Promise<unknown[]> {
  return db.query("SELECT project_id, kind, row_id, cursor::text AS cursor, body FROM sync_rows ORDER BY cursor");
}
