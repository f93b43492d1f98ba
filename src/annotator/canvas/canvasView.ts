/**
 * The editor's canvas. The pixel layers are imperative Konva (as InvokeAI's canvas manager): one
 * image node for the frame, one canvas-backed image node for the masks updated over dirty
 * rectangles only, one for the previous frame's outlines (onion skin). Never one Konva node per
 * region. Above them, one overlay layer that the rooms' react-konva overlays render into
 * (OverlayLayer.tsx, docs/architecture.md "Canvas overlays"). Zoom and pan move the layers; pixels
 * stay in image space, drawn nearest-neighbour.
 */
import Konva from 'konva';
import type { Box, LabelMap } from '../../masks/labelMap';
import { boxUnion, contentBox } from '../../masks/geometry';
import { hexRgb, maskBoxPixels, outlinePixels, type MaskStyle } from './maskPixels';
import type { Rgb } from '../overlayPixels';
import { OutlineShape } from './outlineShape';
import { DEFAULT_STATE_COLOURS, type StateColours } from './stateColours';
import { fitTransform, toImage, zoomAround, type ViewTransform } from './viewTransform';

export interface ViewOptions {
  opacity: number;
  /** 'fill': tinted states with their outlines; 'outline': the outlines only. */
  style: MaskStyle;
  masksVisible: boolean;
  onion: boolean;
  /** The colour of each state (#rrggbb), the user's choice per class. */
  colours: StateColours;
  /** In an objects project: the colour of each object's slot (and of unassigned pixels), which replaces the states'. */
  valueColours: Readonly<Record<number, string>> | null;
}

export class CanvasView {
  readonly stage: Konva.Stage;
  private readonly imageLayer = new Konva.Layer({ listening: false });
  private readonly maskLayer = new Konva.Layer({ listening: false });
  /** The react-konva overlays' layer (OverlayLayer.tsx renders into it), in image coordinates. */
  readonly overlayLayer = new Konva.Layer({ listening: false });
  private readonly imageNode = new Konva.Image({ image: undefined, x: 0, y: 0 });
  private readonly onionNode = new Konva.Image({ image: undefined, x: 0, y: 0, opacity: 0.7 });
  private readonly maskNode: Konva.Image;
  /** State outlines at a constant screen width (outlineShape.ts), over the tinted fill. */
  private readonly outline: OutlineShape;
  private readonly maskCanvas: HTMLCanvasElement;
  private readonly maskCtx: CanvasRenderingContext2D;
  private readonly onionCanvas: HTMLCanvasElement;
  private map: LabelMap | null = null;
  private dirty: Box | null = null;
  /** Where the mask canvas may hold colour: a frame switch clears this and paints the new frame's content box only. */
  private painted: Box | null = null;
  private frameRequest = 0;
  private transform: ViewTransform = { scale: 1, x: 0, y: 0 };
  private readonly transformListeners = new Set<(t: ViewTransform) => void>();
  private options: ViewOptions = { opacity: 0.5, style: 'fill', masksVisible: true, onion: false, colours: DEFAULT_STATE_COLOURS, valueColours: null };
  /** The fill colours of map values, from `options` (states, or objects' slots). */
  private fillColours: Record<number, Rgb> = statesRgb(DEFAULT_STATE_COLOURS);
  private readonly width: number;
  private readonly height: number;
  /** Called after every repaint of the mask layer with the time it took (for the benchmark). */
  onPaint: ((ms: number) => void) | null = null;

