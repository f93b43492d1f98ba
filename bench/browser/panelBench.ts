/**
 * Seeds the clip for the metric-panel benchmark (runs in the page): 300 frames at 854x480 with gt
 * on every frame, phases (initial / transitioning / end by thirds) and a `pred:bench` source on every
 * frame that overlaps the gt without equalling it, so the compare panel has to decode and count all
 * 300 frames (its worst case: no frame can be scored from areas alone).
 */
import { createDemoClip } from '../../src/demo/generator';
import { encodeLayer } from '../../src/masks/layers';
import { openSpocDb } from '../../src/store/db';
import { createProject } from '../../src/store/projects';
import { commitClipImports, type ClipImportDraft, type DraftLayer } from '../../src/store/importCommit';
import type { FramePhase } from '../../src/store/types';

export const PANEL_BENCH_FRAMES = 300;

export async function seedPanelBench(): Promise<{ clipId: string }> {
  const width = 854;
  const height = 480;
  const n = PANEL_BENCH_FRAMES;
  const clip = createDemoClip({ seed: 23, kind: 'peeling', width, height, durationSec: n });
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const frames = [];
  const layers: DraftLayer[] = [];
  let image: Blob | null = null;
  const provenance = { kind: 'demo' as const, by: 'bench', at: Date.now() };
  // 20 distinct pictures and masks, repeated: the benchmark measures the panels, not the generator.
  const distinct = 20;
  const step = n / distinct;
  const gtOf = new Map<number, ReturnType<typeof encodeLayer>>();
  const predOf = new Map<number, ReturnType<typeof encodeLayer>>();
  for (let d = 0; d < distinct; d++) {
    const t = d * step;
    gtOf.set(d, encodeLayer(clip.groundTruthAt(t)));
    // The prediction runs a few seconds behind: overlapping, not equal.
    predOf.set(d, encodeLayer(clip.groundTruthAt(Math.max(0, t - 4))));
  }
  for (let k = 0; k < n; k++) {
    const d = Math.floor(k / step);
    if (k % step === 0) {
      const img = clip.renderAt(d * step, { frameIndex: k });
      ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), width, height), 0, 0);
      image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
    }
    const phase: FramePhase = k < n / 3 ? 'initial' : k < (2 * n) / 3 ? 'transitioning' : 'end';
    frames.push({ timestampSec: k, image: image!, mime: 'image/jpeg', phase });
    layers.push({ frameIndex: k, source: 'gt', ...gtOf.get(d)!, provenance });
    layers.push({ frameIndex: k, source: 'pred:bench', ...predOf.get(d)!, provenance });
  }
  const db = await openSpocDb();
  const project = await createProject(db, { name: 'panel bench' });
  const draft: ClipImportDraft = {
    projectId: project.id,
    clip: {
      projectId: project.id, name: 'panels 854x480 x300', width, height, frameCount: n, sampleFps: 1,
      source: { kind: 'demo', fileName: 'panel bench' }, osc: { verb: 'peeling', noun: 'potato', actionable: 'unpeeled potato', transformed: 'peeled potato' },
      subset: 'seen', status: 'in_progress',
    },
    frames,
    layers,
  };
  const [stored] = await commitClipImports(db, [draft]);
  return { clipId: stored.id };
}
