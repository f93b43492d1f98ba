/**
 * Every user operation of the annotator as a named action: id, label, shortcuts, when it is
 * enabled, and what it does. The toolbar, the key handler, the command palette and the shortcut
 * sheet all read this one table (Excalidraw's actions), so a shortcut can never do something the
 * button does not, and a disabled button is a disabled key.
 *
 * Actions only call EditorCommands; the editor (React/canvas) implements them and owns the state.
 * Other rooms (review, AI assist) contribute their own actions to the same table through the
 * editor's `useActions` slot (ui/editorSlots.ts); theirs reach their room's state themselves.
 * A disabled action says why (`reason`), so the palette can list it greyed with the reason.
 */
import type { PaintClass } from './paint/paintRule';
import { matchShortcut, type KeyInput, type ShortcutOptions } from './shortcuts';
import type { ToolId } from './tools/types';
import type { FramePhase } from '../store/types';

/**
 * Painting tools, plus the instance tag tool (which labels regions, not pixels) and the SAM click
 * tool (AI assist: prompts a model, writes the accepted mask; src/inference/ui/samTool.ts).
 */
export type EditorToolId = ToolId | 'tag' | 'sam';

/** What the editor can be asked to do. Implemented by the UI layer. */
export interface EditorCommands {
  setClass(value: PaintClass): void;
  setTool(id: EditorToolId): void;
  /** The instance number the tag tool assigns. */
  setInstanceId(id: number): void;
  setBrushSize(size: number): void;
  toggleProtect(): void;
  toggleMasks(): void;
  undo(): void;
  redo(): void;
  goToFrame(index: number): void;
  /** Sets (or, when it already is, clears) the phase of the shown frame or of the frames selected on the timeline. */
  setPhase(phase: FramePhase): void;
  /** Next frame (after the current one, wrapping) that is neither annotated nor ignored. */
  nextUnannotated(): void;
  /** Replaces this frame's masks with the previous frame's (one undoable step). */
  copyPreviousFrame(): void;
  toggleIgnoreFrame(): void;
  clearFrame(): void;
  showShortcuts(): void;
  /** Onion skin: the previous frame's outlines over this one. */
  toggleOnion(): void;
  /** Filled masks or outlines only. */
  toggleOutline(): void;
  fitView(): void;
  actualSize(): void;
  openPalette(): void;
  /** Watch mode: play and scrub the clip's source video at its native rate (no annotation targets). */
  toggleWatch(): void;
  /** Play or pause the source video (opens watch mode first). */
  playPauseWatch(): void;
}

/** The editor state actions look at (a small read-only snapshot, never pixels). */
export interface EditorState {
  tool: EditorToolId;
  /** Instance number the tag tool assigns next. */
  instanceId: number;
  activeClass: PaintClass;
  protect: boolean;
  masksVisible: boolean;
  brushSize: number;
  frameIndex: number;
  frameCount: number;
  canUndo: boolean;
  canRedo: boolean;
  /** A gesture is in progress (pointer down, polygon open). */
  busy: boolean;
  /** Viewing only (approved clip, reviewer without edit rights): nothing may change the masks. */
  readOnly: boolean;
  /** Why it is read-only, as the palette says it ("read-only: approved clip"); null when editable. */
  readOnlyReason?: string | null;
  /** An objects project: the tools paint objects (picked in the object list), not the two states. */
  paintsObjects?: boolean;
}

export interface ActionContext {
  state: EditorState;
  commands: EditorCommands;
  /** The input modes in force now, most transient first (see ACTION_SCOPES); none when absent. */
  scopes?: readonly ActionScope[];
}

/**
 * Input modes whose keys take precedence over the editor's while they are on, most transient first:
 * a key is looked up in the active scopes in this order, then offered to the active tool, then to
 * the unscoped actions. So a key never depends on which listener was registered first (`a` accepts
 * the proposal while proposals are open, the frame in reviewer mode otherwise).
 */
export const ACTION_SCOPES = ['placing-comment', 'setting-contact', 'proposals', 'reviewer'] as const;
export type ActionScope = (typeof ACTION_SCOPES)[number];

