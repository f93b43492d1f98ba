/**
 * Public API of the headless annotator core: tools, patches, history, persistence queue, actions.
 * Pure TypeScript (no DOM, React, Konva or Dexie), so it runs in the page, in tests and in benches;
 * the canvas and React layers build on these and nothing here knows about them.
 */
export { applyPatch, diffPixels, diffToPatch, invertPatch, patchBytes, patchFits, type Patch, type PatchDirection } from './patch';
export { patchToRevision, revisionToPatch, type RevisionPixels } from './revisionPatch';
export { clearFrame, copyFrame, replaceFrame } from './frameOps';
export { DEFAULT_HISTORY_BUDGET, History, type HistoryOptions } from './history';
export { REDO_PREFIX, UNDO_PREFIX, replayRevisions, type LoggedRevision, type ReplayEntry, type ReplayResult } from './historyReplay';
export {
  PersistQueue,
  type PendingWrite,
  type PersistQueueOptions,
  type PersistState,
  type PersistStatus,
  type QueueTimers,
} from './persistQueue';
export {
  ACTIONS,
  BRUSH_SIZES,
  findAction,
  handleShortcut,
  nextBrushSize,
  runAction,
  type Action,
  type ActionContext,
  type ActionGroup,
  type EditorCommands,
  type EditorState,
} from './actions';
export { formatShortcut, matchShortcut, parseShortcut, shortcutMatches, type KeyInput, type ParsedShortcut, type ShortcutOptions } from './shortcuts';
export { createTool, TOOL_IDS } from './tools/createTool';
export { isSubtract, startsGesture, type PointerInput, type Tool, type ToolContext, type ToolId, type ToolPreview } from './tools/types';
export { BrushTool } from './tools/brushTool';
export { PolygonTool } from './tools/polygonTool';
export { LassoTool } from './tools/lassoTool';
export { FloodFillTool } from './tools/floodFillTool';
export { MoveRegionTool } from './tools/moveRegionTool';
export { GestureBackup } from './tools/gestureBackup';
export { ToolDriver, recordingContext, type RecordingContext } from './tools/toolDriver';
export { changes, paintTable, type PaintClass, type WriteTable } from './paint/paintRule';
export { capsuleBox, snapBrushCentre, stampCapsule, type Point } from './paint/brush';
export { polygonSpans, type FillRule } from './paint/polygon';
export { floodRegion, type Region } from './paint/flood';
export { fillSpans, paintSpans, SpanBuilder, translateSpans, type Spans } from './paint/spans';
