/**
 * A headless editor around one tool, for tests and benchmarks (tldraw's TestEditor, Excalidraw's
 * Pointer/Keyboard helpers): a ToolContext over a label map that records commits and redraw
 * requests, and a pointer whose scripts read like what a person does.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import type { Patch } from '../patch';
import { createTool } from './createTool';
import type { PointerInput, Tool, ToolId, WritableToolContext } from './types';

/** A ToolContext whose settings can be changed between gestures and which records its calls. */
export interface RecordingContext extends WritableToolContext {
  readonly commits: Patch[];
  readonly invalidated: Box[];
}

export function recordingContext(map: LabelMap, settings: Partial<Omit<RecordingContext, 'commits' | 'invalidated' | 'commit' | 'invalidate'>> = {}): RecordingContext {
  const commits: Patch[] = [];
  const invalidated: Box[] = [];
  return {
    map,
    frameIndex: 0,
    activeClass: 1,
    protect: false,
    brushSize: 10,
    hitRadius: 4,
    ...settings,
    commits,
    invalidated,
    commit: (patch) => commits.push(patch),
    invalidate: (box) => invalidated.push({ ...box }),
  };
}

type Buttons = Partial<Pick<PointerInput, 'button' | 'shift' | 'alt' | 'clickCount'>>;

export class ToolDriver {
  readonly ctx: RecordingContext;
  tool: Tool;

  constructor(map: LabelMap, tool: ToolId, settings: Parameters<typeof recordingContext>[1] = {}) {
    this.ctx = recordingContext(map, settings);
    this.tool = createTool(tool, this.ctx);
  }

  use(tool: ToolId): this {
    this.tool.finish();
    this.tool = createTool(tool, this.ctx);
    return this;
  }

  down(x: number, y: number, b: Buttons = {}): this {
    this.tool.onPointerDown(input(x, y, b));
    return this;
  }

  move(x: number, y: number, b: Buttons = {}): this {
    this.tool.onPointerMove(input(x, y, b));
    return this;
  }

  up(x: number, y: number, b: Buttons = {}): this {
    this.tool.onPointerUp(input(x, y, b));
    return this;
  }

  /** Press at the first point, move through the rest, release at the last. */
  drag(points: readonly (readonly [number, number])[], b: Buttons = {}): this {
    const [first, ...rest] = points;
    this.down(first[0], first[1], b);
    for (const [x, y] of rest) this.move(x, y, b);
    const last = points[points.length - 1];
    return this.up(last[0], last[1], b);
  }

  click(x: number, y: number, b: Buttons = {}): this {
    return this.down(x, y, b).up(x, y, b);
  }

  key(key: string): boolean {
    return this.tool.onKey(key);
  }
}

function input(x: number, y: number, b: Buttons): PointerInput {
  return { x, y, button: b.button ?? 0, shift: b.shift ?? false, alt: b.alt ?? false, clickCount: b.clickCount };
}
