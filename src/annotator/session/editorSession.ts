/**
 * One open clip in the editor: the current frame's label map, the active tool, per-frame history
 * and the write-behind queue that persists every committed gesture (layer + revision) to
 * IndexedDB within a second. Framework-free: the canvas view and React subscribe to its events and
 * send it commands; it never touches the DOM.
 */
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { saveFrameEdits, type FrameEdits } from '../../store/layers';
import type { Clip, LayerInput, LayerSource, RevisionInput } from '../../store/types';
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import { decodeLayer, encodeLayer, parseLayer } from '../../masks/layers';
import { History } from '../history';
import { PersistQueue, type PendingWrite, type PersistStatus } from '../persistQueue';
import { patchToRevision } from '../revisionPatch';
import { labelsPatch } from '../frameOps';
import { createTool } from '../tools/createTool';
import type { PointerInput, Tool, ToolContext } from '../tools/types';
import type { RoomTool } from '../tools/roomTool';
import type { ActionScope, EditorToolId } from '../actions';
import { MAX_INSTANCE_ID, parseInstanceTags, tagRegion, type InstanceTag } from '../instances';
import type { PaintClass } from '../paint/paintRule';
import type { Patch } from '../patch';
import { dropGestureDraft, writeGestureDraft } from '../../store/gestureDrafts';
import { GestureDraftRecorder } from './gestureDraftRecorder';
import { RoomTools } from './roomTools';
import { FrameMaps } from './frameMaps';

export interface SessionState {
  frameIndex: number;
  tool: EditorToolId;
  /** Instance number the tag tool assigns. */
  instanceId: number;
  activeClass: PaintClass;
  brushSize: number;
  protect: boolean;
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

type Listener<T> = (value: T) => void;

/** How soon keeping unsaved edits in the journal is tried again after it failed (a full disk). */
const KEEP_RETRY_MS = 2000;

/**
 * A whole-frame change: the frame's next labels computed from its current map (a new array the
 * session takes over), or null to leave the pixels. See docs/architecture.md (one transaction).
 */
export type FrameCompute = (map: LabelMap) => Uint8Array | null;

export interface EditOptions {
  /** The frame's next instance tags, given its current ones and its map after the pixels changed. */
  tags?: (current: readonly InstanceTag[], map: LabelMap) => readonly InstanceTag[];
}

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

interface MutableToolContext extends ShownFrameHost {
  map: LabelMap;
  frameIndex: number;
  activeClass: PaintClass;
  protect: boolean;
  brushSize: number;
  hitRadius: number;
}

const FULL = (map: LabelMap): Box => ({ x: 0, y: 0, w: map.width, h: map.height });

export class EditorSession {
  readonly clip: Clip;
  readonly source: LayerSource = 'gt';
  private readonly db: SpocDb;
  /** Who is editing, asked at each write: the user may rename themselves while the clip is open. */
  private readonly author: () => string;
  private readonly history = new History();
  private readonly historyLoaded = new Set<number>();
  private readonly maps = new FrameMaps((index) => this.readMap(index));
  private closing = false;
  /** Instance tags per frame, as loaded or edited in this tab. */
  private readonly tagsByFrame = new Map<number, InstanceTag[]>();
  private readonly queue: PersistQueue<LayerInput, RevisionInput>;
  private readonly ctx: MutableToolContext;
  private tool: Tool;
  private state: SessionState;
  private loadToken = 0;
  /** The frame switch in progress: edits asked for meanwhile wait for it, so they land on the frame shown next. */
  private loading: Promise<void> = Promise.resolve();
  /** Frame being loaded, or -1. */
  private loadingIndex = -1;
  private readonly invalidateListeners = new Set<Listener<Box>>();
  private readonly frameListeners = new Set<Listener<LabelMap>>();
  private readonly stateListeners = new Set<Listener<SessionState>>();
  private readonly editListeners = new Set<Listener<number>>();
  /** Set by the AI-assist UI once a SAM model is loaded; null otherwise. */
  private sam: SamToolPort | null = null;
  /** Tools other rooms lend for their input modes; while one is active the paint tool gets no input. */
  private readonly rooms = new RoomTools(() => this.setState({ roomTool: this.rooms.active?.scope ?? null }));
  private readonly pending: PendingEditsPort | null;
  /** Opened read-only (approved clip, another tab holds the lock): never editable in this session. */
  private readonly openedReadOnly: boolean;
  /** Unsaved edits are kept through `pending` (saves are failing). */
  private keptPending = false;
  /** A save failed in this session (a full disk): from then on every unsaved edit is kept, even one in flight. */
  private saveHasFailed = false;
  private pendingChain: Promise<void> = Promise.resolve();
  /** Edits run one at a time, so two edits of a frame that is not shown never read the same stale map. */
  private editChain: Promise<unknown> = Promise.resolve();
  private pendingError: string | null = null;
  /** Bumped per keep request; the keep that wrote the latest one makes the edits 'kept'. */
  private keepRequests = 0;
  private keepRetryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Writes the input of a stroke in progress, so a crash cannot take a finished one (docs/durability.md). */
  private readonly drafts: GestureDraftRecorder | null;

