/**
 * The mask outlines on the canvas: one Konva shape that strokes, per class, the outline paths of
 * outlineGeometry.ts in two passes (halo, then line) at widths divided by the zoom, so they are the
 * same number of screen pixels at any zoom. Paths are cached per tile and rebuilt only for tiles a
 * change touched, and only when the layer is drawn: the many brush moves of one animation frame cost
 * one rebuild of the tiles they touched. A new frame's tiles are traced in idle time (outlineTiles.ts).
 */
import Konva from 'konva';
import type { Box, LabelMap } from '../../masks/labelMap';
import { haloColour, outlineWidths, stateOutlineSegments, tilesTouching, OUTLINE_TILE } from './outlineGeometry';
import { browserIdle, OutlineTiles, type IdleScheduler } from './outlineTiles';
import type { StateColours } from './stateColours';

const LABELS = [1, 2] as const;

export class OutlineShape {
  readonly node: Konva.Shape;
  private map: LabelMap | null = null;
  /** Per tile, per label: the path of its outline edges (null when it has none). */
  private readonly tiles: OutlineTiles<Record<1 | 2, Path2D | null>>;
  private scale = 1;
  private colours: StateColours;

  constructor(colours: StateColours, idle: IdleScheduler = browserIdle()) {
    this.colours = colours;
    this.node = new Konva.Shape({ listening: false, perfectDrawEnabled: false, sceneFunc: (context) => this.draw(context._context) });
    this.tiles = new OutlineTiles((tile) => this.trace(tile), idle, () => this.node.getLayer()?.batchDraw());
  }

  /** A new map; `content` bounds its nonzero pixels (null: none), so only tiles there are traced. */
  setMap(map: LabelMap, content: Box | null = { x: 0, y: 0, w: map.width, h: map.height }): void {
    this.map = map;
    this.tiles.reset(content ? tilesTouching(content, map.width, map.height, OUTLINE_TILE) : []);
  }

  /** Pixels of `box` changed: the tiles whose edges they touch are rebuilt at the next draw. */
  invalidate(box: Box): void {
    if (this.map) this.tiles.invalidate(tilesTouching(box, this.map.width, this.map.height, OUTLINE_TILE));
  }

  /** Stops tracing in idle time (the view goes). */
  destroy(): void {
    this.tiles.destroy();
  }

  setScale(scale: number): void {
    this.scale = scale;
  }

  setColours(colours: StateColours): void {
    this.colours = colours;
  }

  private trace(tile: Box): Record<1 | 2, Path2D | null> | null {
    const segments = stateOutlineSegments(this.map!, tile);
    const paths = { 1: toPath(segments[1]), 2: toPath(segments[2]) };
    return paths[1] || paths[2] ? paths : null;
  }

  private draw(ctx: CanvasRenderingContext2D): void {
    const tiles = [...this.tiles.paths()];
    if (tiles.length === 0) return;
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
        for (const paths of tiles) {
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
