/**
 * The contract between the editor (canvas, React, keyboard) and the tools. Tools are plain state
 * machines: they receive pointer input in image coordinates, paint into the frame's label map,
 * ask for the changed box to be redrawn, and hand over exactly one patch per finished gesture.
 * They know nothing of screens, zoom, React or storage.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import type { Patch } from '../patch';
import type { Point } from '../paint/brush';
import type { PaintClass } from '../paint/paintRule';

export type ToolId = 'brush' | 'eraser' | 'polygon' | 'lasso' | 'fill' | 'move';

/**
 * One pointer event, already mapped to image coordinates: pixel (x, y) covers [x, x+1) x [y, y+1),
 * so its centre is (x+0.5, y+0.5). Coordinates may be fractional and may lie outside the image.
 */
export interface PointerInput {
  x: number;
  y: number;
  /** PointerEvent.button: 0 primary, 1 middle (left to the view for panning), 2 secondary. */
  button: number;
  shift: boolean;
  alt: boolean;
  /** PointerEvent.detail on pointer-down: 2 for the second press of a double click. */
  clickCount?: number;
}

/**
 * What a tool reads and calls. The editor owns it and may change the fields between gestures;
 * a tool reads them when a gesture starts and keeps them until it ends, so a class or brush change
 * in the middle of a stroke never splits one stroke into two behaviours.
 */
export interface ToolContext {
  /** The current frame's live label map; tools write into it during a gesture. */
  readonly map: LabelMap;
  readonly frameIndex: number;
  /** Class painted by the primary button; 0 makes every tool erase. */
  readonly activeClass: PaintClass;
  /** "Protect other class" (see paint/paintRule.ts). */
  readonly protect: boolean;
  /** Map values no tool may write (locked or hidden objects: paint/paintRule.ts); absent: none. */
  readonly locked?: readonly number[];
  /** Brush diameter in image pixels. */
  readonly brushSize: number;
  /** Image-space distance within which a click hits the polygon's first point (set from the zoom). */
  readonly hitRadius: number;
  /** Receives the one patch of a finished gesture (already applied to the map). */
  commit(patch: Patch): void;
  /** The pixels in `box` changed (or changed back): redraw that rectangle only. */
  invalidate(box: Box): void;
}

/** A ToolContext whose owner (the session, a test) changes its frame and settings between gestures. */
export type WritableToolContext = { -readonly [K in keyof ToolContext]: ToolContext[K] };

/** Overlay hints for the interactive canvas layer; pixels themselves are already in the map. */
export type ToolPreview =
  | {
      kind: 'brush';
      /** Centre and radius of the brush outline under the pointer, in image coordinates. */
      x: number;
      y: number;
      radius: number;
      erase: boolean;
    }
  | {
      kind: 'path';
      points: readonly Point[];
      /** Lasso paths are always drawn closed; an open polygon shows a segment to the pointer. */
      closed: boolean;
      /** Cut (set to 0) rather than fill. */
      subtract: boolean;
      hover: Point | null;
      /** A click now would close the polygon (the pointer is on its first point). */
      willClose: boolean;
    }
  | { kind: 'move'; dx: number; dy: number; copy: boolean }
  | {
      /** A flood fill that leaked (paint/fillLeak.ts) is shown in the map and waits for Enter / Escape. */
      kind: 'fill-confirm';
      /** Share of the frame the fill covers, 0..1. */
      fraction: number;
      reachesBorder: boolean;
    };

export interface Tool {
  readonly id: ToolId;
  /** Name of the current state ('idle', 'painting', 'drawing', ...), for cursors and tests. */
  readonly state: string;
  /** A gesture is in progress (the map may hold uncommitted pixels or the tool holds points). */
  readonly busy: boolean;
  readonly preview: ToolPreview | null;
  onPointerDown(p: PointerInput): void;
  onPointerMove(p: PointerInput): void;
  onPointerUp(p: PointerInput): void;
  /** A key while the tool is active (Enter, Escape, Backspace, ...); true when the tool used it. */
  onKey(key: string): boolean;
  /** Abandons the gesture: the map gets back exactly its pre-gesture pixels, nothing is committed. */
  cancel(): void;
  /**
   * Ends the gesture as if the pointer were released (before a tool or frame switch): strokes,
   * lassos, fills and moves commit; an unclosed polygon is not a shape yet and is cancelled.
   */
  finish(): void;
}

/** The secondary button or Alt subtracts: erase with the brush, cut with polygon and lasso. */
export function isSubtract(p: PointerInput): boolean {
  return p.button === 2 || p.alt;
}

/** Buttons that start a gesture; the middle button belongs to the view (panning). */
export function startsGesture(p: PointerInput): boolean {
  return p.button === 0 || p.button === 2;
}
