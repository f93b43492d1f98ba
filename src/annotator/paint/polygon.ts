/**
 * Polygon rasterisation for the polygon and lasso tools, with the pixel-centre rule: pixel (x, y) is
 * inside when its centre (x+0.5, y+0.5) is inside the polygon. Ties are broken half-open, like
 * canvas and GPU rasterisers: a centre exactly on a left or top edge is inside, on a right or bottom
 * edge outside, so two polygons sharing an edge never both claim (or both miss) a pixel.
 *
 * Fill rule: nonzero by default. A freehand lasso often crosses itself or circles twice; nonzero
 * fills every enclosed loop, which is what the hand meant, where even-odd would punch holes where
 * the path overlaps itself. Even-odd is available for callers that want holes.
 */
import type { Point } from './brush';
import { SpanBuilder, type Spans } from './spans';

export type FillRule = 'nonzero' | 'evenodd';

interface Edge {
  /** Top and bottom y, top < bottom. */
  y0: number;
  y1: number;
  /** x at y0 and dx/dy. */
  x0: number;
  slope: number;
  /** +1 when the edge goes down in path order, -1 when up. */
  dir: number;
}

/** The pixels inside the closed polygon `points` (closed implicitly), clipped to the image. */
export function polygonSpans(points: readonly Point[], width: number, height: number, rule: FillRule = 'nonzero'): Spans {
  const out = new SpanBuilder();
  const edges: Edge[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const q = points[(i + 1) % points.length];
    if (p.y === q.y || !Number.isFinite(p.x + p.y + q.x + q.y)) continue; // horizontal edges cross no scanline
    const down = q.y > p.y;
    const top = down ? p : q;
    const bottom = down ? q : p;
    edges.push({ y0: top.y, y1: bottom.y, x0: top.x, slope: (bottom.x - top.x) / (bottom.y - top.y), dir: down ? 1 : -1 });
  }
  if (edges.length === 0) return out.build();
  edges.sort((a, b) => a.y0 - b.y0);

  // Rows whose centre can lie inside: centre y+0.5 in [min y, max y).
  let minY = Infinity;
  let maxY = -Infinity;
  for (const e of edges) {
    if (e.y0 < minY) minY = e.y0;
    if (e.y1 > maxY) maxY = e.y1;
  }
  const rowStart = Math.max(0, Math.ceil(minY - 0.5));
  const rowEnd = Math.min(height, Math.ceil(maxY - 0.5));

  let active: Edge[] = [];
  let next = 0;
  const xs: number[] = [];
  const dirs: number[] = [];
  const order: number[] = [];
  for (let y = rowStart; y < rowEnd; y++) {
    const cy = y + 0.5;
    while (next < edges.length && edges[next].y0 <= cy) active.push(edges[next++]);
    // An edge crosses the scanline when y0 <= cy < y1 (half-open: shared vertices count once).
    active = active.filter((e) => e.y1 > cy);
    xs.length = 0;
    dirs.length = 0;
    for (const e of active) {
      xs.push(e.x0 + (cy - e.y0) * e.slope);
      dirs.push(e.dir);
    }
    order.length = xs.length;
    for (let k = 0; k < xs.length; k++) order[k] = k;
    order.sort((a, b) => xs[a] - xs[b]);

    let winding = 0;
    let start = 0;
    for (const k of order) {
      const was = inside(winding, rule);
      winding += dirs[k];
      const now = inside(winding, rule);
      if (!was && now) start = xs[k];
      else if (was && !now) {
        // Centres in [start, x): pixels ceil(start - 0.5) .. ceil(x - 0.5) - 1.
        const x0 = Math.max(0, Math.ceil(start - 0.5));
        const x1 = Math.min(width, Math.ceil(xs[k] - 0.5));
        out.push(y, x0, x1);
      }
    }
  }
  return out.build();
}

function inside(winding: number, rule: FillRule): boolean {
  return rule === 'nonzero' ? winding !== 0 : (winding & 1) === 1;
}
