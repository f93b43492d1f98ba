/**
 * Per-frame counts of one source against `gt` for the compare panel, computed in chunks that yield
 * to the page (a 300-frame clip never blocks input for more than a few milliseconds), cached per
 * frame, and refreshed for the current frame alone after an edit.
 *
 * Frames where either side is empty are counted from the stored areas alone (countsFromAreas);
 * the others decode both layers and run countFrame from ../spoc.ts.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { StateAreas } from '../progress';
import { type FrameCounts, countFrame } from '../spoc';
import { countsFromAreas } from './compareCounts';

export interface CompareDeps {
  frameCount: number;
  /** GT map of frame k as the editor knows it. */
  loadGt: (k: number) => Promise<LabelMap>;
  /** The source's map of frame k, or null when it has no layer there. */
  loadPred: (source: string, k: number) => Promise<LabelMap | null>;
  /** Lets the page breathe between chunks (default: a macrotask). */
  yieldToPage?: () => Promise<void>;
  /** Work per chunk in ms (default 8). */
  chunkMs?: number;
  /** Called with the milliseconds each live recount of the current frame took (for benchmarks). */
  onRecount?: (ms: number) => void;
}

export interface CompareSnapshot {
  version: number;
  source: string | null;
  /** Counts per frame; undefined while not yet computed. */
  counts: readonly (FrameCounts | undefined)[];
  done: number;
  total: number;
  error: string | null;
}

const nowMs = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export class CompareModel {
  private source: string | null = null;
  private predAreas: ReadonlyMap<number, StateAreas> = new Map();
  private gt: { act: ArrayLike<number>; trf: ArrayLike<number> } = { act: [], trf: [] };
  private counts: (FrameCounts | undefined)[] = [];
  /** Frames counted from the editor's live map: the background job must not overwrite them. */
  private readonly live = new Set<number>();
  private predOfFrame: { source: string; k: number; map: LabelMap | null } | null = null;
  private token = 0;
  private error: string | null = null;
  private snap: CompareSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: CompareDeps) {
    this.snap = { version: 0, source: null, counts: [], done: 0, total: deps.frameCount, error: null };
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): CompareSnapshot => this.snap;

  /** GT areas per frame as the editor knows them (stored, or live for frames edited in this tab). */
  setGtAreas(areas: { act: ArrayLike<number>; trf: ArrayLike<number> }): void {
    this.gt = areas;
  }

  /** Compare `source` (whose stored areas are `predAreas`) with gt: recounts every frame in the background. */
  start(source: string | null, predAreas: ReadonlyMap<number, StateAreas>): Promise<void> {
    const token = ++this.token;
    this.source = source;
    this.predAreas = predAreas;
    this.counts = new Array(this.deps.frameCount);
    this.live.clear();
    this.predOfFrame = null;
    this.error = null;
    this.emit();
    if (source === null) return Promise.resolve();
    return this.run(token, source).catch((err: unknown) => {
      if (token !== this.token) return;
      this.error = err instanceof Error ? err.message : String(err);
      this.emit();
    });
  }

  /** Stops the background job (the panel unmounted). */
  stop(): void {
    this.token++;
  }

  /**
   * Frame k's GT changed in the editor (or the editor moved to it): recount it from `gtMap`.
   * The source's map of the frame is decoded once and kept while the editor stays there.
   */
  async recountLive(k: number, gtMap: LabelMap): Promise<void> {
    const source = this.source;
    if (source === null || k < 0 || k >= this.deps.frameCount) return;
    let pred: LabelMap | null;
    if (!this.predAreas.has(k)) pred = null;
    else if (this.predOfFrame && this.predOfFrame.source === source && this.predOfFrame.k === k) pred = this.predOfFrame.map;
    else {
      const token = this.token;
      pred = await this.deps.loadPred(source, k);
      if (token !== this.token) return;
      this.predOfFrame = { source, k, map: pred };
    }
    const t0 = nowMs();
    this.counts[k] = countFrame(gtMap, pred);
    this.live.add(k);
    this.emit();
    this.deps.onRecount?.(nowMs() - t0);
  }

  private async run(token: number, source: string): Promise<void> {
    const { frameCount, loadGt, loadPred } = this.deps;
    const yieldToPage = this.deps.yieldToPage ?? macrotask;
    const chunkMs = this.deps.chunkMs ?? 8;
    let chunkStart = nowMs();
    for (let k = 0; k < frameCount; k++) {
      if (token !== this.token) return;
      if (this.live.has(k)) continue;
      const pa = this.predAreas.get(k) ?? null;
      let c = countsFromAreas({ act: this.gt.act[k] ?? 0, trf: this.gt.trf[k] ?? 0 }, pa);
      if (!c) {
        const [g, p] = await Promise.all([loadGt(k), loadPred(source, k)]);
        if (token !== this.token) return;
        if (this.live.has(k)) continue;
        c = countFrame(g, p);
      }
      this.counts[k] = c;
      if (nowMs() - chunkStart > chunkMs) {
        this.emit();
        await yieldToPage();
        chunkStart = nowMs();
      }
    }
    if (token === this.token) this.emit();
  }

  private emit(): void {
    let done = 0;
    for (let k = 0; k < this.counts.length; k++) if (this.counts[k]) done++;
    this.snap = {
      version: this.snap.version + 1,
      source: this.source,
      counts: this.counts.slice(),
      done,
      total: this.deps.frameCount,
      error: this.error,
    };
    for (const fn of this.listeners) fn();
  }
}