  private constructor(db: SpocDb, clip: Clip, author: Author, options: SessionOptions) {
    const readOnly = options.readOnly ?? false;
    this.db = db;
    this.clip = clip;
    this.author = typeof author === 'function' ? author : () => author;
    this.pending = options.pending ?? null;
    this.drafts = readOnly
      ? null
      : new GestureDraftRecorder(clip.id, {
          write: (row) => writeGestureDraft(db, row),
          drop: (ref) => dropGestureDraft(db, ref),
        });
    this.queue = new PersistQueue<LayerInput, RevisionInput>({
      write: (batch) => saveFrameEdits(db, batch.map(toFrameEdits), { clip }),
      ...(options.stallMs !== undefined ? { stallMs: options.stallMs } : {}),
    });
    this.queue.subscribe(() => this.keepOrDropPending());
    this.ctx = {
      map: createLabelMap(clip.width, clip.height),
      frameIndex: -1,
      activeClass: 1,
      protect: true,
      brushSize: 16,
      hitRadius: 6,
      commit: (patch) => this.commit(patch),
      invalidate: (box) => this.emitInvalidate(box),
      edit: (action, compute) => {
        const outcome = this.editNow(this.ctx.frameIndex, this.ctx.map, action, compute, {});
        return outcome.status === 'applied' ? outcome.patch : null;
      },
    };
    this.tool = createTool('brush', this.ctx);
    this.state = {
      frameIndex: -1,
      tool: 'brush',
      instanceId: 1,
      activeClass: 1,
      brushSize: 16,
      protect: true,
      canUndo: false,
      canRedo: false,
      busy: false,
      readOnly,
      viewOnly: null,
      unsavedKept: null,
      roomTool: null,
      revision: 0,
    };
    this.openedReadOnly = readOnly;
  }

  /** `author` is a name, or a getter answering with the name in force at each write (the app's). */
  static async open(db: SpocDb, clip: Clip, author: Author, frameIndex: number, options: SessionOptions | boolean = {}): Promise<EditorSession> {
    const session = new EditorSession(db, clip, author, typeof options === 'boolean' ? { readOnly: options } : options);
    await session.goToFrame(frameIndex);
    return session;
  }

  // ---- reading -------------------------------------------------------------------------------

  get map(): LabelMap {
    return this.ctx.map;
  }

  get snapshot(): SessionState {
    return this.state;
  }

  get toolPreview() {
    return this.rooms.active ? null : this.tool.preview;
  }

  /** The room tool that gets the pointer now, or null (for the canvas's cursor and hint). */
  get roomTool(): RoomTool | null {
    return this.rooms.active;
  }

  get persistStatus(): PersistStatus {
    return this.queue.status;
  }