  constructor(container: HTMLDivElement, width: number, height: number) {
    this.width = width;
    this.height = height;
    this.stage = new Konva.Stage({ container, width: container.clientWidth || 800, height: container.clientHeight || 600 });
    this.maskCanvas = document.createElement('canvas');
    this.maskCanvas.width = width;
    this.maskCanvas.height = height;
    this.maskCtx = this.maskCanvas.getContext('2d', { willReadFrequently: false })!;
    this.onionCanvas = document.createElement('canvas');
    this.onionCanvas.width = width;
    this.onionCanvas.height = height;
    this.maskNode = new Konva.Image({ image: this.maskCanvas, x: 0, y: 0, opacity: this.options.opacity });
    this.onionNode.image(this.onionCanvas);
    this.onionNode.visible(false);
    this.outline = new OutlineShape(this.options.colours);
    this.imageLayer.add(this.imageNode);
    this.maskLayer.add(this.onionNode, this.maskNode, this.outline.node);
    // Mask pixels are labels: never blur them, whatever the zoom (the overlays' bitmaps are masks too).
    this.maskLayer.imageSmoothingEnabled(false);
    this.overlayLayer.imageSmoothingEnabled(false);
    this.stage.add(this.imageLayer, this.maskLayer, this.overlayLayer);
    this.fit();
  }

  get view(): ViewTransform {
    return this.transform;
  }

  /**
   * Shows a frame: its picture (null while decoding) and its masks. `content`, a box outside which
   * the map holds no nonzero pixel (null: none), is the session's `shownContent` when the caller has
   * it (computed once per frame switch); else it is computed here.
   */
  setFrame(image: CanvasImageSource | null, map: LabelMap, previous: LabelMap | null, content: Box | null = contentBox(map)): void {
    this.imageNode.image(image ?? undefined);
    this.map = map;
    this.dirty = null;
    // A full-frame repaint cost ~10 ms at 720p; the old frame's colour and the new frame's masks
    // both lie inside these two boxes, and repaint() writes every pixel of its box.
    const stale = this.painted;
    this.painted = null;
    this.outline.setMap(map, content);
    const box = content && stale ? boxUnion(content, stale) : (content ?? stale);
    if (box) this.repaint(box);
    else this.maskLayer.batchDraw();
    this.setOnionMap(previous);
    this.imageLayer.batchDraw();
  }

  /**
   * A CSS filter on the frame layer's canvas only (brightness / contrast for dark frames): the masks,
   * outlines and previews live on other layers and keep their colours. The browser applies it when
   * compositing, so it costs no repaint.
   */
  setImageFilter(filter: string): void {
    const canvas = this.imageLayer.getNativeCanvasElement();
    canvas.style.filter = filter === 'none' ? '' : filter;
    canvas.dataset.frameLayer = 'true';
  }

  setImage(image: CanvasImageSource | null): void {
    this.imageNode.image(image ?? undefined);
    this.imageLayer.batchDraw();
  }

  setOnionMap(previous: LabelMap | null): void {
    const ctx = this.onionCanvas.getContext('2d')!;
    ctx.clearRect(0, 0, this.width, this.height);
    if (previous) {
      const img = ctx.createImageData(this.width, this.height);
      outlinePixels(previous, img.data);
      ctx.putImageData(img, 0, 0);
    }
    this.onionNode.visible(this.options.onion && previous !== null);
    this.maskLayer.batchDraw();
  }

  setOptions(next: Partial<ViewOptions>): void {
    const coloursChanged =
      (next.colours !== undefined && (next.colours[1] !== this.options.colours[1] || next.colours[2] !== this.options.colours[2])) ||
      (next.valueColours !== undefined && JSON.stringify(next.valueColours) !== JSON.stringify(this.options.valueColours));
    this.options = { ...this.options, ...next };
    if (coloursChanged) this.fillColours = this.options.valueColours ? valuesRgb(this.options.valueColours) : statesRgb(this.options.colours);
    const { masksVisible, style } = this.options;
    this.maskNode.opacity(this.options.opacity);
    this.maskNode.visible(masksVisible && style === 'fill');
    this.outline.node.visible(masksVisible);
    this.onionNode.visible(this.options.onion && masksVisible);
    if (coloursChanged) {
      this.outline.setColours(this.options.colours);
      if (this.map) this.repaint({ x: 0, y: 0, w: this.map.width, h: this.map.height });
    }
    this.stage.container().dataset.stateColours = `${this.options.colours[1]} ${this.options.colours[2]}`;
    this.maskLayer.batchDraw();
  }

