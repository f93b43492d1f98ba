/**
 * The static backdrop: a countertop with a wooden cutting board, built once per clip with a margin
 * around the frame so camera jitter can slide it.
 */
import type { Rng } from './random';
import type { Viewport } from './scene';
import { makeNoiseTile, sampleTile, grain, TILE } from './texture';
import { rgb, type Rgb } from './raster';
import { clamp, fract, lerp, smoothstep } from './math';

export interface Background {
  readonly margin: number;
  readonly width: number;
  readonly height: number;
  readonly px: Uint32Array;
}

const WOODS: readonly (readonly [Rgb, Rgb])[] = [
  [[205, 160, 112], [160, 112, 70]],
  [[186, 136, 92], [134, 88, 52]],
  [[214, 178, 130], [176, 132, 86]],
];
const COUNTERS: readonly Rgb[] = [
  [92, 96, 104],
  [70, 72, 76],
  [214, 210, 200],
];

/** The cutting board in design units. */
export const BOARD = { x: 24, y: 44, w: 592, h: 304, r: 16 } as const;

function insideRoundedRect(x: number, y: number, b: typeof BOARD, grow = 0): number {
  // Signed distance (negative inside).
  const hx = b.w / 2 + grow;
  const hy = b.h / 2 + grow;
  const r = b.r + grow;
  const qx = Math.abs(x - (b.x + b.w / 2)) - hx + r;
  const qy = Math.abs(y - (b.y + b.h / 2)) - hy + r;
  const ox = Math.max(qx, 0);
  const oy = Math.max(qy, 0);
  return Math.sqrt(ox * ox + oy * oy) + Math.min(Math.max(qx, qy), 0) - r;
}

export function buildBackground(view: Viewport, margin: number, rng: Rng): Background {
  const W = view.width + 2 * margin;
  const H = view.height + 2 * margin;
  const px = new Uint32Array(W * H);
  const [woodLight, woodDark] = rng.pick(WOODS);
  const counter = rng.pick(COUNTERS);
  const grainSeed = (rng.next() * 4294967296) >>> 0;
  const warp = makeNoiseTile(grainSeed, 2, 3);
  const streak = makeNoiseTile(grainSeed ^ 0x5bd1e995, 8, 3);
  const stone = makeNoiseTile(grainSeed ^ 0x27d4eb2f, 6, 4);
  const ringScale = rng.range(7, 11);
  const warpAmp = rng.range(2, 4);
  const inv = 1 / view.s;
  for (let j = 0; j < H; j++) {
    const yd = (j - margin + 0.5 - view.oy) * inv;
    for (let i = 0; i < W; i++) {
      const xd = (i - margin + 0.5 - view.ox) * inv;
      const d = insideRoundedRect(xd, yd, BOARD);
      const g = grain(i, j, grainSeed);
      let c: number;
      if (d < 0) {
        // Wood: growth rings run along x, warped by low-frequency noise; fine streaks on top.
        const w = sampleTile(warp, xd * 0.35, yd * 0.9);
        const ring = fract(yd / ringScale + w * warpAmp);
        const band = smoothstep(0.35, 0.95, 1 - Math.abs(2 * ring - 1));
        const st = sampleTile(streak, xd * 1.6, (yd * 6) % TILE);
        let tone = 0.75 - 0.35 * band + 0.25 * (st - 0.5) + 0.06 * (g - 0.5);
        // Bevelled rim: light on the top-left edge, dark on the bottom-right.
        if (d > -3) {
          const edge = 1 - (d + 3) / 3;
          tone = lerp(tone, xd + yd < BOARD.x + BOARD.y + 300 ? 1.05 : 0.1, 0.5 * (1 - edge));
        }
        const t = clamp(tone, 0, 1.1);
        c = rgb(lerp(woodDark[0], woodLight[0], t), lerp(woodDark[1], woodLight[1], t), lerp(woodDark[2], woodLight[2], t));
      } else {
        // Countertop stone with speckles and the board's drop shadow.
        const n = sampleTile(stone, xd * 1.2, yd * 1.2);
        let k = 0.85 + 0.3 * (n - 0.5) + (g < 0.05 ? -0.25 : g > 0.96 ? 0.2 : 0);
        const sd = insideRoundedRect(xd - 5, yd - 7, BOARD);
        if (sd < 0) k *= 0.62;
        else if (sd < 6) k *= 0.62 + 0.38 * (sd / 6);
        c = rgb(counter[0] * k, counter[1] * k, counter[2] * k);
      }
      px[j * W + i] = c;
    }
  }
  return { margin, width: W, height: H, px };
}