  onInvalidate(fn: Listener<Box>): () => void {
    this.invalidateListeners.add(fn);
    return () => this.invalidateListeners.delete(fn);
  }

  onFrame(fn: Listener<LabelMap>): () => void {
    this.frameListeners.add(fn);
    return () => this.frameListeners.delete(fn);
  }

  onState(fn: Listener<SessionState>): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /** Called with the frame index after every committed change of a frame (shown or not): strokes, edits, undo, tags. */
  onEdit(fn: Listener<number>): () => void {
    this.editListeners.add(fn);
    return () => this.editListeners.delete(fn);
  }

  onPersist(fn: Listener<PersistStatus>): () => void {
    return this.queue.subscribe(fn);
  }

  /**
   * True while leaving the page would lose something: a save failed (even if the edits are kept in
   * the journal, the user should know), or edits wait behind a write in flight. A write in flight
   * alone is not, normally: its transaction commits even if the page goes away — unless saves have
   * failed in this session (a full disk), when that write may fail too, with no page left to retry.
   */
  get hasUnsavedEdits(): boolean {
    // A retry in flight ('saving' with retries > 0) is still a failing save until it succeeds, and a
    // stalled write may never land.
    const { state, retries, stalled } = this.queue.status;
    return state === 'error' || retries > 0 || stalled || this.queue.waiting > 0 || (this.saveHasFailed && state !== 'idle');
  }

  /** Why keeping unsaved edits in the journal failed too, or null. */
  get pendingKeepError(): string | null {
    return this.pendingError;
  }

  // ---- frames ----------------------------------------------------------------------------------

  /** Loads frame k's stored masks (and its history, once per session); a gesture in progress is finished first. */
  goToFrame(k: number): Promise<void> {
    const index = Math.min(Math.max(0, Math.trunc(k)), this.clip.frameCount - 1);
    if (index === this.loadingIndex) return this.loading; // already on its way (command, then URL)
    if (index === this.ctx.frameIndex && this.loadingIndex === -1) return this.loading;
    this.tool.finish();
    this.closeDraftIfIdle();
    // Say at once which frame is coming, so keys pressed during the load (undo right after a
    // frame switch) are judged against the frame they will act on.
    this.setState({ frameIndex: index });
    this.loadingIndex = index;
    this.loading = this.switchTo(index).finally(() => {
      if (this.loadingIndex === index) this.loadingIndex = -1;
    });
    return this.loading;
  }

  private async switchTo(index: number): Promise<void> {
    const token = ++this.loadToken;
    const map = await this.loadMap(index);
    if (token !== this.loadToken) return;
    await this.loadHistory(index);
    if (token !== this.loadToken) return; // a later switch won
    const step = index >= this.ctx.frameIndex ? 1 : -1;
    this.maps.keep(index, map);
    this.ctx.map = map;
    this.ctx.frameIndex = index;
    this.setState({ frameIndex: index });
    for (const fn of this.frameListeners) fn(map);
    this.readAhead(index + step);
  }

  /**
   * Reads the next frame in the direction of travel while this one is looked at, so stepping
   * through a clip finds each map decoded (bench: switch frames). A map read before the clip was
   * reloaded from the store is not kept.
   */
  private readAhead(index: number): void {
    if (index < 0 || index >= this.clip.frameCount || this.closing) return;
    this.maps.readAhead(index, () => index === this.ctx.frameIndex);
  }

  /**
   * The masks of any frame as this tab knows them. Recently shown frames come from memory (this tab
   * holds the clip's edit lock, so its maps are the truth); others from the store, after pending
   * writes have landed, so a frame left a moment ago never comes back without its last stroke.
   */
  loadMap(index: number): Promise<LabelMap> {
    if (index === this.ctx.frameIndex) return Promise.resolve(this.ctx.map);
    return this.maps.get(index);
  }

