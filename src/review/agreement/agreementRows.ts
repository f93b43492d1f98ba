/**
 * Per-frame agreement of two stored sources of a clip (A, usually gt, and B, e.g. ann:<name>):
 * metrics/agreement.ts frameAgreement on the decoded layers, a few frames at a time with a yield in
 * between, and cached per frame by both layers' updatedAt so an edit recounts only its frame (the
 * cache keeps only the rows of the last call).
 * A frame without a gt layer is an all-background gt (every frame is a gt frame); a frame without a
 * layer of any other source was not annotated there and is skipped as 'missing'.
 */
import { frameAgreement, type FrameAgreement } from '../../metrics/agreement';
import type { LabelMap } from '../../masks/labelMap';
import type { Frame, Layer, LayerSource } from '../../store/types';
import { layerMap } from '../ui/overlayImage';

export interface AgreementRow extends FrameAgreement {
  /** Mean of the two state IoUs where defined (NaN when neither is), the list's sort key. */
  miou: number;
}

export type AgreementCache = Map<string, AgreementRow>;

export interface AgreementInput {
  size: { width: number; height: number };
  frames: readonly Pick<Frame, 'index' | 'ignored'>[];
  a: { source: LayerSource; layers: readonly Layer[] };
  b: { source: LayerSource; layers: readonly Layer[] };
}

export interface AgreementRowOptions {
  cache?: AgreementCache;
  chunk?: number;
  signal?: AbortSignal;
  yieldNow?: () => Promise<void>;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function meanIou(act: number, trf: number): number {
  const defined = [act, trf].filter(Number.isFinite);
  return defined.length === 0 ? NaN : defined.reduce((s, v) => s + v, 0) / defined.length;
}

function sideMap(source: LayerSource, layer: Layer | undefined, size: { width: number; height: number }): LabelMap | null {
  if (!layer) return source === 'gt' ? layerMap(null, size) : null;
  return layerMap(layer, size);
}

export async function agreementRows(input: AgreementInput, options: AgreementRowOptions = {}): Promise<AgreementRow[]> {
  const { cache, chunk = 4, signal, yieldNow = macrotask } = options;
  const byFrame = (layers: readonly Layer[]) => new Map(layers.map((l) => [l.frameIndex, l]));
  const la = byFrame(input.a.layers);
  const lb = byFrame(input.b.layers);
  const frames = [...input.frames].sort((x, y) => x.index - y.index);
  const out: AgreementRow[] = [];
  const used = new Set<string>();
  let decoded = 0;
  for (const f of frames) {
    signal?.throwIfAborted();
    const k = f.index;
    const skip = (skipped: 'ignored' | 'missing'): AgreementRow => ({ index: k, skipped, counts: null, act: NaN, trf: NaN, object: NaN, miou: NaN, disputed: 0, stateSwaps: 0, extentDisputes: 0 });
    if (f.ignored) {
      out.push(skip('ignored'));
      continue;
    }
    const ya = la.get(k);
    const yb = lb.get(k);
    const key = `${input.a.source}|${input.b.source}|${k}|${ya?.updatedAt ?? '-'}|${yb?.updatedAt ?? '-'}`;
    used.add(key);
    const hit = cache?.get(key);
    if (hit) {
      out.push(hit);
      continue;
    }
    const ma = sideMap(input.a.source, ya, input.size);
    const mb = sideMap(input.b.source, yb, input.size);
    if (!ma || !mb) {
      out.push(skip('missing'));
      continue;
    }
    const fa = frameAgreement(ma, mb, k);
    const row: AgreementRow = { ...fa, miou: meanIou(fa.act, fa.trf) };
    cache?.set(key, row);
    out.push(row);
    if (++decoded % Math.max(1, chunk) === 0) await yieldNow();
  }
  // Rows of layers since edited, or of another pair of sources, are never asked for again.
  if (cache) for (const key of cache.keys()) if (!used.has(key)) cache.delete(key);
  return out;
}

export type AgreementSort = 'frame' | 'iou' | 'disputed';

/** Frame order, lowest mIoU first, or most disputed pixels first; skipped frames last, undefined IoUs after defined ones. */
export function sortAgreement(rows: readonly AgreementRow[], by: AgreementSort): AgreementRow[] {
  const rank = (r: AgreementRow) => (r.skipped ? 2 : Number.isFinite(r.miou) ? 0 : 1);
  return [...rows].sort((x, y) => {
    if (by === 'frame') return x.index - y.index;
    const d = rank(x) - rank(y);
    if (d !== 0) return d;
    if (by === 'iou' && rank(x) === 0 && x.miou !== y.miou) return x.miou - y.miou;
    if (by === 'disputed' && x.disputed !== y.disputed) return y.disputed - x.disputed;
    return x.index - y.index;
  });
}
