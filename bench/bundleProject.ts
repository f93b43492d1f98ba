/**
 * A generated project for the bundle benches (Node and browser): `clips` clips of `frames` frames,
 * each frame a real JPEG of the demo generator (20 distinct renders, reused across clips so the
 * setup stays fast; every frame is still its own stored Blob), exact gt masks per frame, a few
 * revisions per clip and a prediction source on every fifth frame. Setup is not timed.
 */
import { createDemoClip } from '../src/demo';
import { encodeLayer } from '../src/masks/layers';
import type { SpocDb } from '../src/store/db';
import { commitClipImports, type ClipImportDraft, type DraftLayer } from '../src/store/importCommit';
import { newRowId } from '../src/store/ids';
import { createProject } from '../src/store/projects';
import type { Project, RevisionInput } from '../src/store/types';

export interface BenchProjectOptions {
  clips: number;
  frames: number;
  width: number;
  height: number;
}

/** RGBA pixels to JPEG bytes: jpeg-js in Node, a canvas in the browser (jpeg-js needs Node's Buffer). */
export type JpegEncoder = (rgba: Uint8ClampedArray | Uint8Array, width: number, height: number) => Promise<Uint8Array>;

export async function seedBenchProject(db: SpocDb, o: BenchProjectOptions, encodeJpeg: JpegEncoder, log: (s: string) => void = () => {}): Promise<Project> {
  const demo = createDemoClip({ seed: 7, kind: 'slicing', width: o.width, height: o.height, durationSec: o.frames });
  const distinct = Math.min(20, o.frames);
  const jpegs: Uint8Array[] = [];
  const masks = [];
  for (let k = 0; k < o.frames; k++) {
    if (k < distinct) {
      const rgba = demo.renderAt(k, { frameIndex: k });
      jpegs.push(await encodeJpeg(rgba.data, o.width, o.height));
    }
    masks.push(encodeLayer(demo.groundTruthAt(k)));
  }
  log(`  ${distinct} distinct JPEG frames, ${(jpegs.reduce((n, j) => n + j.length, 0) / distinct / 1024).toFixed(0)} KB on average`);
  const project = await createProject(db, { name: `bench ${o.clips} clips` });
  const batch = 10;
  for (let c0 = 0; c0 < o.clips; c0 += batch) {
    const drafts: ClipImportDraft[] = [];
    for (let c = c0; c < Math.min(o.clips, c0 + batch); c++) {
      const layers: DraftLayer[] = masks.map((m, k) => ({ frameIndex: k, source: 'gt', act: m.act, trf: m.trf, provenance: { kind: 'manual', by: 'bench', at: 1 } }));
      for (let k = 0; k < o.frames; k += 5) layers.push({ frameIndex: k, source: 'pred:model', act: masks[k].act, trf: masks[k].trf, provenance: { kind: 'imported', by: 'model', at: 2 } });
      drafts.push({
        projectId: project.id,
        clip: {
          projectId: project.id, name: `clip ${String(c).padStart(4, '0')}`, width: o.width, height: o.height, frameCount: o.frames, sampleFps: 1,
          source: { kind: 'demo', fileName: 'bench' }, osc: { verb: 'slicing', noun: 'bread', actionable: 'whole bread', transformed: 'sliced bread' },
          subset: 'seen', status: 'in_progress',
        },
        frames: Array.from({ length: o.frames }, (_, k) => ({ timestampSec: k, image: new Blob([jpegs[k % distinct] as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), mime: 'image/jpeg', phase: demo.phaseAt(k) })),
        layers,
        thumbnail: new Blob([jpegs[0] as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
      });
    }
    const clips = await commitClipImports(db, drafts);
    // A few brush revisions per clip (16x16 boxes), as painting leaves them.
    const revisions: (RevisionInput & { id: string })[] = [];
    for (const clip of clips) {
      for (let r = 0; r < 5; r++) {
        const box = { x: 10 * r, y: 10, w: 16, h: 16 };
        revisions.push({ id: newRowId(), clipId: clip.id, frameIndex: r, source: 'gt', author: 'bench', at: 1000 + r, action: 'brush', box, before: { size: [16, 16], counts: 'P8' }, after: { size: [16, 16], counts: '0P8' } });
      }
    }
    await db.revisions.bulkAdd(revisions);
    if (c0 % 50 === 0 && c0 > 0) log(`  seeded ${c0} clips`);
  }
  return project;
}
