/**
 * The sync client's recurring costs, one core, Node + fake-indexeddb (slower than a browser's
 * IndexedDB; the figures bound the browser's from above):
 * - the outbox scan every push makes when nothing is due, for a project of 10 clips x 300 frames
 *   (the mutable rows are compared by fingerprint: outbox.ts explains why);
 * - rebuilding one 854x480 frame as the replay of 200 stroke revisions (what a pulled revision costs).
 * Run: npm run bench sync-client
 */
import { performance } from 'node:perf_hooks';
import { diffToPatch } from '../src/annotator/patch';
import { patchToRevision } from '../src/annotator/revisionPatch';
import { createLabelMap } from '../src/masks/labelMap';
import { encodeLayer } from '../src/masks/layers';
import { replayRevisionLabels, type ReplayableRevision } from '../src/masks/replayRevisions';
import { commitClipImport } from '../src/store/importCommit';
import { createProject } from '../src/store/projects';
import { collectOutbox } from '../src/sync/outbox';
import type { PushOutcome } from '../src/sync/protocol';
import { recordOutcomes } from '../src/sync/push';
import { newLink, readFingerprints, readImageRefs, readLink, writeLink } from '../src/sync/syncState';
import { freshDb, importDraft } from '../src/testing/storeFixtures';

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function outboxScan(): Promise<void> {
  const db = await freshDb();
  const project = await createProject(db, { name: 'bench' });
  for (let c = 0; c < 10; c++) await commitClipImport(db, importDraft(project.id, 300, { layers: [] }));
  await db.transaction('rw', db.meta, () => writeLink(db, newLink(project.id, 'http://bench', project.id, 'bench', false)));
  let cursor = 0;
  for (;;) {
    const link = (await readLink(db, project.id))!;
    const box = await collectOutbox(db, link, await readFingerprints(db, project.id), await readImageRefs(db, project.id));
    if (box.entries.length === 0) break;
    const outcomes: PushOutcome[] = box.entries.map((e) => ({ kind: e.change.kind, id: e.change.id, status: 'accepted', cursor: String(++cursor) }));
    await recordOutcomes(db, project.id, box, outcomes, new Set(box.entries.flatMap((e) => (e.image ? [e.image.ref.sha256] : []))));
  }
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const link = (await readLink(db, project.id))!;
    const box = await collectOutbox(db, link, await readFingerprints(db, project.id), await readImageRefs(db, project.id));
    times.push(performance.now() - t0);
    if (box.entries.length !== 0) throw new Error('nothing should be due');
  }
  console.log(`| outbox scan, nothing due, 10 clips x 300 frames (${cursor} rows agreed) | median ${median(times).toFixed(1)} ms |`);
  db.close();
}

function replayBench(): void {
  const W = 854;
  const H = 480;
  const map = createLabelMap(W, H);
  const revisions: ReplayableRevision[] = [];
  for (let i = 0; i < 200; i++) {
    const box = { x: (i * 37) % (W - 40), y: (i * 23) % (H - 40), w: 40, h: 40 };
    const after = { width: W, height: H, data: map.data.slice() };
    for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) if ((x - box.x - 20) ** 2 + (y - box.y - 20) ** 2 < 400) after.data[y * W + x] = (i % 3) === 2 ? 0 : (i % 2) + 1;
    const patch = diffToPatch(map, after, box, 0, 'brush');
    if (!patch) continue;
    map.data.set(after.data);
    revisions.push(patchToRevision(patch));
  }
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    encodeLayer(replayRevisionLabels(W, H, revisions));
    times.push(performance.now() - t0);
  }
  console.log(`| rebuild one 854x480 frame from ${revisions.length} stroke revisions (replay + encode) | median ${median(times).toFixed(2)} ms |`);
}

console.log('| what | time |\n|---|---|');
replayBench();
await outboxScan();
