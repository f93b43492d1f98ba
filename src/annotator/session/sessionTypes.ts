/**
 * The shapes an editor session shares with its callers and its parts: its state, the whole-frame
 * edit and its outcome, who writes, where unsaved edits are kept, the SAM tool port and the shown
 * frame the tools work on. EditorSession re-exports them (its callers import them from there).
 */
import type { FrameEdits } from '../../store/layers';
import type { LayerObject } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import type { PointerInput, ToolContext } from '../tools/types';
import type { ActionScope, EditorToolId } from '../actions';
import type { InstanceTag } from '../instances';
import type { PaintClass } from '../paint/paintRule';
import type { Patch } from '../patch';
import type { PixelCodec } from '../pixelCodec';

export interface SessionState {
  frameIndex: number;
  tool: EditorToolId;
  /** Instance number the tag tool assigns. */
  instanceId: number;
  activeClass: PaintClass;
  brushSize: number;
  protect: boolean;
  /** Objects projects: the objects no tool may change now (locked or hidden in the object list). */
  lockedObjects: readonly string[];
  canUndo: boolean;
  canRedo: boolean;
  busy: boolean;
  readOnly: boolean;
  /**
   * Why the clip is read-only for now although it was opened for editing ("showing the annotator's
   * version"), or null. Set by a room through setViewOnly; readOnly is true while it is set.
   */
  viewOnly: string | null;
  /** The mode of the room tool that gets the pointer now (enterRoomTool), or null: the paint tool does. */
  roomTool: ActionScope | null;
  /** Bumped on every committed change, so views can refresh derived data. */
  revision: number;
  /**
   * While saves fail or stall: whether every unsaved edit is kept in the crash journal ('kept'), is
   * being written there ('keeping'), or keeping them failed too ('not-kept', retried every few
   * seconds); null while saving works.
   */
  unsavedKept: 'keeping' | 'kept' | 'not-kept' | null;
}

/**
 * A whole-frame change: the frame's next labels computed from its current map (a new array the
 * session takes over), or null to leave the pixels. See docs/architecture.md (one transaction).
 */
export type FrameCompute = (map: LabelMap) => Uint8Array | null;

export interface EditOptions {
  /** The frame's next instance tags, given its current ones and its map after the pixels changed. */
  tags?: (current: readonly InstanceTag[], map: LabelMap) => readonly InstanceTag[];
  /**
   * The frame's objects as written, given them as the pixels leave them: where an edit sets the
   * per-frame facts of objects (a keyframe mark, an interpolation's provenance). It changes facts
   * only, never an object's `rle` or `area`. With it an edit writes even when the pixels stay.
   */
  objects?: ObjectFacts;
}

/** Sets per-frame facts of a frame's objects (EditOptions.objects). */
export type ObjectFacts = (objects: readonly LayerObject[]) => LayerObject[];

/** What `EditorSession.edit` did: one undo step and one write when applied, nothing otherwise. */
export type EditOutcome =
  | { status: 'applied'; frameIndex: number; patch: Patch | null }
  | { status: 'unchanged'; frameIndex: number }
  | { status: 'refused'; frameIndex: number; reason: string };

/** Who edits: a fixed name, or a getter read at the moment of each write. */
export type Author = string | (() => string);

/**
 * Where edits whose save failed are kept until a save succeeds (in the app, the crash journal:
 * store/journal/pendingEdits.ts), so a reload or closed tab does not throw them away.
 */
export interface PendingEditsPort {
  keep(clipId: string, edits: FrameEdits[]): Promise<void>;
  drop(clipId: string): Promise<void>;
}

export interface SessionOptions {
  readOnly?: boolean;
  pending?: PendingEditsPort;
  /** After this long without an answer a write counts as stalled (PersistQueue's default if unset). */
  stallMs?: number;
  /** How the map meets the stored rows: the states (SPOC) or the clip's objects (annotator/pixelCodec.ts). */
  codec?: PixelCodec;
}

/**
 * The SAM click tool as the session sees it (src/inference/ui/samTool.ts implements it): pointer
 * input and keys go to it while the 'sam' tool is active; it commits through the tool context.
 */
export interface SamToolPort {
  readonly busy: boolean;
  onPointerDown(p: PointerInput): void;
  onPointerMove(p: PointerInput): void;
  onPointerUp(p: PointerInput): void;
  onKey(key: string, shift?: boolean): boolean;
  clear(): void;
}

/** Entering a room tool: `leave` ends it and gives the input back to the paint tool. */
export type RoomToolEntry = { status: 'active'; leave: () => void } | { status: 'refused'; reason: string };

/** The shown frame as the assist tools see it: the tools' context plus `edit` on that frame. */
export interface ShownFrameHost extends ToolContext {
  /** `EditorSession.edit` on the shown frame, synchronously: the patch, or null when nothing changed or it was refused. */
  edit(action: string, compute: FrameCompute): Patch | null;
}

