/**
 * Deterministic scalar helpers. Math.sin/cos/exp/pow are not specified bit-exactly by ECMAScript and
 * differ between engines; geometry that decides pixel coverage uses these instead, built only from
 * IEEE-exact operations (+ - * / floor sqrt), so a seed renders the same bytes everywhere.
 */

export const PI = 3.141592653589793;
export const TAU = 6.283185307179586;
const HALF_PI = 1.5707963267948966;

/** sin(x), absolute error < 1e-9 over any range used here. */
export function dsin(x: number): number {
  let r = x - TAU * Math.floor(x / TAU + 0.5); // [-pi, pi]
  if (r > HALF_PI) r = PI - r;
  else if (r < -HALF_PI) r = -PI - r;
  const r2 = r * r;
  const poly = 1 / 362880 + r2 * (-1 / 39916800 + r2 * (1 / 6227020800));
  return r * (1 + r2 * (-1 / 6 + r2 * (1 / 120 + r2 * (-1 / 5040 + r2 * poly))));
}

export function dcos(x: number): number {
  return dsin(x + HALF_PI);
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

export function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** 0 below e0, 1 above e1, cubic Hermite in between. */
export function smoothstep(e0: number, e1: number, x: number): number {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
}

/** Fractional part in [0, 1). */
export function fract(x: number): number {
  return x - Math.floor(x);
}
