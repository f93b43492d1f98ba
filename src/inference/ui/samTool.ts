/**
 * The SAM click tool's logic, framework-free: the editor session forwards pointer input and keys
 * (in image coordinates) while the 'sam' tool is active; this class encodes the shown frame once,
 * turns clicks and a box into a prompt, decodes it through the inference client (a worker in the
 * app, the in-process dispatcher in tests) and keeps the candidate masks as a preview. Nothing
 * touches the label map until accept(), which writes the chosen mask to the active class as ONE
 * patch through the host's commit (so it undoes, redoes and persists like a brush stroke).
 *
 *   left click          positive point          right click / Alt+click   negative point
 *   Shift+drag          box (replaces the box)  Tab / Shift+Tab           next / previous candidate
 *   Enter               accept, replacing the active-class regions the mask touches
 *   Shift+Enter         accept, adding to what is there        Escape     clear the prompts
 *
 * Each click decodes all prompts so far plus the low-res logits of the candidate shown last
 * (SAM's mask_input), so a click refines the mask rather than starting over.
 */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import { paintTable, type PaintClass } from '../../annotator/paint/paintRule';
import type { Patch } from '../../annotator/patch';
import type { PointerInput } from '../../annotator/tools/types';
import type { SamBox, SamPoint, SamPrompt } from '../models/samGeometry';
import type { BinaryMask } from '../models/samPostprocess';
import type { SamCandidate, SamDecodeResult } from '../models/samTypes';
import type { CallOptions } from '../runtime/inferenceClient';
import type { SamEncodeResult } from '../runtime/protocol';
import { dragTo, normalisedBox } from './dragBox';

/** What the tool needs from the inference client (InferenceClient satisfies it). */
export interface SamBackend {
  samEncode(params: { modelId: string; frameKey: string; image: RgbaImage }, options?: CallOptions): Promise<SamEncodeResult>;
  samDecode(params: { modelId: string; frameKey: string; prompt: SamPrompt }, options?: CallOptions): Promise<SamDecodeResult>;
}

/** What the tool needs from the editor (the session's ToolContext satisfies it). */
export interface SamHost {
  readonly map: LabelMap;
  readonly frameIndex: number;
  readonly activeClass: PaintClass;
  readonly protect: boolean;
  /** Map values the accept must not change (locked objects). */
  readonly locked?: readonly number[];
  /** Replaces the shown frame's labels through the editor's one transaction (EditorSession.edit): the patch, or null. */
  edit(action: string, compute: (map: LabelMap) => Uint8Array | null): Patch | null;
}

export type SamStatus = 'idle' | 'embedding' | 'ready' | 'decoding' | 'error';

/** Drawn over the canvas: the candidate mask (not in the label map yet), the clicks and the box. */
export interface SamPreview {
  mask: BinaryMask | null;
  points: readonly SamPoint[];
  box: SamBox | null;
}

export interface SamToolOptions {
  backend: SamBackend;
  modelId: string;
  /** Distinguishes frames of different clips in the worker's embedding cache. */
  clipId: string;
  /** The frame's pixels (decoded image), for the encoder. */
  getImage(frameIndex: number): Promise<RgbaImage>;
  /** Frames prefetched (encoded at low priority) after the shown one; default 1. */
  prefetch?: number;
  frameCount?: number;
}

/** A Shift+drag shorter than this (image px) is a click. */
const MIN_BOX = 3;

