/**
 * Label map -> polygons, exactly invertible by the rasteriser every polygon format here uses
 * (pycocotools' rleFrPoly, masks/rlePoly.ts) combined with the even-odd rule (stateMasks.xorCounts).
 *
 * Why crack (pixel-edge) contours rather than Moore tracing through pixel centres: a polygon through
 * pixel centres loses half a pixel all round when rasterised by "is the pixel centre inside", and
 * one-pixel-wide parts vanish. Here every vertex is a pixel corner (integer coordinates in COCO's
 * convention, where pixel (x, y) spans [x, x+1) x [y, y+1)) and every edge separates an inside
 * pixel from an outside one. rleFrPoly samples each column at its pixel centre x + 0.5 and toggles
 * at the first row whose centre lies below a crossing edge; with integer horizontal edges and
 * vertical edges that never cross a centre column, that is exact, with no rounding involved (the 5x
 * upsampling of rleFrPoly maps integer vertices onto its grid exactly). Since the rasterisation is
 * a parity of edge crossings, the XOR of all rings reproduces the mask bit for bit, holes included,
 * however the edges are grouped into rings. The tests check this on random masks.
 *
 * Tracing is marching squares on the corner lattice: each boundary edge is directed with the inside
 * on its right (so, with y pointing down, outer rings run clockwise on screen and holes
 * anticlockwise), and edges are chained by turning right first. At a saddle (two pixels touching
 * only at a corner) turning right keeps them in separate rings, i.e. the foreground is taken as
 * 4-connected; rings may then share a vertex, which the parity rule does not mind.
 * Only corners are emitted (collinear points dropped).
 *
 * Not exact elsewhere: tools that rasterise with OpenCV's fillPoly (VISOR's own scripts) treat
 * vertices as pixel centres and fill boundary pixels, so they read these polygons one pixel larger
 * towards +x and +y; see docs/formats.md.
 */
import type { LabelMap } from '../../masks/labelMap';

const RIGHT = 0;
const DOWN = 1;
const LEFT = 2;
const UP = 3;
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/** Flat [x0, y0, x1, y1, ...] ring of pixel-corner coordinates (COCO polygon form). */
export type Ring = number[];

/** The boundary rings of the pixels equal to `label`: outer rings clockwise, holes anticlockwise. */
export function traceContours(map: LabelMap, label: number): Ring[] {
  const { width: w, height: h, data } = map;
  if (data.length !== w * h) throw new RangeError(`label map has ${data.length} pixels but ${w}x${h} needs ${w * h}`);
  const W = w + 1; // vertices per lattice row
  // Bits 0..3: the directed boundary edges leaving this vertex; bits 4..7: those already traced.
  const edges = new Uint8Array(W * (h + 1));
  let edgeCount = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (data[row + x] !== label) continue;
      if (y === 0 || data[row - w + x] !== label) {
        edges[y * W + x] |= 1 << RIGHT;
        edgeCount++;
      }
      if (x === w - 1 || data[row + x + 1] !== label) {
        edges[y * W + x + 1] |= 1 << DOWN;
        edgeCount++;
      }
      if (y === h - 1 || data[row + w + x] !== label) {
        edges[(y + 1) * W + x + 1] |= 1 << LEFT;
        edgeCount++;
      }
      if (x === 0 || data[row + x - 1] !== label) {
        edges[(y + 1) * W + x] |= 1 << UP;
        edgeCount++;
      }
    }
  }

  const rings: Ring[] = [];
  let traced = 0;
  for (let v = 0; v < edges.length && traced < edgeCount; v++) {
    for (let d0 = 0; d0 < 4; d0++) {
      if ((edges[v] & (1 << d0)) === 0 || (edges[v] & (16 << d0)) !== 0) continue;
      // v is the ring's first vertex in row-major order, hence a corner: start there.
      const ring: Ring = [v % W, Math.floor(v / W)];
      let cur = v;
      let d = d0;
      for (;;) {
        edges[cur] |= 16 << d;
        traced++;
        const next = cur + DX[d] + DY[d] * W;
        const nd = nextDirection(edges[next], d);
        if (next === v && nd === d0) break;
        if (nd !== d) ring.push(next % W, Math.floor(next / W));
        cur = next;
        d = nd;
        // Each step traces one edge and edges are traced once: a longer walk would be a bug.
        if (traced > edgeCount) throw new Error('contour tracing did not close a ring');
      }
      rings.push(ring);
    }
  }
  return rings;
}

/**
 * The edge that continues a ring arriving in direction d: right turn first, then straight, then
 * left. This pairing of incoming with outgoing edges is fixed by the (untraced and traced) edges
 * present, so following it from any edge comes back to that edge.
 */
function nextDirection(bits: number, d: number): number {
  const right = (d + 1) & 3;
  if (bits & (1 << right)) return right;
  if (bits & (1 << d)) return d;
  const left = (d + 3) & 3;
  if (bits & (1 << left)) return left;
  throw new Error('contour tracing found an open boundary');
}
