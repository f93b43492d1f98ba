import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { encodeLayer } from '../../masks/layers';
import { commitClipImports, type DraftLayer } from '../../store/importCommit';
import { createProject } from '../../store/projects';
import { setFrameIgnored, setFrameReviewed } from '../../store/frames';
import { putLayer } from '../../store/layers';
import { clipDraft, freshDb, pngBlob } from '../../testing/storeFixtures';
import type { FramePhase } from '../../store/types';
import { countClip, evaluateSpoc, type EvalClip } from '../spoc';
import { CountCache, countProject } from './projectEval';

const W = 8;
const H = 6;

function rect(x: number, y: number, w: number, h: number, label: number, base?: LabelMap): LabelMap {
  const map = base ? { ...base, data: base.data.slice() } : createLabelMap(W, H);
  for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) map.data[r * W + c] = label;
  return map;
}

function layer(frameIndex: number, source: DraftLayer['source'], map: LabelMap): DraftLayer {
  return { frameIndex, source, ...encodeLayer(map), provenance: { kind: 'imported', by: 'test', at: 1 } };
}

describe('countProject', () => {
  it('counts like countClip on the same maps: missing gt = empty, missing prediction = empty, ignored left out', async () => {
    const db = await freshDb();
    const project = await createProject(db, { name: 'p' });
    const gt: (LabelMap | null)[] = [rect(0, 0, 4, 3, 1), rect(2, 2, 4, 4, 2, rect(0, 0, 3, 2, 1)), null, rect(1, 1, 5, 5, 2)];
    const pred: (LabelMap | null)[] = [rect(1, 0, 4, 3, 1), null, rect(0, 0, 2, 2, 2), rect(2, 1, 5, 5, 2)];
    const phases: (FramePhase | undefined)[] = ['initial', 'transitioning', 'transitioning', 'end'];
    const [clip] = await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { name: 'a', frameCount: 4, osc: { verb: 'Peeling', noun: 'Potato', actionable: 'x', transformed: 'y' } }),
        frames: phases.map((phase, i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png', phase })),
        layers: [
          ...gt.flatMap((m, k) => (m ? [layer(k, 'gt', m)] : [])),
          ...pred.flatMap((m, k) => (m ? [layer(k, 'pred:m', m)] : [])),
        ],
      },
    ]);
    const [other] = await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { name: 'b', frameCount: 2, subset: 'novel' }),
        frames: [0, 1].map((i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png' })),
        layers: [layer(0, 'gt', rect(0, 0, 8, 6, 1))],
      },
    ]);
    await setFrameIgnored(db, clip.id, 3, { reason: 'too_blurry' });

    const cache = new CountCache();
    const got = await countProject(db, [clip, other], 'pred:m', { cache });
    const empty = createLabelMap(W, H);
    const expected: EvalClip[] = [
      {
        id: clip.id,
        verb: 'peeling',
        noun: 'potato',
        subset: 'seen',
        frames: gt.map((g, k) => ({ gt: g ?? empty, pred: pred[k], phase: phases[k], ignored: k === 3 })),
      },
      { id: other.id, verb: 'peel', noun: 'banana', subset: 'novel', frames: [{ gt: rect(0, 0, 8, 6, 1), pred: null }, { gt: empty, pred: null }] },
    ];
    expect(got.clips).toEqual(expected.map(countClip));
    expect(got.withoutSource).toEqual(['b']);
    expect(got.decoded).toBe(1); // frames 0 and 3 have pixels on both sides; 3 is ignored, so never decoded
    expect(evaluateSpoc(got.clips)).toEqual(evaluateSpoc(expected.map(countClip)));

    // Unchanged layers come from the cache; a changed one is recounted.
    const again = await countProject(db, [clip, other], 'pred:m', { cache });
    expect(again.decoded).toBe(0);
    await putLayer(db, { clipId: clip.id, ...layer(0, 'pred:m', rect(0, 0, 4, 3, 1)) });
    const third = await countProject(db, [clip, other], 'pred:m', { cache });
    expect(third.decoded).toBe(1);
    expect(third.clips[0].frames[0].counts).toEqual({ iAct: 12, uAct: 12, iTrf: 0, uTrf: 0, iObj: 12, uObj: 12 });
  });

  it("with frames: 'annotated' keeps only frames with gt pixels or marked reviewed", async () => {
    const db = await freshDb();
    const project = await createProject(db, { name: 'p' });
    const [clip] = await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { frameCount: 3 }),
        frames: [0, 1, 2].map((i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png' })),
        layers: [layer(0, 'gt', rect(0, 0, 2, 2, 1)), layer(1, 'pred:m', rect(0, 0, 2, 2, 1))],
      },
    ]);
    await setFrameReviewed(db, clip.id, 2, true);
    const got = await countProject(db, [clip], 'pred:m', { frames: 'annotated' });
    expect(got.clips[0].frames).toHaveLength(2);
  });

  it('stops when aborted', async () => {
    const db = await freshDb();
    const project = await createProject(db, { name: 'p' });
    const [clip] = await commitClipImports(db, [
      { projectId: project.id, clip: clipDraft(project.id, { frameCount: 1 }), frames: [{ timestampSec: 0, image: pngBlob(0), mime: 'image/png' }] },
    ]);
    const ac = new AbortController();
    ac.abort();
    await expect(countProject(db, [clip], 'pred:m', { signal: ac.signal })).rejects.toThrow(/cancelled/);
  });
});