export class SamTool {
  status: SamStatus = 'idle';
  message = '';
  /** Last encode/decode timings (ms), for the status line and the benchmark. */
  lastEncodeMs = 0;
  lastDecodeMs = 0;
  private host: SamHost | null = null;
  private frameIndex = -1;
  private encoded: Promise<void> | null = null;
  private points: SamPoint[] = [];
  private box: SamBox | null = null;
  private drag: { x0: number; y0: number; x1: number; y1: number } | null = null;
  private result: SamDecodeResult | null = null;
  private selected = 0;
  private decodeSeq = 0;
  private decodeAbort: AbortController | null = null;
  private encodeAbort: AbortController | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: SamToolOptions) {}

  get modelId(): string {
    return this.options.modelId;
  }

  /** A prompt is being built (points or a box): Escape has something to clear. */
  get busy(): boolean {
    return this.points.length > 0 || this.box !== null || this.drag !== null;
  }

  get candidates(): readonly SamCandidate[] {
    return this.result?.candidates ?? [];
  }

  get selectedIndex(): number {
    return this.selected;
  }

  get preview(): SamPreview | null {
    const box = this.drag ? { ...this.drag } : this.box;
    if (!this.busy && !this.result) return null;
    return { mask: this.result?.candidates[this.selected]?.mask ?? null, points: this.points, box };
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private frameKey(k: number): string {
    return `${this.options.clipId}/${k}`;
  }

  /** The editor shows frame `host.frameIndex`: drop the prompts and encode it (cached in the worker). */
  setFrame(host: SamHost): Promise<void> {
    this.host = host;
    if (host.frameIndex === this.frameIndex && this.encoded) return this.encoded;
    this.clear();
    this.frameIndex = host.frameIndex;
    this.encodeAbort?.abort();
    const abort = new AbortController();
    this.encodeAbort = abort;
    const k = host.frameIndex;
    this.setStatus('embedding', `embedding frame ${k + 1}…`);
    const t0 = performance.now();
    const run = (async () => {
      const image = await this.options.getImage(k);
      return this.options.backend.samEncode({ modelId: this.modelId, frameKey: this.frameKey(k), image }, { signal: abort.signal, transfer: true });
    })();
    this.encoded = run.then(
      (r) => {
        if (this.frameIndex !== k) return;
        this.lastEncodeMs = performance.now() - t0;
        const t = r.timings;
        const split = t ? ` (pre ${Math.round(t.preMs)}, model ${Math.round(t.modelMs)})` : ' (cached)';
        // A click made meanwhile is already decoding: its result reports next.
        if (this.status !== 'decoding') this.setStatus('ready', `ready · embedding ${Math.round(this.lastEncodeMs)} ms${split}`);
        this.prefetch(k);
      },
      (e: unknown) => {
        if (this.frameIndex !== k || abort.signal.aborted) return;
        this.encoded = null;
        this.setStatus('error', `embedding failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
    return this.encoded;
  }

  /** Neighbours are encoded in the background (low priority, behind any click). */
  private prefetch(k: number): void {
    const n = this.options.prefetch ?? 1;
    const count = this.options.frameCount ?? 0;
    for (let d = 1; d <= n; d++) {
      const j = k + d;
      if (j >= count) break;
      void this.options
        .getImage(j)
        .then((image) => this.options.backend.samEncode({ modelId: this.modelId, frameKey: this.frameKey(j), image }, { priority: 'low', transfer: true }))
        .catch(() => undefined);
    }
  }

  // ---- input --------------------------------------------------------------------------------

  onPointerDown(p: PointerInput): void {
    if (p.shift && p.button === 0) {
      this.drag = { x0: p.x, y0: p.y, x1: p.x, y1: p.y };
      this.emit();
      return;
    }
    if (p.button !== 0 && p.button !== 2) return;
    this.points.push({ x: p.x, y: p.y, positive: p.button === 0 && !p.alt });
    void this.decode();
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
    if (Math.abs(d.x1 - d.x0) < MIN_BOX || Math.abs(d.y1 - d.y0) < MIN_BOX) {
      this.points.push({ x: d.x0, y: d.y0, positive: true });
    } else {
      this.box = normalisedBox(d);
    }
    void this.decode();
  }

  /** Enter / Shift+Enter accept, Tab cycles, Escape clears; true when the key was used. */
  onKey(key: string, shift = false): boolean {
    if (key === 'Enter') return this.accept(shift ? 'extend' : 'replace') !== null || this.busy;
    if (key === 'Escape') {
      const had = this.busy || this.result !== null;
      this.clear();
      return had;
    }
    if (key === 'Tab') {
      if (this.candidates.length < 2) return false;
      this.cycle(shift ? -1 : 1);
      return true;
    }
    return false;
  }

  cycle(dir: 1 | -1): void {
    const n = this.candidates.length;
    if (n === 0) return;
    this.selected = (this.selected + dir + n) % n;
    this.emit();
  }

  clear(): void {
    this.decodeAbort?.abort();
    this.decodeAbort = null;
    this.decodeSeq++;
    this.points = [];
    this.box = null;
    this.drag = null;
    this.result = null;
    this.selected = 0;
    if (this.status === 'decoding') this.setStatus('ready', 'ready');
    this.emit();
  }

  /** Decodes the current prompt; resolves when the preview is updated (or superseded). */
  async decode(): Promise<void> {
    if (this.points.length === 0 && !this.box) return;
    const seq = ++this.decodeSeq;
    this.decodeAbort?.abort();
    const abort = new AbortController();
    this.decodeAbort = abort;
    const maskInput = this.result?.candidates[this.selected]?.lowRes ?? undefined;
    const prompt: SamPrompt = { points: [...this.points], ...(this.box ? { box: { ...this.box } } : {}), ...(maskInput ? { maskInput } : {}) };
    this.setStatus('decoding', 'decoding…');
    try {
      await this.encoded;
      if (seq !== this.decodeSeq) return;
      const t0 = performance.now();
      const result = await this.options.backend.samDecode({ modelId: this.modelId, frameKey: this.frameKey(this.frameIndex), prompt }, { signal: abort.signal });
      if (seq !== this.decodeSeq) return;
      this.lastDecodeMs = performance.now() - t0;
      this.result = result;
      this.selected = 0;
      const best = result.candidates[0];
      const t = result.timings;
      const split = `pre ${t.preMs.toFixed(1)}, model ${t.modelMs.toFixed(1)}, post ${t.postMs.toFixed(1)}`;
      this.setStatus('ready', `${result.candidates.length} candidate${result.candidates.length === 1 ? '' : 's'} · ${best ? `${best.mask.area} px` : 'empty'} · ${Math.round(this.lastDecodeMs)} ms (${split})`);
    } catch (e) {
      if (seq !== this.decodeSeq || abort.signal.aborted) return;
      this.setStatus('error', `decoding failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Writes the shown candidate to the active class (1 or 2) as one committed patch and clears the
   * prompts. 'replace' first clears the active-class regions (4-connected) the mask overlaps, so a
   * better mask replaces a worse one; 'extend' only adds. "Protect other class" is honoured through
   * paintTable. Returns the patch, or null when nothing changed (or nothing to accept).
   */
  accept(mode: 'replace' | 'extend' = 'replace'): Patch | null {
    const host = this.host;
    const mask = this.result?.candidates[this.selected]?.mask;
    if (!host || !mask || host.frameIndex !== this.frameIndex) return null;
    const cls = host.activeClass;
    if (cls === 0) return null;
    const next = applySamMask(host.map, mask, cls, host.protect, mode, host.locked);
    this.clear();
    return host.edit(`sam-${mode}`, () => next);
  }

  destroy(): void {
    this.clear();
    this.encodeAbort?.abort();
    this.listeners.clear();
  }

  private setStatus(status: SamStatus, message: string): void {
    this.status = status;
    this.message = message;
    this.emit();
  }
}

/** The label map after writing `mask` as class `cls` (a new array; `map` is not changed). */
export function applySamMask(map: LabelMap, mask: BinaryMask, cls: number, protect: boolean, mode: 'replace' | 'extend', locked: readonly number[] = []): Uint8Array {
  const { width, height } = map;
  if (mask.width !== width || mask.height !== height) {
    throw new RangeError(`mask is ${mask.width}x${mask.height} but the frame is ${width}x${height}`);
  }
  const next = map.data.slice();
  if (locked.includes(cls)) return next;
  if (mode === 'replace') {
    // Clear the active-class regions the mask touches (flood over 4-neighbours).
    const stack: number[] = [];
    for (let i = 0; i < next.length; i++) {
      if (mask.data[i] && next[i] === cls) {
        next[i] = 0;
        stack.push(i);
      }
    }
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      const visit = (j: number) => {
        if (next[j] !== cls) return;
        next[j] = 0;
        stack.push(j);
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (y > 0) visit(i - width);
      if (y < height - 1) visit(i + width);
    }
  }
  const table = paintTable(cls, protect, locked);
  for (let i = 0; i < next.length; i++) if (mask.data[i]) next[i] = table[next[i]];
  return next;
}
