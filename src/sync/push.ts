/**
 * One push round for one project (docs/sync.md "The browser client"): collect a batch (outbox.ts),
 * upload the frame images it names that the server lacks, send it, and record the outcomes with the
 * checkpoint in one transaction: an accepted row gets its cursor, a refused row stays as it is
 * here (nothing is ever deleted) and is listed in the link's `refusals`, never to be resent (a
 * mutable row is sent again only once it changes again).
 */
import type { SpocDb } from '../store/db';
import { baselineClip } from './baseline';
import { collectOutbox, type Outbox, type OutboxEntry } from './outbox';
import { MAX_PUSH_CHANGES, SYNC_PROTOCOL_VERSION, type PushOutcome } from './protocol';
import { LOG_TABLES, readFingerprints, readImageRefs, readLink, recordRefusal, rowKey, writeFingerprints, writeImageRefs, writeLink } from './syncState';
import type { SyncTransport } from './transport';

export interface PushRound {
  /** Changes sent in this round. */
  sent: number;
  accepted: number;
  refused: number;
  /** Changes still due after this round (more rounds follow while it is above 0). */
  left: number;
}

export async function pushOnce(db: SpocDb, transport: SyncTransport, projectId: string, limit = MAX_PUSH_CHANGES): Promise<PushRound> {
  const link = await readLink(db, projectId);
  if (!link) throw new Error('This project is not linked to a server.');
  const [prints, images] = await Promise.all([readFingerprints(db, projectId), readImageRefs(db, projectId)]);
  // A clip about to reach the server for the first time: its revision-less layers become revisions first (baseline.ts).
  for (const clip of await db.clips.where('projectId').equals(projectId).toArray()) {
    if (clip.importing === undefined && prints[rowKey('clip', clip.id)] === undefined) await baselineClip(db, clip.id);
  }
  const outbox = await collectOutbox(db, link, prints, images, limit);
  const { entries } = outbox;

  // Images first: a frame row must never reach the server before the bytes it names.
  const uploaded = new Set<string>();
  for (const e of entries) {
    const image = e.image;
    if (!image || image.bytes === null || uploaded.has(image.ref.sha256)) continue;
    await transport.putBlob(link.serverProjectId, image.ref.sha256, image.bytes, image.ref.mime);
    uploaded.add(image.ref.sha256);
  }

  const response = entries.length > 0 ? await transport.push(link.serverProjectId, { protocol: SYNC_PROTOCOL_VERSION, clientId: link.clientId, ...(link.upload ? { upload: true } : {}), changes: entries.map((e) => e.change) }) : null;
  const outcomes = response?.outcomes ?? [];

  const { accepted, refused } = await recordOutcomes(db, projectId, outbox, outcomes, uploaded);
  return { sent: entries.length, accepted, refused, left: outbox.due - entries.length };
}

/**
 * Records the server's answer to a batch, with the checkpoint, in one transaction: accepted log rows
 * get their cursor, refused rows are listed (and kept), mutable rows get the fingerprint that was
 * sent, frame images are marked as on the server.
 */
export async function recordOutcomes(db: SpocDb, projectId: string, outbox: Outbox, outcomes: readonly PushOutcome[], uploaded: ReadonlySet<string> = new Set()): Promise<{ accepted: number; refused: number }> {
  const { entries } = outbox;
  checkOutcomes(entries, outcomes);
  let accepted = 0;
  let refused = 0;
  await db.transaction('rw', [db.meta, ...LOG_TABLES.map((t) => db[t])], async () => {
    // Re-read: a pull may have moved the cursor or recorded problems meanwhile.
    const current = await readLink(db, projectId);
    if (!current) return;
    const [prints, images] = await Promise.all([readFingerprints(db, projectId), readImageRefs(db, projectId)]);
    const now = Date.now();
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const o = outcomes[i];
      if (o.status === 'accepted') accepted++;
      else {
        refused++;
        recordRefusal(current, { kind: o.kind, id: o.id, code: o.code, error: o.error, at: now });
      }
      if (e.log) {
        if (o.status === 'accepted') await db[e.log.table].update(e.log.seq, { cursor: o.cursor });
      } else if (e.fingerprint !== undefined) {
        prints[rowKey(e.change.kind, e.change.id)] = e.fingerprint;
      }
      if (e.image) images[e.change.id] = { ...e.image.ref, onServer: images[e.change.id]?.onServer || uploaded.has(e.image.ref.sha256) || e.image.bytes === null };
    }
    for (const table of LOG_TABLES) current.pushedSeq[table] = Math.max(current.pushedSeq[table], outbox.checkpoint[table]);
    // A shared project's own history is uploaded once; what is written after that is pushed as anyone's work.
    if (outbox.due === entries.length) current.upload = false;
    await writeLink(db, current);
    if (entries.some((e) => e.fingerprint !== undefined)) await writeFingerprints(db, projectId, prints);
    if (entries.some((e) => e.image)) await writeImageRefs(db, projectId, images);
  });
  return { accepted, refused };
}

/** The server answers one outcome per change, in order; anything else is not applied at all. */
function checkOutcomes(entries: readonly OutboxEntry[], outcomes: readonly PushOutcome[]): void {
  if (outcomes.length !== entries.length || outcomes.some((o, i) => o.kind !== entries[i].change.kind || o.id !== entries[i].change.id)) {
    throw new Error(`The server answered ${outcomes.length} outcomes for ${entries.length} changes, or not in their order; nothing was recorded.`);
  }
}
