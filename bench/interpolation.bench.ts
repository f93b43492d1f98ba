/**
 * Interpolation of one object across 60 frames between two keyframes at 1080p with the
 * weight-free tracker (docs/objects.md "Keyframes and interpolation"): `npm run bench interpolation`.
 * The whole path the app runs — the directional propagation steps (template matching + GrabCut
 * through the real OpenCV.js, in process here instead of the worker), the distance-weighted fusion,
 * and each frame written through `EditorSession.edit` into IndexedDB (fake-indexeddb in Node) with
 * its provenance — timed as a whole, with the time inside the tracker's two calls and inside the
 * demo renderer (the app reads decoded frames from its cache instead) measured apart. Prints
 * figures only; nothing here asserts.
 */
import { createDemoClip } from '../src/demo/generator';
import { nodeCv } from '../src/testing/opencv';
import { ClassicalClient } from '../src/inference/classical/classicalClient';
import { inProcessTransport } from '../src/rpc/transport';
import { createClassicalHandler } from '../src/inference/classical/handler';
import type { TrackBackend } from '../src/inference/propagate/track';
import type { FlowPropagationBackend } from '../src/inference/propagate/propagateFrame';
import { directionalStep } from '../src/inference/propagate/directional';
import type { RgbaImage } from '../src/masks/labelMap';
import { freshDb, importDraft } from '../src/testing/storeFixtures';
import { createProject } from '../src/store/projects';
import { commitClipImport } from '../src/store/importCommit';
import { createClipObject } from '../src/store/objects';
import { listLayers } from '../src/store/layers';
import { codecFor } from '../src/annotator/pixelCodec';
import { EditorSession } from '../src/annotator/session/editorSession';
import { toggleKeyframe } from '../src/objects/keyframes';
import { DEFAULT_SPAN_RULES } from '../src/objects/interpolation/spans';
import { DEFAULT_SETTINGS, interpolateObjects } from '../src/objects/ui/sessionInterpolation';

const WIDTH = 1920;
const HEIGHT = 1080;
const BETWEEN = Number(process.env.INTERP_FRAMES ?? 60);
const N = BETWEEN + 2;

const client = new ClassicalClient(inProcessTransport(createClassicalHandler(nodeCv)));
let trackerMs = 0;
let trackerCalls = 0;
async function timed<T>(work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    trackerMs += performance.now() - t0;
    trackerCalls++;
  }
}
/**
 * INTERP_TRACKER=stand-in: a tracker that answers at once (no shift, no re-fit), so the run times
 * everything but the tracker exactly; the default runs the real one.
 */
const standIn = process.env.INTERP_TRACKER === 'stand-in';
const backend: FlowPropagationBackend & TrackBackend = standIn
  ? {
      propagateByFlow: (_a, _b, l) => timed(async () => ({ map: l, confidence: 0.9 })),
      estimateShifts: (_a, _b, q) => timed(async () => q.map(() => ({ dx: 0, dy: 0, rms: 4, ambiguity: 0.1, work: 0 }))),
      refitLabels: (_image, carried) => timed(async () => ({ map: carried, groups: [] })),
    }
  : {
      propagateByFlow: (a, b, l) => timed(() => client.propagateByFlow(a, b, l)),
      estimateShifts: (a, b, q) => timed(() => client.estimateShifts(a, b, q)),
      refitLabels: (image, carried, options) => timed(() => client.refitLabels(image, carried, options)),
    };

// Warm OpenCV up outside the timing.
await nodeCv();
const clip = createDemoClip({ seed: 2, kind: 'peeling', width: WIDTH, height: HEIGHT, durationSec: N });
let renderMs = 0;
const recent = new Map<number, RgbaImage>();
function frame(k: number): RgbaImage {
  let img = recent.get(k);
  if (!img) {
    const t0 = performance.now();
    img = clip.renderAt(k, { frameIndex: k });
    renderMs += performance.now() - t0;
    recent.set(k, img);
    if (recent.size > 4) recent.delete(recent.keys().next().value!);
  }
  return img;
}

const db = await freshDb();
const project = await createProject(db, { name: 'bench', kind: 'objects' });
const draft = importDraft(project.id, N, { layers: [] });
const stored = await commitClipImport(db, { ...draft, clip: { ...draft.clip, width: WIDTH, height: HEIGHT, frameCount: N } });
const object = await createClipObject(db, { clipId: stored.id, by: 'bench', name: 'potato' });
const session = await EditorSession.open(db, stored, 'bench', 0, { codec: codecFor(project) });
const slot = session.slotOf(object.id);
let objectArea = 0;
for (const k of [0, N - 1]) {
  const truth = clip.groundTruthAt(k);
  await session.edit(k, 'paint', (map) => map.data.map((_, i) => (truth.data[i] ? slot : 0)));
  await session.edit(k, 'keyframe', () => null, { objects: toggleKeyframe(object.id, WIDTH, HEIGHT) });
  objectArea = Math.max(objectArea, truth.data.reduce((n, v) => n + (v ? 1 : 0), 0));
}
await session.flush();

const step = directionalStep({ kind: 'flow', backend }, { getImage: async (k) => frame(k), frameKey: (k) => `bench/${k}` }, N);
trackerMs = 0;
trackerCalls = 0;
renderMs = 0;
const t0 = performance.now();
const [report] = await interpolateObjects(session, [{ id: object.id, hand: false }], { ...DEFAULT_SETTINGS, rules: { ...DEFAULT_SPAN_RULES, maxFramesBetween: BETWEEN } }, {
  step,
  layers: () => listLayers(db, stored.id, 'gt'),
  by: 'weight-free tracker',
  // A running account on stderr, so a run cut short still leaves figures.
  onProgress: (text) => console.error(`${text} · ${((performance.now() - t0) / 1000).toFixed(1)} s, tracker ${(trackerMs / 1000).toFixed(1)} s (${trackerCalls} calls), rendering ${(renderMs / 1000).toFixed(1)} s`),
});
await session.flush();
const totalMs = performance.now() - t0;
await session.close();
const span = report.spans[0];
const rest = totalMs - trackerMs - renderMs;
console.log(
  `interpolation, ${WIDTH}x${HEIGHT}, ${BETWEEN} frames between two keyframes (object ~${objectArea} px), ${standIn ? 'stand-in tracker (answers at once)' : 'weight-free tracker'}: ` +
    `${span.frames} frames written (${span.status}, mean confidence ${(span.confidence ?? 0).toFixed(2)}) in ${(totalMs / 1000).toFixed(1)} s · ` +
    `per frame ${(totalMs / BETWEEN).toFixed(0)} ms: tracker ${(trackerMs / BETWEEN).toFixed(0)} ms (${trackerCalls} calls, both directions), ` +
    `demo frame rendering ${(renderMs / BETWEEN).toFixed(0)} ms, everything else ${(rest / BETWEEN).toFixed(1)} ms (target ≤ 50 ms: fusion, masks, session edits, RLE encoding, IndexedDB writes)`,
);
db.close();
