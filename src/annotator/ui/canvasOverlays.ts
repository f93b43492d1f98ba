/**
 * The canvas overlays a room contributes (docs/architecture.md, "Canvas overlays"): react-konva
 * components drawn in image coordinates over the frame and the masks, in the order of their
 * declared `z`, never by moving nodes to the top.
 */
import type { ComponentType } from 'react';
import type { EditorSlotContext } from './editorSlots';

/** What every overlay is rendered with: the editor's slot context, the view's scale and the stage element. */
export interface CanvasOverlayProps extends EditorSlotContext {
  /** Screen pixels per image pixel: strokes and marks divide by it to keep their screen size. */
  scale: number;
  /** The canvas container (data-testid="editor-canvas"): overlays publish their `data-*` facts on it. */
  stage: HTMLElement;
}

export interface CanvasOverlay {
  /** Unique among all rooms' overlays (the Konva group's name, and data-overlays on the stage). */
  id: string;
  /** Drawing order: a higher z draws above a lower one. Unique among all rooms' overlays. */
  z: number;
  Component: ComponentType<CanvasOverlayProps>;
}

/** The overlays bottom to top; two overlays with one id or one z are a mistake, refused here. */
export function orderOverlays(overlays: readonly CanvasOverlay[]): readonly CanvasOverlay[] {
  const ids = new Set<string>();
  const zs = new Map<number, string>();
  for (const o of overlays) {
    if (ids.has(o.id)) throw new Error(`two canvas overlays are named "${o.id}"`);
    const other = zs.get(o.z);
    if (other !== undefined) throw new Error(`canvas overlays "${other}" and "${o.id}" both declare z ${o.z}`);
    ids.add(o.id);
    zs.set(o.z, o.id);
  }
  return [...overlays].sort((a, b) => a.z - b.z);
}