  private async readMap(index: number): Promise<LabelMap> {
    if (this.queue.status.pending > 0) await this.queue.flush();
    const layer = await getLayer(this.db, this.clip.id, this.source, index);
    if (!this.tagsByFrame.has(index)) this.tagsByFrame.set(index, parseInstanceTags(layer?.instances));
    if (!layer) return createLabelMap(this.clip.width, this.clip.height);
    return decodeLayer(parseLayer(layer), { width: this.clip.width, height: this.clip.height });
  }

  /** Replays frame k's stored revisions into the undo stacks, once per session. */
  private async loadHistory(index: number): Promise<void> {
    if (this.historyLoaded.has(index)) return;
    const revisions = await listRevisions(this.db, this.clip.id, this.source, index);
    if (this.historyLoaded.has(index)) return;
    this.history.loadFrame(index, revisions);
    this.historyLoaded.add(index);
  }

  // ---- tools and settings ------------------------------------------------------------------

  setTool(id: EditorToolId): void {
    if (id === this.state.tool) return;
    this.tool.finish();
    this.closeDraftIfIdle();
    if (this.state.tool === 'sam') this.sam?.clear();
    // The tag and SAM tools have no Tool class: pixels keep the last painting tool.
    if (id !== 'tag' && id !== 'sam') this.tool = createTool(id, this.ctx);
    this.setState({ tool: id });
  }

  /** The SAM click tool (or null without a SAM model); it paints through toolContext. */
  setSamTool(tool: SamToolPort | null): void {
    if (this.sam && this.sam !== tool) this.sam.clear();
    this.sam = tool;
  }

  /**
   * Lends the canvas to a room's input mode (docs/architecture.md, "Room tools"): pointer input goes
   * to `tool` until `leave`, the paint tool gets none and keeps its place. A gesture under way is
   * finished first, as on a tool switch. A tool that edits masks is refused on a read-only clip.
   */
  enterRoomTool(tool: RoomTool): RoomToolEntry {
    if (tool.edits && this.state.readOnly) return { status: 'refused', reason: `${this.state.viewOnly ?? 'this clip is open read-only here'}; nothing can be edited` };
    this.tool.finish();
    this.closeDraftIfIdle();
    this.syncBusy();
    return { status: 'active', leave: this.rooms.enter(tool) };
  }

  /** The shown frame for the assist tools: its map, class, protect and `edit`. */
  get toolContext(): ShownFrameHost {
    return this.ctx;
  }

  /**
   * Makes the clip read-only for a while, with the reason the palette and refusals give (null ends
   * it). A stroke under way is finished first. Rooms use it instead of intercepting input.
   */
  setViewOnly(reason: string | null): void {
    if (reason === this.state.viewOnly) return;
    if (reason !== null) {
      this.tool.finish();
      this.closeDraftIfIdle();
      this.sam?.clear();
    }
    this.setState({ viewOnly: reason, readOnly: this.openedReadOnly || reason !== null });
    this.syncBusy();
  }

  setInstanceId(id: number): void {
    this.setState({ instanceId: Math.max(1, Math.min(MAX_INSTANCE_ID, Math.round(id))) });
  }

  /** Instance tags of the current frame. */
  get tags(): readonly InstanceTag[] {
    return this.tagsAt(this.ctx.frameIndex);
  }

  /** Instance tags of frame k as this tab knows them (read with its map by loadMap). */
  tagsAt(k: number): readonly InstanceTag[] {
    return this.tagsByFrame.get(k) ?? [];
  }

  /**
   * Replaces the current frame's instance tags (e.g. tags carried to this frame by propagation);
   * malformed entries are dropped; saved like any edit.
   */
  setTags(tags: readonly InstanceTag[]): void {
    if (this.state.readOnly) return;
    this.tagsByFrame.set(this.ctx.frameIndex, parseInstanceTags({ tags }));
    this.persist(this.ctx.frameIndex, this.ctx.map, null, false);
  }

