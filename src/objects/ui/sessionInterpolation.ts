/**
 * Interpolation meets the editor session (docs/objects.md "Keyframes and interpolation"): per object,
 * its keyframes are read from the clip's layers, VISOR's rules pick the spans (spans.ts), the
 * held-out checks run where three keyframes allow (run.ts heldOutCheck), and every kept span is
 * filled frame by frame through `EditorSession.edit` — each frame one edit, so one undo step on that
 * frame (the session's history is per frame), its revision named `interpolate`, written without
 * showing the frame. A written frame's object gets provenance `interpolated` with the frame's
 * confidence. Keyframes are never written: the spans lie strictly between them, and on a frame
 * the object's old pixels give way to the fused mask while other objects keep theirs.
 */
import type { EditorSession } from '../../annotator/session/editorSession';
import type { LabelMap } from '../../masks/labelMap';
import type { LayerObject } from '../../store/types';
import { keyframesOf, withProvenance } from '../keyframes';
import type { FusionMode } from '../interpolation/fuse';
import { heldOutCheck, interpolateSpan, spanVerdict, type DirectionalStep, type HeldOutResult, type InterpolatedFrame } from '../interpolation/run';
import { heldOutTriples, planSpans, SKIP_TEXT, type SpanDirection, type SpanRules } from '../interpolation/spans';

export interface InterpolationSettings {
  rules: SpanRules;
  fusion: FusionMode;
  /** Run the held-out keyframe checks and keep a span only when they reach `threshold` (J&F). */
  check: boolean;
  threshold: number;
  /** Fill spans no check covers (an object with only two keyframes); off: only checked spans are written. */
  writeUnchecked: boolean;
}

export const DEFAULT_SETTINGS: Omit<InterpolationSettings, 'rules'> = { fusion: 'soft', check: true, threshold: 0.85, writeUnchecked: true };

export interface SpanReport {
  a: number;
  b: number;
  /** written; or skipped by a rule (reason), or rejected by the held-out check. */
  status: 'written' | 'skipped' | 'rejected';
  reason?: string;
  direction?: SpanDirection;
  verdict?: 'kept' | 'rejected' | 'unchecked';
  frames: number;
  /** Mean confidence of the written frames. */
  confidence?: number;
}

export interface ObjectReport {
  objectId: string;
  spans: SpanReport[];
  checks: HeldOutResult[];
}

export interface InterpolationTarget {
  id: string;
  hand: boolean;
}

export interface RunHooks {
  step: DirectionalStep;
  /** Every frame's layer objects of the clip (the store, after the session flushed). */
  layers: () => Promise<readonly { frameIndex: number; objects?: readonly LayerObject[] }[]>;
  /** Who made it, for the provenance: the method ("weight-free tracker", a SAM model id). */
  by: string;
  onProgress?: (text: string) => void;
  signal?: AbortSignal;
}

/** The object's pixels on a frame of the session as a binary map. */
function objectMask(map: LabelMap, slot: number): LabelMap {
  const data = new Uint8Array(map.data.length);
  for (let i = 0; i < data.length; i++) if (map.data[i] === slot) data[i] = 1;
  return { width: map.width, height: map.height, data };
}

/** Frame t's next labels: the object's old pixels cleared, the fused mask written where no other object is. */
export function placeObject(map: LabelMap, slot: number, mask: Uint8Array): Uint8Array {
  const next = map.data.slice();
  for (let i = 0; i < next.length; i++) {
    if (next[i] === slot) next[i] = 0;
    if (mask[i] && next[i] === 0) next[i] = slot;
  }
  return next;
}

export async function interpolateObjects(session: EditorSession, targets: readonly InterpolationTarget[], settings: InterpolationSettings, hooks: RunHooks): Promise<ObjectReport[]> {
  await session.flush();
  const layers = await hooks.layers();
  const reports: ObjectReport[] = [];
  for (const target of targets) {
    const slot = session.slotOf(target.id);
    const keys = keyframesOf(layers, target.id);
    const masks = new Map<number, LabelMap>();
    const maskAt = async (k: number) => {
      let m = masks.get(k);
      if (!m) masks.set(k, (m = objectMask(await session.loadMap(k), slot)));
      return m;
    };
    const checks: HeldOutResult[] = [];
    if (settings.check) {
      for (const [a, k, b] of heldOutTriples(keys)) {
        if (b - a - 1 > settings.rules.maxFramesBetween) continue;
        hooks.onProgress?.(`checking across keyframe ${k + 1} (${a + 1}–${b + 1})`);
        checks.push(await heldOutCheck(hooks.step, a, k, b, { a: await maskAt(a), k: await maskAt(k), b: await maskAt(b) }, { fusion: settings.fusion, signal: hooks.signal }));
      }
    }
    const spans: SpanReport[] = [];
    for (const plan of planSpans(keys, target.hand, settings.rules)) {
      const { a, b } = plan;
      if (plan.kind === 'skip') {
        spans.push({ a, b, status: 'skipped', reason: SKIP_TEXT[plan.reason], frames: 0 });
        continue;
      }
      const verdict = settings.check ? spanVerdict(a, b, checks, settings.threshold) : 'unchecked';
      if (verdict === 'rejected' || (verdict === 'unchecked' && settings.check && !settings.writeUnchecked)) {
        spans.push({ a, b, status: 'rejected', verdict, direction: plan.direction, reason: verdict === 'rejected' ? `J&F across a held-out keyframe below ${settings.threshold}` : 'no held-out keyframe to check it', frames: 0 });
        continue;
      }
      const written: InterpolatedFrame[] = [];
      const write = async (f: InterpolatedFrame) => {
        hooks.onProgress?.(`frame ${f.frame + 1} (keyframes ${a + 1}–${b + 1}) · confidence ${f.confidence.toFixed(2)}`);
        const provenance = { kind: 'interpolated' as const, by: hooks.by, at: Date.now(), from: `keyframes ${a + 1}–${b + 1}`, confidence: f.confidence };
        const out = await session.edit(f.frame, 'interpolate', (map) => placeObject(map, slot, f.mask), { objects: withProvenance(target.id, provenance) });
        if (out.status === 'refused') throw new Error(out.reason);
        written.push({ ...f, mask: new Uint8Array(0) });
      };
      await interpolateSpan(hooks.step, { a, b, direction: plan.direction, first: plan.direction !== 'backward' ? await maskAt(a) : undefined, last: plan.direction !== 'forward' ? await maskAt(b) : undefined }, write, { fusion: settings.fusion, signal: hooks.signal });
      const mean = written.reduce((s, f) => s + f.confidence, 0) / Math.max(1, written.length);
      spans.push({ a, b, status: 'written', verdict, direction: plan.direction, frames: written.length, confidence: mean });
    }
    reports.push({ objectId: target.id, spans, checks });
  }
  return reports;
}
