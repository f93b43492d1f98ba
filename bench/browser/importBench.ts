/**
 * Runs inside Chromium (served by Vite), timing the real import path: a generated 60 s 1280x720
 * video decoded with WebCodecs in the worker and sampled at 1 and 5 fps, and 300 frames with masks
 * written to and read back from IndexedDB through the app's store.
 */
import { createDemoClip } from '../../src/demo/generator';
import { encodeDemoVideo } from '../../src/demo/encodeVideo';
import { sampleVideo } from '../../src/io/video/sampleVideo';
import { encodeLayer, decodeLayer, parseLayer } from '../../src/masks/layers';
import { openSpocDb } from '../../src/store/db';
import { createProject } from '../../src/store/projects';
import { commitClipImports } from '../../src/store/importCommit';
import { getFrameImage } from '../../src/store/frames';
import { getLayer, putLayer } from '../../src/store/layers';

export interface BenchRow {
  name: string;
  value: string;
  note?: string;
}

const VIDEO_SECONDS = 60;

export async function runImportBench(log: (msg: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const clip = createDemoClip({ seed: 101, kind: 'grating', width: 1280, height: 720, durationSec: VIDEO_SECONDS });
  log('encoding a 60 s 1280x720 25 fps H.264 demo video (not timed)…');
  const t0 = performance.now();
  const blob = await encodeDemoVideo(clip, { fps: 25, codec: 'avc', container: 'mp4', quality: 'medium', keyFrameIntervalSec: 2 });
  log(`  encoded ${(blob.size / 2 ** 20).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const file = new File([blob], 'bench-60s-720p.mp4', { type: 'video/mp4' });

  for (const fps of [1, 5]) {
    const start = performance.now();
    const sampled = await sampleVideo(file, { fps });
    const sec = (performance.now() - start) / 1000;
    const perMinute = sec / (VIDEO_SECONDS / 60);
    rows.push({
      name: `import 60 s 1280x720 video at ${fps} fps (${sampled.frames.length} frames)`,
      value: `${perMinute.toFixed(2)} s per video-minute`,
      note: `${((100 * sec) / VIDEO_SECONDS).toFixed(1)}% of real time${fps === 1 ? ' (goal < 25%)' : ''}`,
    });
    log(`  ${rows.at(-1)!.name}: ${rows.at(-1)!.value}, ${rows.at(-1)!.note}`);
  }

  // 300 frames with masks, 1280x720: the clip-import write path, then the editor's per-frame paths.
  const N = 300;
  const frameClip = createDemoClip({ seed: 5, kind: 'slicing', width: 1280, height: 720, durationSec: N });
  const canvas = new OffscreenCanvas(1280, 720);
  const ctx = canvas.getContext('2d')!;
  const frames = [];
  const layers = [];
  log('rendering 300 frames + masks (not timed)…');
  for (let k = 0; k < N; k++) {
    // Every 10th frame is rendered; the rest reuse it, so the bench measures storage, not the renderer.
    if (k % 10 === 0) {
      const img = frameClip.renderAt(k);
      ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), 1280, 720), 0, 0);
    }
    const image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    frames.push({ timestampSec: k, image, mime: 'image/jpeg' });
    const { act, trf } = encodeLayer(frameClip.groundTruthAt(k - (k % 10)));
    layers.push({ frameIndex: k, source: 'gt' as const, act, trf, provenance: { kind: 'demo' as const, by: 'bench', at: Date.now() } });
  }
  const db = await openSpocDb(`spoc-bench-${Date.now()}`);
  const project = await createProject(db, { name: 'bench' });
  const draft = {
    projectId: project.id,
    clip: {
      projectId: project.id, name: 'bench', width: 1280, height: 720, frameCount: N, sampleFps: 1,
      source: { kind: 'demo' as const, fileName: 'bench' }, osc: { verb: 'slicing', noun: 'bread', actionable: 'whole bread', transformed: 'sliced bread' },
      subset: 'seen' as const, status: 'todo' as const,
    },
    frames,
    layers,
  };
  let start = performance.now();
  const [stored] = await commitClipImports(db, [draft]);
  rows.push({ name: 'IndexedDB: commit 300 frames (JPEG + masks) in one transaction', value: `${((performance.now() - start) / N).toFixed(2)} ms per frame` });

  start = performance.now();
  for (let k = 0; k < N; k++) await putLayer(db, { clipId: stored.id, frameIndex: k, source: 'gt', act: layers[k].act, trf: layers[k].trf, provenance: layers[k].provenance });
  rows.push({ name: 'IndexedDB: save one frame\'s masks (editor path), 300 times', value: `${((performance.now() - start) / N).toFixed(2)} ms per frame` });

  start = performance.now();
  let pixels = 0;
  for (let k = 0; k < N; k++) {
    const img = await getFrameImage(db, stored.id, k);
    const layer = await getLayer(db, stored.id, 'gt', k);
    const bitmap = await createImageBitmap(img!.blob);
    pixels += bitmap.width;
    bitmap.close();
    pixels += decodeLayer(parseLayer(layer)).data.length > 0 ? 1 : 0;
  }
  rows.push({ name: 'IndexedDB: read 300 frames + masks and decode both', value: `${((performance.now() - start) / N).toFixed(2)} ms per frame`, note: pixels > 0 ? undefined : 'nothing read' });
  db.close();
  await indexedDB.deleteDatabase(db.name);
  return rows;
}