  /** Tags the region under (x, y) with the current instance number; saved like any edit. */
  private tagAt(x: number, y: number): void {
    const next = tagRegion(this.ctx.map, this.tags, x, y, this.state.instanceId);
    if (!next) return;
    this.tagsByFrame.set(this.ctx.frameIndex, next);
    this.persist(this.ctx.frameIndex, this.ctx.map, null, false);
  }

  setClass(value: PaintClass): void {
    this.ctx.activeClass = value;
    this.setState({ activeClass: value });
  }

  setBrushSize(size: number): void {
    this.ctx.brushSize = Math.max(1, Math.min(512, Math.round(size)));
    this.setState({ brushSize: this.ctx.brushSize });
  }

  toggleProtect(): void {
    this.ctx.protect = !this.ctx.protect;
    this.setState({ protect: this.ctx.protect });
  }

  /** Screen-space tolerance for closing polygons, converted to image pixels by the view. */
  setHitRadius(r: number): void {
    this.ctx.hitRadius = r;
  }

  // ---- pointer and keys (already in image coordinates) ------------------------------------

  pointerDown(p: PointerInput): void {
    if (this.ctx.frameIndex < 0 || this.rooms.down(p, this.state.readOnly)) return;
    if (this.state.readOnly) return;
    if (this.state.tool === 'tag') {
      if (p.button === 0) this.tagAt(p.x, p.y);
      return;
    }
    if (this.state.tool === 'sam') {
      this.sam?.onPointerDown(p);
      return;
    }
    const wasBusy = this.tool.busy;
    this.tool.onPointerDown(p);
    if (!wasBusy && this.tool.busy) {
      const { activeClass, protect, brushSize, hitRadius, frameIndex } = this.ctx;
      this.drafts?.begin(this.tool.id, frameIndex, { activeClass, protect, brushSize, hitRadius, author: this.author() }, p);
    } else this.drafts?.input('down', p);
    this.syncBusy();
  }

  pointerMove(p: PointerInput): void {
    if (this.rooms.move(p, this.state.readOnly)) return;
    if (this.state.readOnly || this.state.tool === 'tag') return;
    if (this.state.tool === 'sam') return this.sam?.onPointerMove(p);
    this.tool.onPointerMove(p);
    if (this.tool.busy) this.drafts?.input('move', p);
  }

  pointerUp(p: PointerInput): void {
    if (this.rooms.up(p, this.state.readOnly)) return;
    if (this.state.readOnly || this.state.tool === 'tag') return;
    if (this.state.tool === 'sam') return this.sam?.onPointerUp(p);
    // The up row is written before the tool commits, so the commit settles it along with the rest.
    this.drafts?.input('up', p);
    this.tool.onPointerUp(p);
    this.syncBusy();
  }

  /** Enter, Escape, Backspace (and Tab for SAM) for the active tool; true when the tool used the key. */
  toolKey(key: string, shift = false): boolean {
    if (this.state.tool === 'sam') return !this.state.readOnly && (this.sam?.onKey(key, shift) ?? false);
    const used = this.tool.onKey(key);
    this.syncBusy();
    return used;
  }

  cancelGesture(): void {
    this.rooms.cancel();
    this.tool.cancel();
    this.syncBusy();
  }

  // ---- edits -----------------------------------------------------------------------------------

  undo(): Promise<void> {
    return this.afterLoad(() => {
      if (this.state.readOnly || this.tool.busy) return;
      const patch = this.history.undo(this.ctx.frameIndex, this.ctx.map);
      if (patch) this.applied(patch);
    });
  }

  redo(): Promise<void> {
    return this.afterLoad(() => {
      if (this.state.readOnly || this.tool.busy) return;
      const patch = this.history.redo(this.ctx.frameIndex, this.ctx.map);
      if (patch) this.applied(patch);
    });
  }

  clearFrame(): Promise<void> {
    return this.afterLoad(() => {
      this.tool.finish();
      this.editNow(this.ctx.frameIndex, this.ctx.map, 'clear', (map) => new Uint8Array(map.data.length));
    });
  }

