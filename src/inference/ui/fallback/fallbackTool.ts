/**
 * The AI tool when no SAM model is ready: the same editor port (SamToolPort) and preview as the SAM
 * tool, backed by classical OpenCV algorithms in the classical worker instead of weights.
 *
 *   drag (any button-0 drag)   GrabCut inside the box (replaces the preview)
 *   click                      colour region under the click (replaces the preview)
 *   Shift+click                adds the colour region under the click to the preview
 *   Alt+click / right click    removes the colour region under the click from the preview
 *   (scissors mode) click      adds an anchor; from 3 anchors on, the preview is the region inside
 *                              the edge-following closed path through them (IntelligentScissorsMB)
 *   Enter / Shift+Enter        accept into the active class (replace / add), ONE undoable patch
 *   Escape                     clear
 *
 * Nothing touches the label map until accept(), which writes exactly like SamTool.accept (same
 * replace/extend rule and "protect other class"), through the host's commit.
 */
import type { Box, RgbaImage } from '../../../masks/labelMap';
import type { Patch } from '../../../annotator/patch';
import type { PointerInput } from '../../../annotator/tools/types';
import type { BinaryMask } from '../../models/samPostprocess';
import { applySamMask, type SamHost, type SamPreview } from '../samTool';
import { toBinaryMask } from '../../classical/images';
import type { GrabCutOptions, RegionOptions } from '../../classical/segment';
import { dragTo, normalisedBox } from '../dragBox';

/** What the tool needs from the classical client (ClassicalClient satisfies it). */
export interface FallbackBackend {
  grabCut(image: RgbaImage, box: Box, options?: GrabCutOptions): Promise<Uint8Array>;
  regionFromClick(image: RgbaImage, point: { x: number; y: number }, options?: RegionOptions): Promise<Uint8Array>;
  scissorsRegion(image: RgbaImage, points: readonly { x: number; y: number }[]): Promise<{ mask: Uint8Array }>;
  warmUp(): Promise<number>;
}

export type FallbackMode = 'fill' | 'scissors';

export type FallbackStatus = 'idle' | 'loading' | 'ready' | 'working' | 'error';

export interface FallbackToolOptions {
  backend: () => Promise<FallbackBackend>;
  getImage(frameIndex: number): Promise<RgbaImage>;
}

/** A drag shorter than this (image px) on both axes is a click. */
const MIN_BOX = 3;

