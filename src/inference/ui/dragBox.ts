/** The box a pointer drag spans, shared by the AI tools (SAM's Shift+drag, the fallback's GrabCut drag). */

export interface DragBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Moves the drag's free corner to the pointer; the start corner stays. */
export function dragTo<D extends DragBox>(drag: D, p: { x: number; y: number }): D {
  return { ...drag, x1: p.x, y1: p.y };
}

/** The same box with x0 <= x1 and y0 <= y1, whichever way it was dragged. */
export function normalisedBox(d: DragBox): DragBox {
  return { x0: Math.min(d.x0, d.x1), y0: Math.min(d.y0, d.y1), x1: Math.max(d.x0, d.x1), y1: Math.max(d.y0, d.y1) };
}
