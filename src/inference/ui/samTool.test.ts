/**
 * The SAM click tool on the tiny models with the real onnxruntime-web, through the in-process
 * dispatcher (everything the editor does except the worker and the canvas). The tiny decoder draws
 * discs around the mean of the positive points; a single click picks mask 2 (IoU 0.95), radius 64
 * in the 1024 frame = 40 px in a 640x360 frame.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import type { Patch } from '../../annotator/patch';
import type { PaintClass } from '../../annotator/paint/paintRule';
import type { PointerInput } from '../../annotator/tools/types';
import { TINY_SAM_RADII } from '../onnx/tiny/samOfficial';
import { TINY_TJS_RADII } from '../onnx/tiny/samTransformersJs';
import { discStats, inProcessClient, solidImage, tinyFiles } from '../../testing/inference';
import type { InferenceClient } from '../runtime/inferenceClient';
import { applySamMask, SamTool, type SamHost } from './samTool';
import { labelsPatch } from '../../annotator/frameOps';

const W = 640;
const H = 360;
const R = (TINY_SAM_RADII[2] * W) / 1024; // 40
const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });

let client: InferenceClient;
beforeAll(async () => {
  client = inProcessClient();
  await client.init();
  await client.load({ modelId: 'sam', family: 'sam-official', files: { encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') } });
});
afterAll(() => client.destroy());

function host(activeClass: PaintClass = 1, protect = true): SamHost & { patches: Patch[]; map: LabelMap; activeClass: PaintClass; protect: boolean } {
  const patches: Patch[] = [];
  const map = createLabelMap(W, H);
  // What EditorSession.edit does on the shown frame, minus storage: diff, apply, record the patch.
  const edit = (action: string, compute: (m: LabelMap) => Uint8Array | null) => {
    const next = compute(map);
    const p = next ? labelsPatch(map, next, 0, action) : null;
    if (p) patches.push(p);
    return p;
  };
  return { map, frameIndex: 0, activeClass, protect, patches, edit };
}

const click = (x: number, y: number, extra: Partial<PointerInput> = {}): PointerInput => ({ x, y, button: 0, shift: false, alt: false, ...extra });

function count(map: LabelMap, label: number): number {
  let n = 0;
  for (const v of map.data) if (v === label) n++;
  return n;
}

function tool(): SamTool {
  return new SamTool({ backend: client, modelId: 'sam', clipId: 'c', getImage: async () => solidImage(W, H, [120, 90, 60]), frameCount: 1 });
}

describe('SamTool (real ORT, tiny models)', () => {
  it('encodes the frame, previews a click as a disc, and accepts it as one patch of the active class', async () => {
    const t = tool();
    const h = host(1);
    const statuses: string[] = [];
    t.subscribe(() => statuses.push(t.status));
    await t.setFrame(h);
    expect(statuses.filter((x) => x !== 'idle')).toEqual(['embedding', 'ready']);
    t.onPointerDown(click(200.5, 150.5));
    t.onPointerUp(click(200.5, 150.5));
    await t.decode();
    const mask = t.preview!.mask!;
    const s = discStats(mask.data, W);
    expect(s.cx).toBeCloseTo(200.5, 0);
    expect(s.cy).toBeCloseTo(150.5, 0);
    expect(Math.abs(s.area - Math.PI * R * R)).toBeLessThan(0.02 * Math.PI * R * R);
    expect(count(h.map, 1)).toBe(0); // only a preview so far
    expect(t.candidates.length).toBe(4);

    expect(t.onKey('Enter')).toBe(true);
    expect(h.patches).toHaveLength(1);
    expect(h.patches[0].action).toBe('sam-replace');
    expect(count(h.map, 1)).toBe(s.area);
    expect(t.busy).toBe(false);
    expect(t.preview).toBeNull();
  });

  it('Tab cycles the alternatives; Escape clears the prompts', async () => {
    const t = tool();
    await t.setFrame(host());
    t.onPointerDown(click(320, 180));
    await t.decode();
    const areas = [t.preview!.mask!.area];
    expect(t.onKey('Tab')).toBe(true);
    areas.push(t.preview!.mask!.area);
    expect(t.selectedIndex).toBe(1);
    expect(areas[0]).not.toBe(areas[1]);
    t.onKey('Tab', true);
    expect(t.selectedIndex).toBe(0);
    expect(t.onKey('Escape')).toBe(true);
    expect(t.preview).toBeNull();
    expect(t.onKey('Enter')).toBe(false);
  });

  it('a second click refines with mask_input; negative clicks do not move the disc', async () => {
    const t = tool();
    await t.setFrame(host());
    t.onPointerDown(click(300, 180));
    await t.decode();
    const first = t.preview!.mask!.area;
    t.onPointerDown(click(100, 100, { button: 2 }));
    await t.decode();
    const second = discStats(t.preview!.mask!.data, W);
    // Same positive anchor; with more than one decoder point the official rule picks mask 0 (r 48),
    // (r 48 -> 30 px) and the previous low-res disc (r 40 px) is added to its logits: the result
    // lies between the two.
    const r0 = (TINY_SAM_RADII[0] * W) / 1024;
    expect(second.cx).toBeCloseTo(300, -1);
    expect(second.area).toBeGreaterThan(1.1 * Math.PI * r0 * r0);
    expect(second.area).toBeLessThan(first);
  });

  it('a Shift+drag box gives a disc around the box centre', async () => {
    const t = tool();
    await t.setFrame(host());
    t.onPointerDown(click(100, 100, { shift: true }));
    t.onPointerMove(click(180, 160, { shift: true }));
    expect(t.preview!.box).toEqual({ x0: 100, y0: 100, x1: 180, y1: 160 });
    t.onPointerUp(click(180, 160, { shift: true }));
    await t.decode();
    const s = discStats(t.preview!.mask!.data, W);
    expect(s.cx).toBeCloseTo(140, -1);
    expect(s.cy).toBeCloseTo(130, -1);
  });

  it('a click made while the frame is still being embedded waits for the embedding', async () => {
    const t = tool();
    const encoding = t.setFrame(host());
    t.onPointerDown(click(320, 180));
    expect(t.status).toBe('decoding');
    await encoding;
    await t.decode();
    expect(t.preview!.mask!.area).toBeGreaterThan(0.98 * Math.PI * R * R);
  });

  it('works the same on the transformers.js SAM layout (best IoU: mask 1, radius 64)', async () => {
    await client.load({
      modelId: 'tjs',
      family: 'sam-transformersjs',
      files: { encoder: bytes('tjs_vision_encoder.onnx'), decoder: bytes('tjs_prompt_encoder_mask_decoder.onnx') },
    });
    const t = new SamTool({ backend: client, modelId: 'tjs', clipId: 'c', getImage: async () => solidImage(W, H, [120, 90, 60]) });
    const h = host(2);
    await t.setFrame(h);
    t.onPointerDown(click(400.5, 200.5));
    await t.decode();
    const r = (TINY_TJS_RADII[1] * W) / 1024;
    const s = discStats(t.preview!.mask!.data, W);
    expect(Math.abs(s.area - Math.PI * r * r)).toBeLessThan(0.03 * Math.PI * r * r);
    t.onKey('Enter');
    expect(count(h.map, 2)).toBe(s.area);
  });

  it('replace clears the touched region of the active class, extend adds; protect spares the other class', () => {
    const map = createLabelMap(8, 1);
    map.data.set([1, 1, 0, 2, 2, 0, 1, 1]);
    const mask = { width: 8, height: 1, data: Uint8Array.from([0, 1, 1, 1, 0, 0, 0, 0]), area: 3, bbox: { x: 1, y: 0, w: 3, h: 1 } };
    expect([...applySamMask(map, mask, 1, true, 'replace')]).toEqual([0, 1, 1, 2, 2, 0, 1, 1]);
    expect([...applySamMask(map, mask, 1, true, 'extend')]).toEqual([1, 1, 1, 2, 2, 0, 1, 1]);
    expect([...applySamMask(map, mask, 1, false, 'extend')]).toEqual([1, 1, 1, 1, 2, 0, 1, 1]);
    expect([...applySamMask(map, mask, 2, true, 'replace')]).toEqual([1, 1, 2, 2, 0, 0, 1, 1]);
  });
});
