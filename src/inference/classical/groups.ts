/**
 * The objects a label map holds, as propagation tracks them: its labelled pixels (either state)
 * in 8-connected components, components whose boxes come within `join` px of each other merged
 * into one group — a cup split in two by the hand holding it, or an object and its transformed
 * part, move together. Pure TS.
 */
import type { Box, LabelMap } from '../../masks/labelMap';

export interface ObjectGroup {
  /** 1-based; `ids` holds it on the group's pixels. */
  id: number;
  box: Box;
  area: number;
}

export interface ObjectGroups {
  /** Group id per pixel (0: background). */
  ids: Int32Array;
  groups: ObjectGroup[];
}

export function objectGroups(map: LabelMap, join = 8): ObjectGroups {
  const { width: w, height: h, data } = map;
  const comp = new Int32Array(w * h);
  const boxes: [number, number, number, number, number][] = []; // x0, y0, x1, y1 (inclusive), area
  const stack: number[] = [];
  for (let s = 0; s < data.length; s++) {
    if (!data[s] || comp[s]) continue;
    const id = boxes.length + 1;
    const b: [number, number, number, number, number] = [w, h, -1, -1, 0];
    comp[s] = id;
    stack.push(s);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      b[4]++;
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (data[j] && !comp[j]) {
            comp[j] = id;
            stack.push(j);
          }
        }
      }
    }
    boxes.push(b);
  }
  // Union-find over components whose grown boxes overlap.
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a[0] - join <= b[2] && b[0] - join <= a[2] && a[1] - join <= b[3] && b[1] - join <= a[3]) parent[find(i)] = find(j);
    }
  }
  const groupOf = new Map<number, number>();
  const merged: [number, number, number, number, number][] = [];
  const remap = new Int32Array(boxes.length + 1);
  for (let i = 0; i < boxes.length; i++) {
    const root = find(i);
    let g = groupOf.get(root);
    if (g === undefined) {
      g = merged.length;
      groupOf.set(root, g);
      merged.push([w, h, -1, -1, 0]);
    }
    const m = merged[g];
    const b = boxes[i];
    m[0] = Math.min(m[0], b[0]);
    m[1] = Math.min(m[1], b[1]);
    m[2] = Math.max(m[2], b[2]);
    m[3] = Math.max(m[3], b[3]);
    m[4] += b[4];
    remap[i + 1] = g + 1;
  }
  const ids = new Int32Array(w * h);
  for (let i = 0; i < ids.length; i++) if (comp[i]) ids[i] = remap[comp[i]];
  const groups = merged.map((m, k) => ({ id: k + 1, box: { x: m[0], y: m[1], w: m[2] - m[0] + 1, h: m[3] - m[1] + 1 }, area: m[4] }));
  return { ids, groups };
}