export type ActionGroup = 'class' | 'tool' | 'brush' | 'edit' | 'frame' | 'view' | 'review' | 'assist';

export interface Action {
  readonly id: string;
  readonly label: string;
  readonly group: ActionGroup;
  /** Shortcut strings (see shortcuts.ts); the first is the one shown. */
  readonly shortcuts: readonly string[];
  /** The input mode whose keys these are: its shortcuts act only while it is on. Absent: always. */
  readonly when?: ActionScope;
  enabled(ctx: ActionContext): boolean;
  /** Why it is disabled now (shown in the palette); asked only when `enabled` is false. */
  reason?(ctx: ActionContext): string | null;
  run(ctx: ActionContext): void;
}

/** Null when the action can run, else why not ("nothing to undo", "read-only: approved clip"). */
export function whyDisabled(action: Action, ctx: ActionContext): string | null {
  if (action.enabled(ctx)) return null;
  return action.reason?.(ctx) ?? 'not available now';
}

/** Brush diameters offered by [ and ]: fine steps when small, coarser when large. */
export const BRUSH_SIZES: readonly number[] = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 200, 256];

/** The next brush size up (dir 1) or down (dir -1) from any size, clamped to the list. */
export function nextBrushSize(size: number, dir: 1 | -1): number {
  if (dir > 0) return BRUSH_SIZES.find((s) => s > size) ?? BRUSH_SIZES[BRUSH_SIZES.length - 1];
  for (let i = BRUSH_SIZES.length - 1; i >= 0; i--) if (BRUSH_SIZES[i] < size) return BRUSH_SIZES[i];
  return BRUSH_SIZES[0];
}

const always = () => true;
const canEdit = ({ state }: ActionContext) => !state.readOnly;
const idleEdit = ({ state }: ActionContext) => !state.readOnly && !state.busy;
const readOnlyReason = ({ state }: ActionContext) => (state.readOnly ? (state.readOnlyReason ?? 'read-only') : null);
/** Why an editing action cannot run: read-only, or a gesture under way; then `otherwise`. */
const editReason =
  (otherwise: string | null = null) =>
  (ctx: ActionContext) =>
    readOnlyReason(ctx) ?? (ctx.state.busy ? 'finish the gesture under way first' : otherwise);

function classAction(value: PaintClass, label: string): Action {
  return {
    id: `class.${value}`,
    label,
    group: 'class',
    shortcuts: [String(value)],
    // In an objects project the states do not exist (erasing does): objects are picked in their list.
    enabled: (ctx) => canEdit(ctx) && (value === 0 || !ctx.state.paintsObjects),
    reason: (ctx) => readOnlyReason(ctx) ?? (value !== 0 && ctx.state.paintsObjects ? 'an objects project paints objects: pick one in the object list' : null),
    run: ({ commands }) => commands.setClass(value),
  };
}

function toolAction(tool: EditorToolId, label: string, key: string): Action {
  return {
    id: `tool.${tool}`,
    label,
    group: 'tool',
    shortcuts: [key],
    enabled: canEdit,
    reason: readOnlyReason,
    run: ({ commands }) => commands.setTool(tool),
  };
}

/** The phase buttons of the frame panel, as actions (no key: the palette and the buttons). */
function phaseAction(phase: FramePhase, label: string): Action {
  return {
    id: `phase.${phase}`,
    label,
    group: 'frame',
    shortcuts: [],
    enabled: idleEdit,
    reason: editReason(),
    run: ({ commands }) => commands.setPhase(phase),
  };
}