  /** Replaces this frame's masks with the previous frame's stored masks: one undoable step. */
  async copyPreviousFrame(): Promise<void> {
    await this.afterLoad(() => undefined);
    const k = this.ctx.frameIndex;
    if (this.state.readOnly || k <= 0) return;
    this.tool.finish();
    const previous = await this.loadMap(k - 1);
    if (previous.width !== this.clip.width || previous.height !== this.clip.height) throw new RangeError(`frame ${k} has a different size`);
    await this.edit(k, 'copy-frame', () => previous.data.slice());
  }

  /**
   * One transaction for every whole-frame writer (an assist's accept, propagation, an agreement
   * pick, suggested states, clear, copy): refuses on a read-only clip or while a stroke is under way
   * on that frame, computes the frame's next labels from its current map, diffs them into one patch
   * (one undo step), persists it with a revision named `action`, and redraws if the frame is shown.
   * The frame need not be the one shown: its map is read (from memory or the store) and kept. Edits
   * run in order, one at a time.
   */
  edit(frameIndex: number, action: string, compute: FrameCompute, options: EditOptions = {}): Promise<EditOutcome> {
    const run = this.editChain.then(() => this.editAnyFrame(frameIndex, action, compute, options));
    this.editChain = run.catch(() => undefined);
    return run;
  }

  private async editAnyFrame(frameIndex: number, action: string, compute: FrameCompute, options: EditOptions): Promise<EditOutcome> {
    if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= this.clip.frameCount) {
      return { status: 'refused', frameIndex, reason: `frame ${frameIndex + 1} is not in this ${this.clip.frameCount}-frame clip` };
    }
    for (;;) {
      await this.afterLoad(() => undefined);
      // Read-only: editNow refuses without reading anything.
      if (this.state.readOnly || frameIndex === this.ctx.frameIndex) return this.editNow(frameIndex, this.ctx.map, action, compute, options);
      const map = await this.loadMap(frameIndex);
      await this.loadHistory(frameIndex);
      // A switch began meanwhile (perhaps to this very frame): decide again once it is done.
      if (this.loadingIndex !== -1 || frameIndex === this.ctx.frameIndex) continue;
      return this.editNow(frameIndex, map, action, compute, options);
    }
  }

  /** The synchronous heart of `edit`, on a map already at hand (the shown one, or a loaded one). */
  private editNow(frameIndex: number, map: LabelMap, action: string, compute: FrameCompute, options: EditOptions = {}): EditOutcome {
    if (this.state.readOnly) {
      const why = this.state.viewOnly ?? 'this clip is open read-only here';
      return { status: 'refused', frameIndex, reason: `${why}; nothing was changed` };
    }
    const shown = frameIndex === this.ctx.frameIndex;
    if (shown && this.tool.busy) return { status: 'refused', frameIndex, reason: 'finish the stroke in progress first; nothing was changed' };
    const next = compute(map);
    const patch = next ? labelsPatch(map, next, frameIndex, action) : null;
    const tagsBefore = this.tagsByFrame.get(frameIndex) ?? [];
    const tagsAfter = options.tags ? parseInstanceTags({ tags: options.tags(tagsBefore, map) }) : null;
    const tagsChanged = tagsAfter !== null && JSON.stringify(tagsAfter) !== JSON.stringify(tagsBefore);
    if (!patch && !tagsChanged) return { status: 'unchanged', frameIndex };
    if (tagsAfter && tagsChanged) this.tagsByFrame.set(frameIndex, tagsAfter);
    if (!shown) this.maps.keep(frameIndex, map);
    if (patch) this.history.commit(patch);
    this.persist(frameIndex, map, patch, false);
    if (patch && shown) this.emitInvalidate(patch.box);
    this.syncBusy();
    return { status: 'applied', frameIndex, patch };
  }

  /** Writes everything pending now (on visibilitychange, before leaving the editor). */
  flush(): Promise<void> {
    this.tool.finish();
    return this.queue.flush();
  }

