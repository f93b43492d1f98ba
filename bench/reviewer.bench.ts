/**
 * Reviewer mode over a stored clip, one core, Node + fake-indexeddb (the store code the app runs):
 * - ranking all frames by worst IoU (loadFrameIous: countProject -> countFrame / countsFromAreas),
 *   cold and again with the count cache warm;
 * - one frame's annotator's version and diff (loadFrameReviewDiff: events, layer and revisions read,
 *   decode, undo of the reviewer's revisions, diffMaps) after STROKES reviewer strokes.
 * Run: npx tsx bench/reviewer.bench.ts   (npm run bench reviewer). FRAMES, W, H, STROKES override.
 */
import { performance } from 'node:perf_hooks';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { diffToPatch } from '../src/annotator/patch';
import { patchToRevision } from '../src/annotator/revisionPatch';
import type { LabelMap } from '../src/masks/labelMap';
import { encodeLayer } from '../src/masks/layers';
import { CountCache } from '../src/metrics/panels/projectEval';
import { loadFrameReviewDiff } from '../src/review/annotatorVersionLoader';
import { takeClipStep } from '../src/review/reviewSteps';
import { loadFrameIous } from '../src/review/worstIouLoader';
import { rankByWorstIou } from '../src/review/worstIou';
import { openSpocDb } from '../src/store/db';
import { commitClipImport } from '../src/store/importCommit';
import { saveLayerEdit } from '../src/store/layers';
import { createProject } from '../src/store/projects';
import { writeSourceLayers } from '../src/store/sourceLayers';

const FRAMES = Number(process.env.FRAMES ?? 300);
const W = Number(process.env.W ?? 1280);
const H = Number(process.env.H ?? 720);
const STROKES = Number(process.env.STROKES ?? 30);

function blob(x0: number, y0: number, w: number, h: number, split: number, shift = 0): LabelMap {
  const data = new Uint8Array(W * H);
  for (let y = y0; y < y0 + h; y++) for (let x = x0 + shift; x < x0 + w + shift; x++) data[y * W + x] = x < split ? 2 : 1;
  return { width: W, height: H, data };
}

async function main() {
  const db = await openSpocDb('bench', { indexedDB: new IDBFactory(), IDBKeyRange });
  const p = await createProject(db, { name: 'bench' });
  const gt = Array.from({ length: FRAMES }, (_, k) => blob(300, 200, 600, 300, 300 + Math.round((600 * k) / FRAMES)));
  const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
  const clip = await commitClipImport(db, {
    projectId: p.id,
    clip: { projectId: p.id, name: 'c', width: W, height: H, frameCount: FRAMES, sampleFps: 1, source: { kind: 'images', fileName: 'x' }, osc: { verb: 'peel', noun: 'x', actionable: 'a', transformed: 't' }, subset: 'seen', status: 'todo' },
    frames: gt.map((_, k) => ({ timestampSec: k, image: png, mime: 'image/png' })),
    layers: gt.map((m, k) => ({ frameIndex: k, source: 'gt' as const, ...encodeLayer(m), provenance: { kind: 'imported' as const, by: 'b', at: 1 } })),
  });
  // A prediction off by a few pixels and a few percent of the split on every frame, empty on every 10th.
  await writeSourceLayers(
    db,
    clip.id,
    'pred:m',
    gt.map((_, k) => ({
      frameIndex: k,
      ...encodeLayer(k % 10 === 0 ? blob(0, 0, 0, 0, 0) : blob(300, 205, 600, 300, 320 + Math.round((600 * k) / FRAMES), k % 7)),
      provenance: { kind: 'imported' as const, by: 'bench', at: 1 },
    })),
  );

  const cache = new CountCache();
  let t = performance.now();
  const rows = await loadFrameIous(db, clip, 'pred:m', { cache });
  const cold = performance.now() - t;
  t = performance.now();
  await loadFrameIous(db, clip, 'pred:m', { cache });
  const warm = performance.now() - t;
  t = performance.now();
  const ranked = rankByWorstIou(rows, 'mean');
  const rank = performance.now() - t;
  console.log(`worst IoU, ${FRAMES} frames ${W}x${H}: count cold ${cold.toFixed(0)} ms, cached ${warm.toFixed(0)} ms, rank ${rank.toFixed(2)} ms; worst frame ${ranked[0].frameIndex} (mean IoU ${ranked[0].mean.toFixed(3)})`);

  // The annotator hands in; a reviewer makes STROKES corrections on frame 5.
  await takeClipStep(db, clip.id, 'submit', 'ann', undefined, 1000);
  await takeClipStep(db, clip.id, 'start_review', 'rev', undefined, 1001);
  let map = gt[5];
  for (let s = 0; s < STROKES; s++) {
    const next: LabelMap = { width: W, height: H, data: map.data.slice() };
    const y = 150 + ((s * 13) % 400);
    next.data.fill(s % 2 ? 1 : 2, y * W + 250, y * W + 950);
    const patch = diffToPatch(map, next, { x: 0, y: 0, w: W, h: H }, 5, 'brush');
    if (!patch) continue;
    await saveLayerEdit(db, {
      layer: { clipId: clip.id, frameIndex: 5, source: 'gt', ...encodeLayer(next), provenance: { kind: 'manual', by: 'rev', at: 2000 + s } },
      revision: { ...patchToRevision(patch), clipId: clip.id, source: 'gt', author: 'rev', at: 2000 + s },
    });
    map = next;
  }
  const times: number[] = [];
  let changed = 0;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const r = await loadFrameReviewDiff(db, clip, 5);
    times.push(performance.now() - t);
    changed = r!.diff.changed;
  }
  times.sort((a, b) => a - b);
  console.log(`annotator's version + diff, ${W}x${H}, ${STROKES} reviewer revisions: median ${times[2].toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[4].toFixed(1)}); ${changed} px changed`);
  db.close();
}

void main();
