/**
 * Counts a project's clips for the project panel: every frame of every clip, a chosen source
 * against `gt`, as CountedClips for evaluateSpoc (../spoc.ts). Reads the store, so it lives with
 * the panels; the arithmetic is countFrame / countsFromAreas.
 *
 * Semantics, identical to `spoc-studio eval` on the same data exported as masks, because both walk
 * the frames planClipFrames (../evalFrames.ts) lays out:
 * - every frame of a clip is a GT frame; a frame without a gt layer is an all-background GT;
 * - a frame without a layer of the source is a missing prediction, scored as empty (and counted);
 *   a clip without any is scored like that on every frame;
 * - ignored frames are counted as ignored and left out of every score, phases come from the frame rows;
 * - verb, noun and seen/novel come from the clip.
 * Option `frames: 'annotated'` keeps only frames with gt pixels or marked reviewed (work in progress).
 */
import type { SpocDb } from '../../store/db';
import { listFrames } from '../../store/frames';
import { listLayers } from '../../store/layers';
import type { Clip, Layer, LayerSource } from '../../store/types';
import { decodeLayer, parseLayer } from '../../masks/layers';
import { type CountedClip, type CountedFrame, type FrameCounts, countFrame } from '../spoc';
import { countsFromAreas } from './compareCounts';
import { countedFrame, planClipFrames } from '../evalFrames';

export type FrameSelection = 'all' | 'annotated';

export interface ProjectCounts {
  clips: CountedClip[];
  /** Names of clips with no layer of the source (every frame a missing prediction). */
  withoutSource: string[];
  /** Frames whose masks had to be decoded (both sides non-empty). */
  decoded: number;
}

/** Counts per (clip, source, frame), valid while both layers keep their updatedAt. */
export class CountCache {
  private readonly entries = new Map<string, { stamp: string; counts: FrameCounts }>();

  get(key: string, stamp: string): FrameCounts | undefined {
    const e = this.entries.get(key);
    return e && e.stamp === stamp ? e.counts : undefined;
  }

  set(key: string, stamp: string, counts: FrameCounts): void {
    this.entries.set(key, { stamp, counts });
  }
}

export interface CountProjectOptions {
  frames?: FrameSelection;
  cache?: CountCache;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Work per chunk before yielding to the page (ms, default 12). */
  chunkMs?: number;
}

const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function abortError(): Error {
  return new DOMException('The evaluation was cancelled.', 'AbortError');
}

export async function countProject(db: SpocDb, clips: readonly Clip[], source: LayerSource, options: CountProjectOptions = {}): Promise<ProjectCounts> {
  const cache = options.cache ?? new CountCache();
  const chunkMs = options.chunkMs ?? 12;
  const total = clips.reduce((n, c) => n + c.frameCount, 0);
  const out: ProjectCounts = { clips: [], withoutSource: [], decoded: 0 };
  let done = 0;
  let chunkStart = performance.now();
  for (const clip of clips) {
    if (options.signal?.aborted) throw abortError();
    const [frames, gtLayers, predLayers] = await Promise.all([listFrames(db, clip.id), listLayers(db, clip.id, 'gt'), listLayers(db, clip.id, source)]);
    if (predLayers.length === 0) out.withoutSource.push(clip.name);
    const size = { width: clip.width, height: clip.height };
    const counted: CountedFrame[] = [];
    // Which frames count and how: the definition `spoc-studio eval` follows too (../evalFrames.ts).
    const plan = planClipFrames(
      frames.map((f) => ({ key: f.index, ignored: Boolean(f.ignored), phase: f.phase })),
      new Map(gtLayers.map((l) => [l.frameIndex, l])),
      new Map(predLayers.map((l) => [l.frameIndex, l])),
    );
    const reviewed = new Set(frames.filter((f) => f.reviewed).map((f) => f.index));
    for (const f of plan) {
      const g = f.gt;
      const p = f.pred;
      done++;
      if (options.frames === 'annotated' && !((g && g.actArea + g.trfArea > 0) || reviewed.has(f.key))) continue;
      let counts: FrameCounts | null = null;
      if (!f.ignored) {
        const key = `${clip.id}|${source}|${f.key}`;
        const stamp = `${stampOf(g)}|${stampOf(p)}`;
        counts = cache.get(key, stamp) ?? null;
        if (!counts) {
          counts = countsFromAreas(areasOf(g), p ? areasOf(p) : null);
          if (!counts) {
            counts = countFrame(decodeLayer(parseLayer(g!), size), decodeLayer(parseLayer(p!), size));
            out.decoded++;
          }
          cache.set(key, stamp, counts);
        }
      }
      counted.push(countedFrame(f, counts));
      if (performance.now() - chunkStart > chunkMs) {
        options.onProgress?.(done, total);
        await macrotask();
        if (options.signal?.aborted) throw abortError();
        chunkStart = performance.now();
      }
    }
    out.clips.push({ id: clip.id, verb: clip.osc.verb.trim().toLowerCase(), noun: clip.osc.noun.trim().toLowerCase(), subset: clip.subset, frames: counted });
  }
  options.onProgress?.(total, total);
  return out;
}

function stampOf(layer: Layer | undefined): string {
  return layer ? String(layer.updatedAt) : '-';
}

function areasOf(layer: Layer | undefined): { act: number; trf: number } {
  return layer ? { act: layer.actArea, trf: layer.trfArea } : { act: 0, trf: 0 };
}