export const ACTIONS: readonly Action[] = [
  classAction(1, 'Paint actionable'),
  classAction(2, 'Paint transformed'),
  classAction(0, 'Paint background (erase)'),
  toolAction('brush', 'Brush', 'b'),
  toolAction('eraser', 'Eraser', 'e'),
  toolAction('polygon', 'Polygon', 'p'),
  toolAction('lasso', 'Lasso', 'l'),
  toolAction('fill', 'Flood fill', 'f'),
  toolAction('move', 'Move region', 'm'),
  toolAction('tag', 'Tag instance', 't'),
  toolAction('sam', 'SAM click (AI assist)', 's'),
  {
    id: 'instance.previous',
    label: 'Previous instance number',
    group: 'tool',
    shortcuts: [','],
    enabled: ({ state }) => state.instanceId > 1,
    reason: () => 'already at instance #1',
    run: ({ state, commands }) => commands.setInstanceId(state.instanceId - 1),
  },
  {
    id: 'instance.next',
    label: 'Next instance number',
    group: 'tool',
    shortcuts: ['.'],
    enabled: always,
    run: ({ state, commands }) => commands.setInstanceId(state.instanceId + 1),
  },
  {
    id: 'brush.smaller',
    label: 'Smaller brush',
    group: 'brush',
    shortcuts: ['['],
    enabled: ({ state }) => state.brushSize > BRUSH_SIZES[0],
    reason: () => 'already the smallest brush',
    run: ({ state, commands }) => commands.setBrushSize(nextBrushSize(state.brushSize, -1)),
  },
  {
    id: 'brush.larger',
    label: 'Larger brush',
    group: 'brush',
    shortcuts: [']'],
    enabled: ({ state }) => state.brushSize < BRUSH_SIZES[BRUSH_SIZES.length - 1],
    reason: () => 'already the largest brush',
    run: ({ state, commands }) => commands.setBrushSize(nextBrushSize(state.brushSize, 1)),
  },
  {
    id: 'brush.protect',
    label: 'Protect other class',
    group: 'brush',
    shortcuts: ['x'],
    enabled: always,
    run: ({ commands }) => commands.toggleProtect(),
  },
  {
    id: 'edit.undo',
    label: 'Undo',
    group: 'edit',
    shortcuts: ['ctrl+z'],
    enabled: (ctx) => idleEdit(ctx) && ctx.state.canUndo,
    reason: editReason('nothing to undo'),
    run: ({ commands }) => commands.undo(),
  },
  {
    id: 'edit.redo',
    label: 'Redo',
    group: 'edit',
    shortcuts: ['ctrl+shift+z', 'ctrl+y'],
    enabled: (ctx) => idleEdit(ctx) && ctx.state.canRedo,
    reason: editReason('nothing to redo'),
    run: ({ commands }) => commands.redo(),
  },
  {
    id: 'edit.copyPrevious',
    label: 'Copy previous frame',
    group: 'edit',
    shortcuts: ['c'],
    enabled: (ctx) => idleEdit(ctx) && ctx.state.frameIndex > 0,
    reason: editReason('the first frame has no previous frame'),
    run: ({ commands }) => commands.copyPreviousFrame(),
  },
  {
    id: 'edit.clearFrame',
    label: 'Clear frame',
    group: 'edit',
    shortcuts: ['shift+Delete'],
    enabled: idleEdit,
    reason: editReason(),
    run: ({ commands }) => commands.clearFrame(),
  },
  {
    id: 'frame.ignore',
    label: 'Ignore frame',
    group: 'frame',
    shortcuts: ['i'],
    enabled: idleEdit,
    reason: editReason(),
    run: ({ commands }) => commands.toggleIgnoreFrame(),
  },
  {
    id: 'frame.previous',
    label: 'Previous frame',
    group: 'frame',
    shortcuts: ['ArrowLeft'],
    enabled: ({ state }) => state.frameIndex > 0,
    reason: () => 'already at the first frame',
    run: ({ state, commands }) => commands.goToFrame(state.frameIndex - 1),
  },
  {
    id: 'frame.next',
    label: 'Next frame',
    group: 'frame',
    shortcuts: ['ArrowRight'],
    enabled: ({ state }) => state.frameIndex < state.frameCount - 1,
    reason: () => 'already at the last frame',
    run: ({ state, commands }) => commands.goToFrame(state.frameIndex + 1),
  },
  {
    id: 'frame.nextUnannotated',
    label: 'Next unannotated frame',
    group: 'frame',
    shortcuts: ['n'],
    enabled: ({ state }) => state.frameCount > 1,
    reason: () => 'the clip has one frame',
    run: ({ commands }) => commands.nextUnannotated(),
  },
  phaseAction('initial', 'Set phase: initial'),
  phaseAction('transitioning', 'Set phase: transitioning'),
  phaseAction('end', 'Set phase: end'),
  {
    id: 'view.masks',
    label: 'Hide / show masks',
    group: 'view',
    shortcuts: ['h'],
    enabled: always,
    run: ({ commands }) => commands.toggleMasks(),
  },
  {
    id: 'view.onion',
    label: 'Onion skin (previous frame outlines)',
    group: 'view',
    shortcuts: ['o'],
    enabled: ({ state }) => state.frameIndex > 0,
    reason: () => 'the first frame has no previous frame',
    run: ({ commands }) => commands.toggleOnion(),
  },
  {
    id: 'view.outline',
    label: 'Outline-only masks',
    group: 'view',
    shortcuts: ['shift+o'],
    enabled: always,
    run: ({ commands }) => commands.toggleOutline(),
  },
  {
    id: 'view.fit',
    label: 'Fit frame to view',
    group: 'view',
    shortcuts: ['shift+1'],
    enabled: always,
    run: ({ commands }) => commands.fitView(),
  },
  {
    id: 'view.actualSize',
    label: 'Actual pixels (1:1)',
    group: 'view',
    shortcuts: ['shift+2'],
    enabled: always,
    run: ({ commands }) => commands.actualSize(),
  },
  {
    id: 'view.watch',
    label: 'Watch the source video',
    group: 'view',
    // W and Shift+W step through the worst-IoU frames in review.
    shortcuts: ['shift+k'],
    enabled: always,
    run: ({ commands }) => commands.toggleWatch(),
  },
  {
    id: 'view.watchPlay',
    label: 'Play / pause the source video',
    group: 'view',
    shortcuts: ['k'],
    enabled: always,
    run: ({ commands }) => commands.playPauseWatch(),
  },
  {
    id: 'view.palette',
    label: 'Command palette',
    group: 'view',
    shortcuts: ['ctrl+k'],
    enabled: always,
    run: ({ commands }) => commands.openPalette(),
  },
  {
    id: 'view.shortcuts',
    label: 'Keyboard shortcuts',
    group: 'view',
    shortcuts: ['?'],
    enabled: always,
    run: ({ commands }) => commands.showShortcuts(),
  },
];

