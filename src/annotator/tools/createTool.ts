/** One place that maps a tool id to its state machine, for the toolbar, shortcuts and tests alike. */
import { BrushTool } from './brushTool';
import { FloodFillTool } from './floodFillTool';
import { LassoTool } from './lassoTool';
import { MoveRegionTool } from './moveRegionTool';
import { PolygonTool } from './polygonTool';
import type { Tool, ToolContext, ToolId } from './types';

export const TOOL_IDS: readonly ToolId[] = ['brush', 'eraser', 'polygon', 'lasso', 'fill', 'move'];

export function createTool(id: ToolId, ctx: ToolContext): Tool {
  switch (id) {
    case 'brush':
      return new BrushTool(ctx, 'paint');
    case 'eraser':
      return new BrushTool(ctx, 'erase');
    case 'polygon':
      return new PolygonTool(ctx);
    case 'lasso':
      return new LassoTool(ctx);
    case 'fill':
      return new FloodFillTool(ctx);
    case 'move':
      return new MoveRegionTool(ctx);
  }
}
