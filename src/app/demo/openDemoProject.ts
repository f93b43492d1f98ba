/**
 * The demo project: three generated state changes (grating, peeling, slicing) with camera jitter,
 * a lighting change and a second, untouched instance. The first clip comes annotated (ground truth
 * and phases, an example of finished work); the other two are left to paint, with the generator's
 * exact masks kept as the source `pred:generator` so painting can be scored against the truth.
 * Seeds are fixed: every browser gets the same demo, and tests can rely on it.
 */
import type { SpocDb } from '../../store/db';
import { newProjectRow } from '../../store/projects';
import { commitClipImports, type ClipImportDraft, type DraftLayer } from '../../store/importCommit';
import type { Project } from '../../store/types';
import { renderDemoFrames } from '../../io/demo/runDemoWorker';
import { makeThumbnail } from '../../io/images/browserImages';
import { clipDraft } from '../../io/clipDrafts';
import type { DemoKind } from '../../demo/generator';

export const DEMO_PROJECT_NAME = 'Demo: object state changes';
export const DEMO_CLIPS: { kind: DemoKind; seed: number; annotated: boolean }[] = [
  { kind: 'grating', seed: 1, annotated: true },
  { kind: 'peeling', seed: 2, annotated: false },
  { kind: 'slicing', seed: 3, annotated: false },
];
export const DEMO_SIZE = { width: 640, height: 360, durationSec: 20, fps: 1 };
export const GENERATOR_SOURCE = 'pred:generator' as const;

export async function openDemoProject(db: SpocDb, author: string, onProgress?: (done: number, total: number) => void): Promise<Project> {
  const framesPerClip = Math.ceil(DEMO_SIZE.durationSec * DEMO_SIZE.fps);
  const total = framesPerClip * DEMO_CLIPS.length;
  // The clips render in parallel, one worker each (the machine's cores share them); progress is the sum.
  const done = DEMO_CLIPS.map(() => 0);
  const renders = DEMO_CLIPS.map((spec, i) =>
    renderDemoFrames({ seed: spec.seed, kind: spec.kind, ...DEMO_SIZE }, (d) => {
      done[i] = d;
      onProgress?.(done.reduce((a, b) => a + b, 0), total);
    }),
  );
  const all = await Promise.all(renders);
  const drafts: ClipImportDraft[] = [];
  for (const [i, spec] of DEMO_CLIPS.entries()) {
    const rendered = all[i];
    const at = Date.now();
    const layers: DraftLayer[] = rendered.frames.map((f, k) => ({
      frameIndex: k,
      source: spec.annotated ? 'gt' : GENERATOR_SOURCE,
      act: f.act,
      trf: f.trf,
      provenance: { kind: 'demo', by: 'demo generator', at, from: `${spec.kind} seed ${spec.seed}` },
    }));
    const draft = clipDraft(
      { projectId: '', author },
      { verb: rendered.meta.verb, noun: rendered.meta.noun, actionable: rendered.meta.actionable, transformed: rendered.meta.transformed },
      {
        name: rendered.meta.name,
        width: rendered.width,
        height: rendered.height,
        sampleFps: DEMO_SIZE.fps,
        source: { kind: 'demo', fileName: `${spec.kind} seed ${spec.seed}`, durationSec: DEMO_SIZE.durationSec },
        frames: rendered.frames.map((f) => ({ timestampSec: f.timestampSec, image: f.image, mime: 'image/jpeg', phase: spec.annotated ? f.phase : undefined })),
        layers,
      },
    );
    if (!spec.annotated) draft.clip.status = 'todo';
    draft.thumbnail = await makeThumbnail(rendered.frames[0].image);
    drafts.push(draft);
  }
  // Project and clips in one transaction: the demo appears whole or not at all.
  const project = newProjectRow({ name: DEMO_PROJECT_NAME });
  for (const d of drafts) {
    d.projectId = project.id;
    d.clip.projectId = project.id;
  }
  await commitClipImports(db, drafts, { newProject: project });
  return project;
}