  /** The page is going away (pagehide): start every waiting write now, without waiting for anything. */
  flushBeforeLeaving(): void {
    this.tool.finish();
    this.queue.writeBeforeLeaving();
  }

  /**
   * Another tab changed this clip's gt (externalChanges.ts): forget what is cached here and read the
   * current frame again. Queued writes are dropped, not flushed: they were computed from stale masks.
   */
  async reloadFromStore(): Promise<void> {
    this.tool.cancel();
    this.sam?.clear();
    this.closeDraftIfIdle();
    // Their gestures' drafts go too: they were drawn on stale masks and must not come back at the next start.
    for (const item of this.queue.discardQueued()) for (const ref of item.drafts ?? []) void dropGestureDraft(this.db, ref);
    this.history.reset();
    this.historyLoaded.clear();
    this.maps.clear();
    this.tagsByFrame.clear();
    if (this.keptPending && this.pending) {
      this.keptPending = false;
      ++this.keepRequests;
      this.setState({ unsavedKept: null });
      void this.pending.drop(this.clip.id).catch(() => undefined);
    }
    const k = this.state.frameIndex;
    this.loadToken++;
    this.ctx.frameIndex = -1;
    this.loadingIndex = -1;
    await this.goToFrame(k);
    this.setState({ revision: this.state.revision + 1 });
  }

  /** Settles once the input of strokes in progress written so far is stored (or dropped). */
  draftsWritten(): Promise<void> {
    return this.drafts?.whenWritten() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.flush().catch(() => undefined);
    await this.draftsWritten();
    this.queue.destroy();
    if (this.keepRetryTimer !== null) clearTimeout(this.keepRetryTimer);
    this.invalidateListeners.clear();
    this.frameListeners.clear();
    this.stateListeners.clear();
    this.editListeners.clear();
    this.rooms.clear();
  }

  // ---- internals -------------------------------------------------------------------------------

