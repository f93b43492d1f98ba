/**
 * Procedural textures: tileable value-noise tiles built once per clip, sampled bilinearly.
 * Integer hashing plus float arithmetic only, so tiles are identical on every engine.
 */
import { hash3 } from './random';

export const TILE = 256;

/** A TILE x TILE periodic noise field with values in [0, 1]. */
export interface NoiseTile {
  readonly data: Float32Array;
}

function fade(t: number): number {
  return t * t * (3 - 2 * t);
}

/**
 * Fractal tile: octaves of periodic value noise with `baseCells` lattice cells across the tile at
 * the first octave, doubling each octave with half the amplitude. Normalised to [0, 1].
 */
export function makeNoiseTile(seed: number, baseCells = 4, octaves = 4): NoiseTile {
  const data = new Float32Array(TILE * TILE);
  let amp = 1;
  let cells = baseCells;
  for (let o = 0; o < octaves; o++) {
    const lattice = new Float64Array(cells * cells);
    for (let j = 0; j < cells; j++) for (let i = 0; i < cells; i++) lattice[j * cells + i] = hash3(i, j, seed + o * 1013) / 4294967296;
    for (let y = 0; y < TILE; y++) {
      const fy0 = ((y + 0.5) * cells) / TILE;
      const yi = Math.floor(fy0);
      const fy = fade(fy0 - yi);
      const y0 = yi % cells;
      const y1 = (y0 + 1) % cells;
      for (let x = 0; x < TILE; x++) {
        const fx0 = ((x + 0.5) * cells) / TILE;
        const xi = Math.floor(fx0);
        const fx = fade(fx0 - xi);
        const x0 = xi % cells;
        const x1 = (x0 + 1) % cells;
        const a = lattice[y0 * cells + x0] + (lattice[y0 * cells + x1] - lattice[y0 * cells + x0]) * fx;
        const b = lattice[y1 * cells + x0] + (lattice[y1 * cells + x1] - lattice[y1 * cells + x0]) * fx;
        data[y * TILE + x] += amp * (a + (b - a) * fy);
      }
    }
    amp *= 0.5;
    cells *= 2;
  }
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    if (data[i] < min) min = data[i];
    if (data[i] > max) max = data[i];
  }
  const k = max > min ? 1 / (max - min) : 0;
  for (let i = 0; i < data.length; i++) data[i] = (data[i] - min) * k;
  return { data };
}

/** Bilinear sample at tile-pixel coordinates (u, v), wrapping. */
export function sampleTile(tile: NoiseTile, u: number, v: number): number {
  const x = u - 0.5;
  const y = v - 0.5;
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const fx = x - xi;
  const fy = y - yi;
  const x0 = xi & (TILE - 1);
  const y0 = yi & (TILE - 1);
  const x1 = (x0 + 1) & (TILE - 1);
  const y1 = (y0 + 1) & (TILE - 1);
  const d = tile.data;
  const a = d[y0 * TILE + x0] + (d[y0 * TILE + x1] - d[y0 * TILE + x0]) * fx;
  const b = d[y1 * TILE + x0] + (d[y1 * TILE + x1] - d[y1 * TILE + x0]) * fx;
  return a + (b - a) * fy;
}

/** White noise in [0, 1) for an integer lattice point. */
export function grain(x: number, y: number, seed: number): number {
  return hash3(x, y, seed) / 4294967296;
}
