/**
 * Headless annotator tools on a 1920x1080 frame, one core.
 * Run: npx tsx bench/annotator-tools.bench.ts
 *
 * Budget: a pointer move must cost well under a millisecond so painting keeps up with 120 Hz
 * pointers and leaves the frame time to the canvas; a gesture's commit (diff + patch) and a flood
 * fill of most of the frame should stay below one 60 Hz frame (16 ms).
 */
import { performance } from 'node:perf_hooks';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { encodeLayer } from '../src/masks/layers';
import { History } from '../src/annotator/history';
import { floodRegion } from '../src/annotator/paint/flood';
import { patchToRevision } from '../src/annotator/revisionPatch';
import { ToolDriver } from '../src/annotator/tools/toolDriver';
import type { Patch } from '../src/annotator/patch';

const W = 1920;
const H = 1080;

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A frame with a few blobs, so fills and strokes meet real boundaries. */
function scene(): LabelMap {
  const map = createLabelMap(W, H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const a = (x - 700) ** 2 + (y - 500) ** 2 < 250 ** 2;
      const b = (x - 1300) ** 2 / 4 + (y - 600) ** 2 < 200 ** 2;
      if (a) map.data[y * W + x] = 1;
      else if (b) map.data[y * W + x] = 2;
    }
  }
  return map;
}

const rows: Record<string, string | number>[] = [];
function row(what: string, ms: number, note = ''): void {
  rows.push({ what, 'ms (median)': Number(ms.toFixed(3)), note });
}

// Brush: strokes of 200 moves, 6 px apart (a fast hand at 120 Hz), diameter 40 (radius 20).
{
  const map = scene();
  const moveTimes: number[] = [];
  const upTimes: number[] = [];
  let patch: Patch | null = null;
  for (let s = 0; s < 20; s++) {
    const d = new ToolDriver(map, 'brush', { brushSize: 40, activeClass: s % 2 === 0 ? 1 : 2, protect: s % 3 === 0 });
    const y0 = 100 + s * 40;
    d.down(100, y0);
    for (let k = 1; k <= 200; k++) {
      const t0 = performance.now();
      d.move(100 + k * 6, y0 + 30 * Math.sin(k / 10));
      moveTimes.push(performance.now() - t0);
    }
    const t0 = performance.now();
    d.up(100 + 200 * 6, y0);
    upTimes.push(performance.now() - t0);
    patch = d.ctx.commits[0] ?? patch;
  }
  row('brush move, r = 20', median(moveTimes), `${moveTimes.length} moves, save + stamp`);
  row('brush pointer-up (one patch)', median(upTimes), `stroke box ~${patch?.box.w}x${patch?.box.h}`);
  if (patch) {
    const p = patch;
    const enc: number[] = [];
    for (let k = 0; k < 20; k++) {
      const t0 = performance.now();
      patchToRevision(p);
      enc.push(performance.now() - t0);
    }
    row('patch -> revision RLEs', median(enc), 'four box-sized COCO RLEs');
    const hist = new History();
    const undo: number[] = [];
    for (let k = 0; k < 20; k++) {
      hist.commit(p);
      const t0 = performance.now();
      hist.undo(p.frameIndex, map);
      hist.redo(p.frameIndex, map);
      undo.push((performance.now() - t0) / 2);
    }
    row('undo or redo of that stroke', median(undo), 'check + paste');
  }
  const layer: number[] = [];
  for (let k = 0; k < 10; k++) {
    const t0 = performance.now();
    encodeLayer(map);
    layer.push(performance.now() - t0);
  }
  row('encodeLayer (whole frame, per commit)', median(layer), 'the queued layer snapshot');
}

// Flood fill of the background around the blobs (~1.7 M pixels), through the tool.
{
  const fill: number[] = [];
  const search: number[] = [];
  let area = 0;
  for (let k = 0; k < 10; k++) {
    const map = scene();
    let t0 = performance.now();
    area = floodRegion(map, 5, 5)!.area;
    search.push(performance.now() - t0);
    const d = new ToolDriver(map, 'fill', { activeClass: 2 });
    t0 = performance.now();
    d.click(5, 5);
    fill.push(performance.now() - t0);
  }
  row('flood region search', median(search), `${area} px`);
  row('flood fill tool click (search + fill + patch)', median(fill), `${area} px`);
}

// Polygon of 64 vertices covering a third of the frame.
{
  const times: number[] = [];
  for (let k = 0; k < 10; k++) {
    const map = scene();
    const d = new ToolDriver(map, 'polygon', { activeClass: 1 });
    for (let i = 0; i < 64; i++) {
      const t = (2 * Math.PI * i) / 64;
      d.click(960 + 500 * Math.cos(t), 540 + 400 * Math.sin(t) * (i % 2 ? 0.8 : 1));
    }
    const t0 = performance.now();
    d.key('Enter');
    times.push(performance.now() - t0);
  }
  row('polygon close (64 vertices, ~600k px)', median(times), 'fill + patch');
}

console.log(`annotator tools bench, ${W}x${H}, node ${process.version}, one core`);
console.table(rows);