  /** Runs `fn` once no frame switch is pending (a switch started meanwhile is waited for too). */
  private async afterLoad(fn: () => void): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.loading;
      await current.catch(() => undefined);
    } while (current !== this.loading);
    fn();
  }

  /** A tool's finished gesture on the shown frame (already applied to the map). */
  private commit(patch: Patch): void {
    this.history.commit(patch);
    this.persist(patch.frameIndex, this.ctx.map, patch, true);
    this.syncBusy();
  }

  /** An undo or redo, already applied to the map by History. */
  private applied(patch: Patch): void {
    this.persist(patch.frameIndex, this.ctx.map, patch, false);
    this.emitInvalidate(patch.box);
  }

  /**
   * Queues the frame's layer (from `map`) with the patch's revision, if any. A gesture's commit
   * also settles the gesture's draft rows in the same write.
   */
  private persist(frameIndex: number, map: LabelMap, patch: Patch | null, gesture: boolean): void {
    const at = Date.now();
    const revisions = patch ? [{ ...patchToRevision(patch), clipId: this.clip.id, source: this.source, author: this.author(), at }] : [];
    const draft = gesture ? (this.drafts?.take(frameIndex) ?? null) : null;
    this.queue.enqueue({ ...this.pendingWrite(frameIndex, map, revisions), ...(draft ? { drafts: [draft] } : {}) });
    // While saves fail, every new edit joins the kept ones (the status may not change with it).
    if (this.queue.status.state === 'error' || this.queue.status.stalled || this.saveHasFailed) this.keepOrDropPending();
    this.setState({ revision: this.state.revision + 1 });
    for (const fn of this.editListeners) fn(frameIndex);
  }

  /**
   * Keeps unsaved edits through the port while saves fail (and, once one has failed in this
   * session, while any write is under way); forgets them once everything is saved.
   */
  private keepOrDropPending(): void {
    const { state, stalled } = this.queue.status;
    // A stalled write counts as failed: the database may never answer it (docs/durability.md).
    if (state === 'error' || stalled) this.saveHasFailed = true;
    const port = this.pending;
    if (!port) return;
    if (this.keepRetryTimer !== null) clearTimeout(this.keepRetryTimer);
    this.keepRetryTimer = null;
    if (state === 'error' || (this.saveHasFailed && state !== 'idle')) {
      const edits = this.queue.unsaved().map(toFrameEdits);
      const request = ++this.keepRequests;
      this.keptPending = true;
      if (this.state.unsavedKept !== 'not-kept') this.setState({ unsavedKept: 'keeping' });
      this.pendingChain = this.pendingChain
        .then(() => port.keep(this.clip.id, edits))
        .then(
          () => {
            this.pendingError = null;
            if (request === this.keepRequests) this.setState({ unsavedKept: 'kept' });
          },
          (err: unknown) => {
            this.pendingError = err instanceof Error ? err.message : String(err);
            if (request !== this.keepRequests) return;
            this.setState({ unsavedKept: 'not-kept' });
            // Nothing else may happen for a while (a stalled write changes no status): try again,
            // since space may come back.
            this.keepRetryTimer = setTimeout(() => {
              this.keepRetryTimer = null;
              if (request === this.keepRequests) this.keepOrDropPending();
            }, KEEP_RETRY_MS);
          },
        );
    } else if (state === 'idle' && this.keptPending) {
      this.keptPending = false;
      ++this.keepRequests;
      this.setState({ unsavedKept: null });
      this.pendingChain = this.pendingChain.then(() => port.drop(this.clip.id)).catch(() => undefined);
    }
  }

  /** The frame's whole layer as it is now (masks and instance tags) plus the given revisions. */
  private pendingWrite(frameIndex: number, map: LabelMap, revisions: RevisionInput[]): PendingWrite<LayerInput, RevisionInput> {
    const { act, trf } = encodeLayer(map);
    const tags = this.tagsByFrame.get(frameIndex) ?? [];
    return {
      clipId: this.clip.id,
      frameIndex,
      source: this.source,
      layer: {
        clipId: this.clip.id,
        frameIndex,
        source: this.source,
        act,
        trf,
        ...(tags.length > 0 ? { instances: { tags } } : {}),
        provenance: { kind: 'manual', by: this.author(), at: Date.now() },
      },
      revisions,
    };
  }

  /** A drafted gesture that ended without committing (Escape, nothing changed) drops its rows. */
  private closeDraftIfIdle(): void {
    if (this.drafts?.isOpen && !this.tool.busy) this.drafts.abandon();
  }

  private syncBusy(): void {
    this.closeDraftIfIdle();
    const k = this.ctx.frameIndex;
    this.setState({ busy: this.tool.busy, canUndo: this.history.canUndo(k), canRedo: this.history.canRedo(k) });
  }

  private setState(patch: Partial<SessionState>): void {
    const next = { ...this.state, ...patch };
    if (patch.frameIndex !== undefined) {
      next.canUndo = this.history.canUndo(next.frameIndex);
      next.canRedo = this.history.canRedo(next.frameIndex);
    }
    if (patch.revision !== undefined) {
      next.canUndo = this.history.canUndo(this.ctx.frameIndex);
      next.canRedo = this.history.canRedo(this.ctx.frameIndex);
    }
    const changed = (Object.keys(next) as (keyof SessionState)[]).some((key) => next[key] !== this.state[key]);
    if (!changed) return;
    this.state = next;
    for (const fn of this.stateListeners) fn(next);
  }

  private emitInvalidate(box: Box): void {
    for (const fn of this.invalidateListeners) fn(box);
  }

  /** The whole frame, for callers that replaced every pixel. */
  fullBox(): Box {
    return FULL(this.ctx.map);
  }
}

function toFrameEdits(w: PendingWrite<LayerInput, RevisionInput>): FrameEdits {
  return { layer: w.layer, revisions: w.revisions, ...(w.drafts ? { drafts: w.drafts } : {}) };
}