export class FallbackTool {
  readonly kind = 'fallback' as const;
  status: FallbackStatus = 'idle';
  message = '';
  /** Largest colour-fill tolerance (CIELAB units on OpenCV's 8-bit scale); the fill stops earlier when it would leak. */
  tolerance = 30;
  /** What a click does: a colour region, or a scissors anchor. */
  mode: FallbackMode = 'fill';
  lastMs = 0;
  /** How long OpenCV took to load in the worker (ms), once known. */
  loadMs = 0;
  private host: SamHost | null = null;
  private frameIndex = -1;
  private image: Promise<RgbaImage> | null = null;
  private drag: { x0: number; y0: number; x1: number; y1: number; op: 'replace' | 'add' | 'subtract' } | null = null;
  private box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  private points: { x: number; y: number; positive: boolean }[] = [];
  private mask: BinaryMask | null = null;
  /** Bumped by every replacing prompt and by clear(): results of an older epoch are dropped. */
  private epoch = 0;
  /** Results applied so far, in prompt order. */
  private applying: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: FallbackToolOptions) {}

  get busy(): boolean {
    return this.drag !== null || this.mask !== null || this.status === 'working';
  }

  get preview(): SamPreview | null {
    const box = this.drag && this.isBox(this.drag) ? this.drag : this.box;
    if (!this.mask && !box && this.points.length === 0) return null;
    return { mask: this.mask, points: this.points, box };
  }

  get area(): number {
    return this.mask?.area ?? 0;
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private setStatus(status: FallbackStatus, message: string): void {
    this.status = status;
    this.message = message;
    this.emit();
  }

  /** The editor shows `host.frameIndex`: drop the preview, fetch its pixels, warm OpenCV up. */
  setFrame(host: SamHost): Promise<void> {
    this.host = host;
    if (host.frameIndex === this.frameIndex && this.image) return this.image.then(() => undefined);
    this.clear();
    this.frameIndex = host.frameIndex;
    this.image = this.options.getImage(host.frameIndex);
    this.image.catch(() => undefined);
    // First use, or again after a failure (the worker is replaced when it died).
    if (this.status === 'idle' || this.status === 'error') {
      this.setStatus('loading', 'loading OpenCV…');
      return this.options
        .backend()
        .then((b) => b.warmUp())
        .then(
          (ms) => {
            this.loadMs = ms;
            if (this.status === 'loading') this.setStatus('ready', `OpenCV ready in ${Math.round(ms)} ms`);
          },
          (e: unknown) => this.setStatus('error', `OpenCV failed to load: ${e instanceof Error ? e.message : String(e)}`),
        );
    }
    return Promise.resolve();
  }

  private isBox(d: { x0: number; y0: number; x1: number; y1: number }): boolean {
    return Math.abs(d.x1 - d.x0) >= MIN_BOX || Math.abs(d.y1 - d.y0) >= MIN_BOX;
  }

  onPointerDown(p: PointerInput): void {
    if (p.button !== 0 && p.button !== 2) return;
    const op = p.button === 2 || p.alt ? 'subtract' : p.shift ? 'add' : 'replace';
    this.drag = { x0: p.x, y0: p.y, x1: p.x, y1: p.y, op };
    this.emit();
  }

  onPointerMove(p: PointerInput): void {
    if (!this.drag) return;
    this.drag = dragTo(this.drag, p);
    this.emit();
  }

  onPointerUp(p: PointerInput): void {
    if (!this.drag) return;
    const d = dragTo(this.drag, p);
    this.drag = null;
    if (this.isBox(d) && d.op !== 'subtract') void this.runBox(normalisedBox(d));
    else if (this.mode === 'scissors') void this.addAnchor({ x: d.x0, y: d.y0 });
    else void this.runClick({ x: d.x0, y: d.y0 }, d.op);
  }

  /** Scissors mode: one more anchor; from three on, the enclosed region becomes the preview. */
  async addAnchor(point: { x: number; y: number }): Promise<void> {
    this.box = null;
    this.points.push({ x: point.x, y: point.y, positive: true });
    if (this.points.length < 3) {
      this.emit();
      return;
    }
    const anchors = this.points.map((p) => ({ x: p.x, y: p.y }));
    await this.run('scissors', (b, image) => b.scissorsRegion(image, anchors).then((r) => r.mask), 'replace');
  }

  setMode(mode: FallbackMode): void {
    this.clear();
    this.mode = mode;
    this.emit();
  }

  /** GrabCut in the box; resolves when the preview is updated (or superseded). */
  async runBox(box: { x0: number; y0: number; x1: number; y1: number }): Promise<void> {
    this.box = box;
    this.points = [];
    await this.run('GrabCut', (b, image) => b.grabCut(image, { x: box.x0, y: box.y0, w: box.x1 - box.x0, h: box.y1 - box.y0 }), 'replace');
  }

  /** Colour region under the click, replacing, added to or removed from the preview. */
  async runClick(point: { x: number; y: number }, op: 'replace' | 'add' | 'subtract' = 'replace'): Promise<void> {
    if (op === 'replace') {
      this.box = null;
      this.points = [];
    }
    this.points.push({ x: point.x, y: point.y, positive: op !== 'subtract' });
    await this.run('colour fill', (b, image) => b.regionFromClick(image, point, { tolerance: this.tolerance }), op);
  }

  private async run(what: string, compute: (b: FallbackBackend, image: RgbaImage) => Promise<Uint8Array>, op: 'replace' | 'add' | 'subtract'): Promise<void> {
    // A replacing prompt (or clear) starts a new epoch and drops what earlier prompts still compute;
    // adds and removes belong to the current epoch and are applied in click order, so quick
    // Shift+clicks all count even when their results come back out of order.
    if (op === 'replace') this.epoch++;
    const epoch = this.epoch;
    const k = this.frameIndex;
    this.setStatus('working', `${what}…`);
    const result = (async () => {
      const [backend, image] = await Promise.all([this.options.backend(), this.image ?? Promise.reject(new Error('no frame shown'))]);
      const t0 = performance.now();
      const data = await compute(backend, image);
      return { data, image, ms: performance.now() - t0 };
    })();
    result.catch(() => undefined);
    const apply = async () => {
      let r: Awaited<typeof result>;
      try {
        r = await result;
      } catch (e) {
        if (epoch === this.epoch) this.setStatus('error', `${what} failed: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (epoch !== this.epoch || k !== this.frameIndex) return;
      const { data, image } = r;
      this.lastMs = r.ms;
      const before = this.mask;
      if (op === 'subtract' && !before) {
        data.fill(0); // nothing to remove from: a subtract click never becomes a region of its own
      } else if (before && op !== 'replace') {
        for (let i = 0; i < data.length; i++) data[i] = op === 'add' ? data[i] | before.data[i] : before.data[i] & (data[i] ^ 1);
      }
      this.mask = toBinaryMask(image.width, image.height, data);
      this.setStatus('ready', `${what}: ${this.mask.area} px · ${Math.round(this.lastMs)} ms`);
    };
    const applied = this.applying.then(apply);
    this.applying = applied;
    await applied;
  }


  /** A new tolerance applies from the next click. */
  setTolerance(value: number): void {
    this.tolerance = Math.max(1, Math.min(100, Math.round(value)));
    this.emit();
  }

  onKey(key: string, shift = false): boolean {
    if (key === 'Enter') {
      const had = this.mask !== null;
      this.accept(shift ? 'extend' : 'replace');
      return had;
    }
    if (key === 'Escape') {
      const had = this.preview !== null;
      this.clear();
      return had;
    }
    return false;
  }

  /** Writes the preview into the active class as one committed patch (see SamTool.accept). */
  accept(mode: 'replace' | 'extend' = 'replace'): Patch | null {
    const host = this.host;
    const mask = this.mask;
    if (!host || !mask || host.frameIndex !== this.frameIndex || host.activeClass === 0) return null;
    const next = applySamMask(host.map, mask, host.activeClass, host.protect, mode);
    this.clear();
    return host.edit(`fallback-${mode}`, () => next);
  }

  clear(): void {
    this.epoch++;
    this.drag = null;
    this.box = null;
    this.points = [];
    this.mask = null;
    if (this.status === 'working') this.status = 'ready';
    this.emit();
  }

  destroy(): void {
    this.clear();
    this.listeners.clear();
  }
}
