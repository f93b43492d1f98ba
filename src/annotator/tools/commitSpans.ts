/**
 * The last step shared by the polygon and lasso tools: write a closed shape into the map through
 * the paint rule, redraw its box, and commit the change as one patch. The shape is finished when
 * this runs, so there is no live phase to cancel.
 */
import { polygonSpans } from '../paint/polygon';
import { paintTable } from '../paint/paintRule';
import { paintSpans } from '../paint/spans';
import type { Point } from '../paint/brush';
import { GestureBackup } from './gestureBackup';
import type { ToolContext } from './types';

/** Fills (or, with `subtract`, cuts) the polygon; returns whether a patch was committed. */
export function commitPolygon(ctx: ToolContext, points: readonly Point[], subtract: boolean, action: string): boolean {
  if (points.length < 3) return false;
  const { map } = ctx;
  const spans = polygonSpans(points, map.width, map.height);
  if (spans.count === 0) return false;
  const value = subtract || ctx.activeClass === 0 ? 0 : ctx.activeClass;
  const backup = new GestureBackup(map);
  backup.save(spans.box);
  paintSpans(map, spans, paintTable(value, ctx.protect, ctx.locked));
  ctx.invalidate(spans.box);
  const patch = backup.toPatch(ctx.frameIndex, value === 0 ? `${action}.cut` : action);
  if (patch) ctx.commit(patch);
  return patch !== null;
}