  /** Pixels of `box` changed in the map: repaint that rectangle on the next animation frame. */
  invalidate(box: Box): void {
    if (box.w <= 0 || box.h <= 0) return;
    this.dirty = this.dirty ? boxUnion(this.dirty, box) : box;
    if (!this.frameRequest) this.frameRequest = requestAnimationFrame(() => this.flushDirty());
  }

  /** Repaints pending dirty pixels now (tests and the benchmark call this to measure synchronously). */
  flushDirty(): void {
    this.frameRequest = 0;
    const box = this.dirty;
    this.dirty = null;
    if (box) this.repaint(box);
  }

  // ---- zoom and pan -------------------------------------------------------------------------

  fit(): void {
    this.apply(fitTransform(this.width, this.height, this.stage.width(), this.stage.height()));
  }

  /** 1:1 pixels, centred on the view. */
  actualSize(): void {
    const c = { x: this.stage.width() / 2, y: this.stage.height() / 2 };
    const p = toImage(this.transform, c.x, c.y);
    this.apply({ scale: 1, x: c.x - p.x, y: c.y - p.y });
  }

  zoomAt(factor: number, sx: number, sy: number): void {
    this.apply(zoomAround(this.transform, factor, sx, sy));
  }

  panBy(dx: number, dy: number): void {
    this.apply({ ...this.transform, x: this.transform.x + dx, y: this.transform.y + dy });
  }

  resize(w: number, h: number): void {
    this.stage.size({ width: w, height: h });
    this.fit();
  }

  /** Calls `fn` after every zoom or pan (overlays keep their strokes a constant screen width). */
  onTransform(fn: (t: ViewTransform) => void): () => void {
    this.transformListeners.add(fn);
    return () => this.transformListeners.delete(fn);
  }

  /** Screen (relative to the container) to image coordinates. */
  toImage(sx: number, sy: number): { x: number; y: number } {
    return toImage(this.transform, sx, sy);
  }

  destroy(): void {
    if (this.frameRequest) cancelAnimationFrame(this.frameRequest);
    this.outline.destroy();
    this.stage.destroy();
  }

  private apply(t: ViewTransform): void {
    this.transform = t;
    this.outline.setScale(t.scale);
    for (const layer of [this.imageLayer, this.maskLayer, this.overlayLayer]) {
      layer.scale({ x: t.scale, y: t.scale });
      layer.position({ x: t.x, y: t.y });
    }
    // Pixel-exact (nearest neighbour) from 2x up, where single pixels become visible; smooth below.
    this.imageLayer.imageSmoothingEnabled(t.scale < 2);
    // Exposed for scripted input (tests, benchmarks) that must aim at image pixels.
    this.stage.container().dataset.view = `${t.scale} ${t.x} ${t.y}`;
    this.stage.container().dataset.stage = `${this.stage.width()} ${this.stage.height()}`;
    this.stage.batchDraw();
    for (const fn of this.transformListeners) fn(t);
  }

  private repaint(box: Box): void {
    const map = this.map;
    if (!map) return;
    const x0 = Math.max(0, box.x);
    const y0 = Math.max(0, box.y);
    const x1 = Math.min(map.width, box.x + box.w);
    const y1 = Math.min(map.height, box.y + box.h);
    if (x1 <= x0 || y1 <= y0) return;
    const t0 = performance.now();
    const clipped = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    this.painted = this.painted ? boxUnion(this.painted, clipped) : clipped;
    const img = this.maskCtx.createImageData(clipped.w, clipped.h);
    // The fill; the outline style hides it and shows only the outline shape.
    maskBoxPixels(map, clipped, 'fill', img.data, this.fillColours);
    this.maskCtx.putImageData(img, clipped.x, clipped.y);
    this.outline.invalidate(clipped);
    this.maskLayer.batchDraw();
    this.onPaint?.(performance.now() - t0);
  }
}

function statesRgb(colours: StateColours): Record<number, Rgb> {
  return { 1: hexRgb(colours[1]), 2: hexRgb(colours[2]) };
}

function valuesRgb(colours: Readonly<Record<number, string>>): Record<number, Rgb> {
  const out: Record<number, Rgb> = {};
  for (const [value, hex] of Object.entries(colours)) out[Number(value)] = hexRgb(hex);
  return out;
}
