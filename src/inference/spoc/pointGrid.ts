/**
 * SAM's automatic-mask point grid (build_point_grid): n x n points at the centres of an n x n
 * tiling, row by row (y outer, x inner), scaled to the frame. SPOC uses n = 32 (1024 prompts).
 * Coordinates are continuous frame coordinates, like every SAM prompt here.
 */
export function pointGrid(width: number, height: number, perSide = 32): { x: number; y: number }[] {
  if (!Number.isInteger(perSide) || perSide < 1) throw new RangeError(`points per side must be a positive integer, got ${perSide}`);
  if (!(width > 0 && height > 0)) throw new RangeError(`invalid frame size ${width}x${height}`);
  const pts: { x: number; y: number }[] = [];
  for (let j = 0; j < perSide; j++) {
    for (let i = 0; i < perSide; i++) pts.push({ x: ((i + 0.5) / perSide) * width, y: ((j + 0.5) / perSide) * height });
  }
  return pts;
}