export function findAction(id: string, registry: readonly Action[] = ACTIONS): Action | undefined {
  return registry.find((a) => a.id === id);
}

/** Runs the action if enabled; returns whether it ran. */
export function runAction(action: Action, ctx: ActionContext): boolean {
  if (!action.enabled(ctx)) return false;
  action.run(ctx);
  return true;
}

/**
 * The key handler's core: finds the action for a keydown and runs it if enabled. Returns the
 * action it matched (even when disabled, so the caller can still preventDefault: a disabled
 * Ctrl+Z must not fall through to the browser), or null. Scoped actions of the active scopes come
 * (only those that can run now: a mode lets through the keys it cannot act on)
 * first, in ACTION_SCOPES order, then the unscoped ones; `only` limits the search to one of the two
 * (the editor offers the key to the active tool in between). Keys typed in inputs never get here.
 */
export function handleShortcut(
  event: KeyInput,
  ctx: ActionContext,
  options: ShortcutOptions = {},
  registry: readonly Action[] = ACTIONS,
  only?: 'scoped' | 'unscoped',
): Action | null {
  // A mode claims only the keys it can act on now: its disabled actions let the key through.
  const candidates = actionsByPrecedence(registry, ctx.scopes ?? [], only).filter((a) => a.when === undefined || a.enabled(ctx));
  const action = matchShortcut(event, candidates, options);
  if (action) runAction(action, ctx);
  return action;
}

/** The actions a key may reach now, in the order they are tried (see handleShortcut). */
export function actionsByPrecedence(registry: readonly Action[], scopes: readonly ActionScope[], only?: 'scoped' | 'unscoped'): Action[] {
  const active = ACTION_SCOPES.filter((s) => scopes.includes(s));
  const scoped = only === 'unscoped' ? [] : active.flatMap((s) => registry.filter((a) => a.when === s));
  const unscoped = only === 'scoped' ? [] : registry.filter((a) => a.when === undefined);
  return [...scoped, ...unscoped];
}
