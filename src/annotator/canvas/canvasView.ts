/**
 * The editor's canvas, imperative Konva (as InvokeAI's canvas manager): one image node for the
 * frame, one canvas-backed image node for the masks updated over dirty rectangles only, one for
 * the previous frame's outlines (onion skin), and a small layer for tool previews. Never one Konva
 * node per region. Zoom and pan move the layers; pixels stay in image space, drawn nearest-neighbour.
 */
import Konva from 'konva';
import type { Box, LabelMap } from '../../masks/labelMap';
import { boxUnion, contentBox } from '../../masks/geometry';
import type { ToolPreview } from '../tools/types';
import { hexRgb, maskBoxPixels, outlinePixels, type MaskStyle } from './maskPixels';
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
}


/** A binary mask cropped to its box (1 = inside), drawn as an outline in `colour` (#rrggbb). */
export interface OutlineItem {
  box: Box;
  data: Uint8Array;
  colour: string;
}

export class CanvasView {
  readonly stage: Konva.Stage;
  private readonly imageLayer = new Konva.Layer({ listening: false });
  private readonly maskLayer = new Konva.Layer({ listening: false });
  private readonly previewLayer = new Konva.Layer({ listening: false });
  private readonly imageNode = new Konva.Image({ image: undefined, x: 0, y: 0 });
  private readonly onionNode = new Konva.Image({ image: undefined, x: 0, y: 0, opacity: 0.7 });
  private readonly maskNode: Konva.Image;
  /** State outlines at a constant screen width (outlineShape.ts), over the tinted fill. */
  private readonly outline: OutlineShape;
  private readonly maskCanvas: HTMLCanvasElement;
  private readonly maskCtx: CanvasRenderingContext2D;
  private readonly onionCanvas: HTMLCanvasElement;
  private readonly preview = new Konva.Group();
  private readonly instanceLabels = new Konva.Group();
  /** The SAM tool's candidate mask, clicks and box (not in the label map until accepted). */
  private readonly samPreview = new Konva.Group();
  /** A proposed labelling of the frame (e.g. "Suggest states"), both states tinted, until accepted or discarded. */
  private readonly labelPreview = new Konva.Image({ image: undefined, x: 0, y: 0, opacity: 0.65, visible: false });
  /** Review overlays in image coordinates, owned by src/review/ui: comment pins, and an error map / prediction image. */
  readonly reviewPins = new Konva.Group();
  readonly reviewImage = new Konva.Image({ image: undefined, x: 0, y: 0, visible: false });
  /** Automatic proposals as outlines, and the highlighted ones filled (see setProposalOutlines). */
  private readonly proposalOutlines = new Konva.Image({ image: undefined, x: 0, y: 0, visible: false });
  private readonly proposalHighlight = new Konva.Group();
  private proposalItems: readonly OutlineItem[] = [];
  private map: LabelMap | null = null;
  private dirty: Box | null = null;
  /** Where the mask canvas may hold colour: a frame switch clears this and paints the new frame's content box only. */
  private painted: Box | null = null;
  private frameRequest = 0;
  private transform: ViewTransform = { scale: 1, x: 0, y: 0 };
  private options: ViewOptions = { opacity: 0.5, style: 'fill', masksVisible: true, onion: false, colours: DEFAULT_STATE_COLOURS };
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
    this.previewLayer.add(this.labelPreview, this.instanceLabels, this.preview, this.samPreview);
    this.maskLayer.add(this.reviewImage);
    this.previewLayer.add(this.reviewPins);
    this.previewLayer.add(this.proposalOutlines, this.proposalHighlight);
    // Mask pixels are labels: never blur them, whatever the zoom.
    this.maskLayer.imageSmoothingEnabled(false);
    this.stage.add(this.imageLayer, this.maskLayer, this.previewLayer);
    this.fit();
  }

  get view(): ViewTransform {
    return this.transform;
  }

  /** Shows a frame: its picture (null while decoding) and its masks. */
  setFrame(image: CanvasImageSource | null, map: LabelMap, previous: LabelMap | null): void {
    this.imageNode.image(image ?? undefined);
    this.map = map;
    this.dirty = null;
    // A full-frame repaint cost ~10 ms at 720p; the old frame's colour and the new frame's masks
    // both lie inside these two boxes, and repaint() writes every pixel of its box.
    const content = contentBox(map);
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
    const coloursChanged = next.colours !== undefined && (next.colours[1] !== this.options.colours[1] || next.colours[2] !== this.options.colours[2]);
    this.options = { ...this.options, ...next };
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

  setPreview(preview: ToolPreview | null, activeClass: number): void {
    this.preview.destroyChildren();
    if (preview) {
      const s = this.transform.scale;
      const stroke = preview.kind === 'brush' && preview.erase ? '#e5e7eb' : activeClass === 1 || activeClass === 2 ? this.options.colours[activeClass] : '#e5e7eb';
      if (preview.kind === 'brush') {
        this.preview.add(new Konva.Circle({ x: preview.x, y: preview.y, radius: preview.radius, stroke, strokeWidth: 1.5 / s, dash: preview.erase ? [4 / s, 3 / s] : undefined }));
      } else if (preview.kind === 'path' && preview.points.length > 0) {
        const pts = preview.points.flatMap((p) => [p.x, p.y]);
        if (preview.hover && !preview.closed) pts.push(preview.hover.x, preview.hover.y);
        this.preview.add(new Konva.Line({ points: pts, closed: preview.closed, stroke: preview.subtract ? '#e5e7eb' : stroke, strokeWidth: 1.5 / s, dash: preview.subtract ? [4 / s, 3 / s] : undefined }));
        const first = preview.points[0];
        this.preview.add(new Konva.Circle({ x: first.x, y: first.y, radius: (preview.willClose ? 6 : 3.5) / s, fill: preview.willClose ? '#facc15' : stroke }));
      }
    }
    this.previewLayer.batchDraw();
  }

  /** Draws (or with null removes) the SAM candidate: the mask tinted in the class colour, clicks, box. */
  setSamPreview(
    preview: {
      mask: { width: number; height: number; data: Uint8Array; bbox: Box | null } | null;
      points: readonly { x: number; y: number; positive: boolean }[];
      box: { x0: number; y0: number; x1: number; y1: number } | null;
    } | null,
    activeClass: number,
  ): void {
    this.samPreview.destroyChildren();
    const el = this.stage.container();
    el.dataset.samArea = String(preview?.mask?.bbox ? preview.mask.data.reduce((n, v) => n + v, 0) : 0);
    if (preview) {
      const s = this.transform.scale;
      const rgb = activeClass === 2 ? [34, 197, 94] : [239, 68, 68];
      const b = preview.mask?.bbox;
      if (preview.mask && b) {
        const canvas = document.createElement('canvas');
        canvas.width = b.w;
        canvas.height = b.h;
        const ctx = canvas.getContext('2d')!;
        const img = ctx.createImageData(b.w, b.h);
        for (let y = 0; y < b.h; y++) {
          const row = (b.y + y) * preview.mask.width + b.x;
          for (let x = 0; x < b.w; x++) {
            if (!preview.mask.data[row + x]) continue;
            const o = (y * b.w + x) * 4;
            img.data[o] = rgb[0];
            img.data[o + 1] = rgb[1];
            img.data[o + 2] = rgb[2];
            img.data[o + 3] = 140;
          }
        }
        ctx.putImageData(img, 0, 0);
        this.samPreview.add(new Konva.Image({ image: canvas, x: b.x, y: b.y, width: b.w, height: b.h }));
      }
      if (preview.box) {
        const { x0, y0, x1, y1 } = preview.box;
        this.samPreview.add(new Konva.Rect({ x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), stroke: '#facc15', strokeWidth: 1.5 / s, dash: [5 / s, 3 / s] }));
      }
      for (const p of preview.points) {
        this.samPreview.add(new Konva.Circle({ x: p.x, y: p.y, radius: 4.5 / s, fill: p.positive ? '#22d3ee' : '#f43f5e', stroke: '#000', strokeWidth: 1 / s }));
      }
    }
    this.previewLayer.batchDraw();
  }

  /**
   * Draws (or with null removes) a proposed label map over the frame: actionable and transformed
   * pixels each in their state colour, so a suggestion can be judged as a whole before it is taken.
   */
  setLabelPreview(labels: LabelMap | null): void {
    const el = this.stage.container();
    const box = labels ? labelBox(labels) : null;
    if (!labels || !box) {
      this.labelPreview.visible(false);
      delete el.dataset.labelPreview;
      this.previewLayer.batchDraw();
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = box.w;
    canvas.height = box.h;
    const ctx = canvas.getContext('2d')!;
    const img = ctx.createImageData(box.w, box.h);
    maskBoxPixels(labels, box, 'fill', img.data, { 1: hexRgb(this.options.colours[1]), 2: hexRgb(this.options.colours[2]) });
    ctx.putImageData(img, 0, 0);
    this.labelPreview.setAttrs({ image: canvas, x: box.x, y: box.y, width: box.w, height: box.h, visible: true });
    let act = 0;
    let trf = 0;
    for (const v of labels.data) {
      if (v === 1) act++;
      else if (v === 2) trf++;
    }
    el.dataset.labelPreview = `${act} ${trf}`;
    this.previewLayer.batchDraw();
  }

  /**
   * Draws (or with null removes) outlines of cropped binary masks, each in its own colour: one
   * canvas for all of them, however many. Used for automatic proposals; the view knows nothing of
   * what they mean. Highlights (hover, selection) are set separately and cost one mask each.
   */
  setProposalOutlines(items: readonly OutlineItem[] | null): void {
    this.proposalItems = items ?? [];
    this.proposalHighlight.destroyChildren();
    const el = this.stage.container();
    el.dataset.proposals = String(this.proposalItems.length);
    el.dataset.proposalHighlight = '';
    if (!items || items.length === 0) {
      this.proposalOutlines.visible(false);
      this.previewLayer.batchDraw();
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = this.width;
    canvas.height = this.height;
    const ctx = canvas.getContext('2d')!;
    const img = ctx.createImageData(this.width, this.height);
    for (const it of items) {
      const [r, g, b] = hexRgb(it.colour);
      const { x: bx, y: by, w, h } = it.box;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = y * w + x;
          if (!it.data[i]) continue;
          const edge = x === 0 || y === 0 || x === w - 1 || y === h - 1 || !it.data[i - 1] || !it.data[i + 1] || !it.data[i - w] || !it.data[i + w];
          const fx = bx + x;
          const fy = by + y;
          if (!edge || fx < 0 || fy < 0 || fx >= this.width || fy >= this.height) continue;
          const o = (fy * this.width + fx) * 4;
          img.data[o] = r;
          img.data[o + 1] = g;
          img.data[o + 2] = b;
          img.data[o + 3] = 255;
        }
      }
    }
    ctx.putImageData(img, 0, 0);
    this.proposalOutlines.image(canvas);
    this.proposalOutlines.visible(true);
    this.previewLayer.batchDraw();
  }

  /** Fills the outlined items at these indices (hover, selection); an empty list clears. */
  setProposalHighlight(indices: readonly number[]): void {
    this.proposalHighlight.destroyChildren();
    const shown = indices.filter((i) => this.proposalItems[i]);
    for (const i of shown) {
      const it = this.proposalItems[i];
      const { x: bx, y: by, w, h } = it.box;
      if (w <= 0 || h <= 0) continue;
      const [r, g, b] = hexRgb(it.colour);
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const img = ctx.createImageData(w, h);
      for (let k = 0; k < w * h; k++) {
        if (!it.data[k]) continue;
        img.data[k * 4] = r;
        img.data[k * 4 + 1] = g;
        img.data[k * 4 + 2] = b;
        img.data[k * 4 + 3] = 120;
      }
      ctx.putImageData(img, 0, 0);
      this.proposalHighlight.add(new Konva.Image({ image: canvas, x: bx, y: by, width: w, height: h }));
    }
    this.stage.container().dataset.proposalHighlight = shown.join(',');
    this.previewLayer.batchDraw();
  }

  /** Instance numbers at their seeds, with the region's box (regions come from resolveInstances). */
  setInstances(regions: readonly { id: number; label: number; box: Box; x: number; y: number }[]): void {
    this.instanceLabels.destroyChildren();
    const s = this.transform.scale;
    for (const r of regions) {
      const colour = r.label === 2 ? '#86efac' : '#fca5a5';
      this.instanceLabels.add(new Konva.Rect({ x: r.box.x, y: r.box.y, width: r.box.w, height: r.box.h, stroke: colour, strokeWidth: 1 / s, dash: [4 / s, 4 / s] }));
      this.instanceLabels.add(new Konva.Text({ x: r.x + 2 / s, y: r.y - 14 / s, text: `#${r.id}`, fontSize: 13 / s, fill: '#fff', stroke: '#000', strokeWidth: 0.4 / s }));
    }
    this.stage.container().dataset.instances = regions.map((r) => r.id).join(',');
    this.previewLayer.batchDraw();
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

  /** Screen (relative to the container) to image coordinates. */
  toImage(sx: number, sy: number): { x: number; y: number } {
    return toImage(this.transform, sx, sy);
  }

  destroy(): void {
    if (this.frameRequest) cancelAnimationFrame(this.frameRequest);
    this.stage.destroy();
  }

  private apply(t: ViewTransform): void {
    this.transform = t;
    this.outline.setScale(t.scale);
    for (const layer of [this.imageLayer, this.maskLayer, this.previewLayer]) {
      layer.scale({ x: t.scale, y: t.scale });
      layer.position({ x: t.x, y: t.y });
    }
    // Pixel-exact (nearest neighbour) from 2x up, where single pixels become visible; smooth below.
    this.imageLayer.imageSmoothingEnabled(t.scale < 2);
    // Exposed for scripted input (tests, benchmarks) that must aim at image pixels.
    this.stage.container().dataset.view = `${t.scale} ${t.x} ${t.y}`;
    this.stage.container().dataset.stage = `${this.stage.width()} ${this.stage.height()}`;
    this.stage.batchDraw();
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
    maskBoxPixels(map, clipped, 'fill', img.data, { 1: hexRgb(this.options.colours[1]), 2: hexRgb(this.options.colours[2]) });
    this.maskCtx.putImageData(img, clipped.x, clipped.y);
    this.outline.invalidate(clipped);
    this.maskLayer.batchDraw();
    this.onPaint?.(performance.now() - t0);
  }
}

/** The tight box of the state pixels (1 or 2) of a label map, or null when it has none. */
function labelBox(map: LabelMap): Box | null {
  const { width, height, data } = map;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x];
      if (v !== 1 && v !== 2) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}
