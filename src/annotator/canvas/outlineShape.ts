/**
 * The mask outlines on the canvas: one Konva shape that strokes, per class, the outline paths of
 * outlineGeometry.ts in two passes (halo, then line) at widths divided by the zoom, so they are the
 * same number of screen pixels at any zoom. Paths are cached per tile and rebuilt only for tiles a
 * change touched, and only when the layer is drawn: the many brush moves of one animation frame (or
 * a frame switch followed by a stroke) cost one rebuild of the tiles they touched.
 */
import Konva from 'konva';
import type { Box, LabelMap } from '../../masks/labelMap';
import { haloColour, outlineWidths, stateOutlineSegments, tilesTouching, OUTLINE_TILE } from './outlineGeometry';
import type { StateColours } from './stateColours';

const LABELS = [1, 2] as const;

export class OutlineShape {
  readonly node: Konva.Shape;
  private map: LabelMap | null = null;
  /** Per tile key, per label: the path of its outline edges (null when it has none). */
  private readonly tiles = new Map<string, Record<1 | 2, Path2D | null>>();
  /** Tiles whose paths are out of date, by key, rebuilt at the next draw. */
  private readonly dirty = new Map<string, Box>();
  private scale = 1;
  private colours: StateColours;

  constructor(colours: StateColours) {
    this.colours = colours;
    this.node = new Konva.Shape({ listening: false, perfectDrawEnabled: false, sceneFunc: (context) => this.draw(context._context) });
  }

  /** A new map; `content` bounds its nonzero pixels (null: none), so only tiles there are traced. */
  setMap(map: LabelMap, content: Box | null = { x: 0, y: 0, w: map.width, h: map.height }): void {
    this.map = map;
    this.tiles.clear();
    this.dirty.clear();
    if (content) this.markDirty(content);
  }

  /** Pixels of `box` changed: the tiles whose edges they touch are rebuilt at the next draw. */
  invalidate(box: Box): void {
    if (this.map) this.markDirty(box);
  }

  setScale(scale: number): void {
    this.scale = scale;
  }

  setColours(colours: StateColours): void {
    this.colours = colours;
  }

  private markDirty(box: Box): void {
    const map = this.map!;
    for (const tile of tilesTouching(box, map.width, map.height, OUTLINE_TILE)) this.dirty.set(`${tile.x},${tile.y}`, tile);
  }

  private rebuild(): void {
    const map = this.map;
    if (!map) return;
    for (const [key, tile] of this.dirty) {
      const segments = stateOutlineSegments(map, tile);
      const paths = { 1: toPath(segments[1]), 2: toPath(segments[2]) };
      if (paths[1] || paths[2]) this.tiles.set(key, paths);
      else this.tiles.delete(key);
    }
    this.dirty.clear();
  }

  private draw(ctx: CanvasRenderingContext2D): void {
    if (this.dirty.size > 0) this.rebuild();
    if (this.tiles.size === 0) return;
    const { line, halo } = outlineWidths(this.scale);
    ctx.save();
    // Square caps close the corners where a horizontal run meets a vertical one.
    ctx.lineCap = 'square';
    ctx.lineJoin = 'miter';
    // All halos first, then all lines: a halo never covers the other class's line where they meet.
    for (const pass of ['halo', 'line'] as const) {
      ctx.lineWidth = pass === 'halo' ? halo : line;
      for (const label of LABELS) {
        ctx.strokeStyle = pass === 'halo' ? haloColour(this.colours[label]) : this.colours[label];
        for (const paths of this.tiles.values()) {
          const p = paths[label];
          if (p) ctx.stroke(p);
        }
      }
    }
    ctx.restore();
  }
}

function toPath(segments: Float32Array): Path2D | null {
  if (segments.length === 0) return null;
  const path = new Path2D();
  for (let i = 0; i < segments.length; i += 4) {
    path.moveTo(segments[i], segments[i + 1]);
    path.lineTo(segments[i + 2], segments[i + 3]);
  }
  return path;
}
