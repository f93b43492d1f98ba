/**
 * One open clip in the editor: the current frame's label map, the active tool, per-frame history
 * and the write-behind queue that persists every committed gesture (layer + revision) to
 * IndexedDB within a second. Framework-free: the canvas view and React subscribe to its events and
 * send it commands; it never touches the DOM.
 *
 * Its parts, each with one reason to change: switching frames (frameSwitcher.ts), the frames this
 * tab knows (clipFrames.ts), where input goes (toolRouter.ts), the pure step of an edit
 * (frameEdit.ts), what a write holds (frameWrite.ts), saving and keeping unsaved edits
 * (editSaver.ts), refusals (readOnlyReasons.ts). This file ties them into one transaction
 * (docs/architecture.md).
 */
import type { SpocDb } from '../../store/db';
import { dropGestureDraft, writeGestureDraft } from '../../store/gestureDrafts';
import type { Clip, ContactAnswer, LayerObject, LayerRelation, LayerSource } from '../../store/types';
import { STATE_CODEC, type PixelCodec } from '../pixelCodec';
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import { makeRle } from '../../masks/rle';
import { sameRelations, withContact, type ContactChange } from '../../objects/relations';
import { boxUnion, contentBox } from '../../masks/geometry';
import { History } from '../history';
import type { PersistStatus } from '../persistQueue';
import type { PointerInput } from '../tools/types';
import type { RoomTool } from '../tools/roomTool';
import type { EditorToolId } from '../actions';
import { MAX_INSTANCE_ID, parseInstanceTags, tagRegion, type InstanceTag } from '../instances';
import type { PaintClass } from '../paint/paintRule';
import type { Patch } from '../patch';
import { GestureDraftRecorder } from './gestureDraftRecorder';
import { ClipFrames } from './clipFrames';
import { FrameSwitcher } from './frameSwitcher';
import { ToolRouter, type MutableToolContext } from './toolRouter';
import { EditSaver } from './editSaver';
import { frameChange, relationsStep } from './frameEdit';
import { frameWrite } from './frameWrite';
import { Listeners } from './listeners';
import { frameOutsideClip, readOnlyRefusal, readOnlyToolRefusal, STROKE_UNDER_WAY } from './readOnlyReasons';
import type {
  Author,
  EditOptions,
  EditOutcome,
  FrameCompute,
  ObjectFacts,
  RoomToolEntry,
  SamToolPort,
  SessionOptions,
  SessionState,
  ShownFrameHost,
} from './sessionTypes';

export type * from './sessionTypes';

export class EditorSession {
  readonly clip: Clip;
  readonly source: LayerSource = 'gt';
  private readonly db: SpocDb;
  /** Who is editing, asked at each write: the user may rename themselves while the clip is open. */
  private readonly author: () => string;
  private readonly history: History;
  /** How the shown map meets the stored rows (states or objects: annotator/pixelCodec.ts). */
  readonly codec: PixelCodec;
  private readonly frames: ClipFrames;
  private readonly switcher: FrameSwitcher;
  private readonly saver: EditSaver;
  private readonly input: ToolRouter;
  private closing = false;
  private readonly ctx: MutableToolContext;
  private state: SessionState;
  /** No nonzero pixel of the shown frame lies outside it: computed once per frame switch, widened by each change since. */
  private content: Box | null = null;
  private readonly invalidated = new Listeners<Box>();
  private readonly framed = new Set<(map: LabelMap, content: Box | null) => void>();
  private readonly stated = new Listeners<SessionState>();
  private readonly edited = new Listeners<number>();
  /** Opened read-only (approved clip, another tab holds the lock): never editable in this session. */
  private readonly openedReadOnly: boolean;
  /** Edits run one at a time, so two edits of a frame that is not shown never read the same stale map. */
  private editChain: Promise<unknown> = Promise.resolve();
  /** Writes the input of a stroke in progress, so a crash cannot take a finished one (docs/durability.md). */
  private readonly drafts: GestureDraftRecorder | null;

  private constructor(db: SpocDb, clip: Clip, author: Author, options: SessionOptions) {
    const readOnly = options.readOnly ?? false;
    this.db = db;
    this.clip = clip;
    this.author = typeof author === 'function' ? author : () => author;
    this.drafts = readOnly
      ? null
      : new GestureDraftRecorder(clip.id, {
          write: (row) => writeGestureDraft(db, row),
          drop: (ref) => dropGestureDraft(db, ref),
        });
    this.codec = options.codec ?? STATE_CODEC;
    this.history = new History({ codec: this.codec });
    this.saver = new EditSaver(db, clip, options.pending ?? null, options.stallMs, (unsavedKept) => this.setState({ unsavedKept }));
    this.frames = new ClipFrames(db, clip, this.source, this.history, () => this.saver.landed(), this.codec);
    this.switcher = new FrameSwitcher({
      shownIndex: () => this.ctx.frameIndex,
      load: (index) => this.loadMap(index),
      loadHistory: (index) => this.frames.loadHistory(index),
      show: (index, map) => this.show(index, map),
    });
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
    this.input = new ToolRouter(this.ctx, this.drafts, {
      state: () => this.state,
      author: () => this.author(),
      paintedObject: () => this.objectOf(this.ctx.activeClass),
      lockedObjects: () => this.state.lockedObjects,
      tagAt: (x, y) => this.tagAt(x, y),
      settle: () => this.syncBusy(),
      roomToolChanged: () => this.setState({ roomTool: this.input.roomTool?.scope ?? null }),
    });
    this.state = {
      frameIndex: -1,
      tool: 'brush',
      instanceId: 1,
      activeClass: 1,
      brushSize: 16,
      protect: true,
      lockedObjects: [],
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

  /**
   * A box outside which the shown frame holds no nonzero pixel (null: none at all). Computed once
   * when the frame is shown and widened by every change since, so the canvas and the live area
   * counter start from it instead of scanning the frame each.
   */
  get shownContent(): Box | null {
    return this.content;
  }

  get snapshot(): SessionState {
    return this.state;
  }

  get toolPreview() {
    return this.input.preview;
  }

  /** The room tool that gets the pointer now, or null (for the canvas's cursor and hint). */
  get roomTool(): RoomTool | null {
    return this.input.roomTool;
  }

  get persistStatus(): PersistStatus {
    return this.saver.status;
  }

  onInvalidate(fn: (box: Box) => void): () => void {
    return this.invalidated.add(fn);
  }

  /** Called with the map of each frame shown, and its content box (`shownContent`). */
  onFrame(fn: (map: LabelMap, content: Box | null) => void): () => void {
    this.framed.add(fn);
    return () => this.framed.delete(fn);
  }

  onState(fn: (state: SessionState) => void): () => void {
    return this.stated.add(fn);
  }

  /** Called with the frame index after every committed change of a frame (shown or not): strokes, edits, undo, tags. */
  onEdit(fn: (frameIndex: number) => void): () => void {
    return this.edited.add(fn);
  }

  onPersist(fn: (status: PersistStatus) => void): () => void {
    return this.saver.subscribe(fn);
  }

  /**
   * True while leaving the page would lose something: a save failed (even if the edits are kept in
   * the journal, the user should know), or edits wait behind a write in flight. A write in flight
   * alone is not, normally: its transaction commits even if the page goes away — unless saves have
   * failed in this session (a full disk), when that write may fail too, with no page left to retry.
   */
  get hasUnsavedEdits(): boolean {
    return this.saver.hasUnsavedEdits;
  }

  /** Why keeping unsaved edits in the journal failed too, or null. */
  get pendingKeepError(): string | null {
    return this.saver.keepError;
  }

  // ---- frames ----------------------------------------------------------------------------------

  /** Loads frame k's stored masks (and its history, once per session); a gesture in progress is finished first. */
  goToFrame(k: number): Promise<void> {
    const index = Math.min(Math.max(0, Math.trunc(k)), this.clip.frameCount - 1);
    return this.switcher.go(index, () => {
      this.input.endGesture();
      // Say at once which frame is coming, so keys pressed during the load (undo right after a
      // frame switch) are judged against the frame they will act on.
      this.setState({ frameIndex: index });
    });
  }

  /** A frame switch won: frame k is the shown one. */
  private show(index: number, map: LabelMap): void {
    const step = index >= this.ctx.frameIndex ? 1 : -1;
    this.frames.keep(index, map);
    this.ctx.map = map;
    this.ctx.frameIndex = index;
    this.content = contentBox(map);
    this.setState({ frameIndex: index });
    for (const fn of this.framed) fn(map, this.content);
    this.readAhead(index + step);
  }

  /**
   * Reads the next frame in the direction of travel while this one is looked at, so stepping
   * through a clip finds each map decoded (bench: switch frames). A map read before the clip was
   * reloaded from the store is not kept.
   */
  private readAhead(index: number): void {
    if (index < 0 || index >= this.clip.frameCount || this.closing) return;
    this.frames.readAhead(index, () => index === this.ctx.frameIndex);
  }

  /**
   * The masks of any frame as this tab knows them. Recently shown frames come from memory (this tab
   * holds the clip's edit lock, so its maps are the truth); others from the store, after pending
   * writes have landed, so a frame left a moment ago never comes back without its last stroke.
   */
  loadMap(index: number): Promise<LabelMap> {
    if (index === this.ctx.frameIndex) return Promise.resolve(this.ctx.map);
    return this.frames.map(index);
  }

  // ---- tools and settings ------------------------------------------------------------------

  setTool(id: EditorToolId): void {
    if (id === this.state.tool) return;
    this.input.switchTool(this.state.tool, id);
    this.setState({ tool: id });
  }

  /** The SAM click tool (or null without a SAM model); it paints through toolContext. */
  setSamTool(tool: SamToolPort | null): void {
    this.input.setSamTool(tool);
  }

  /**
   * Lends the canvas to a room's input mode (docs/architecture.md, "Room tools"): pointer input goes
   * to `tool` until `leave`, the paint tool gets none and keeps its place. A gesture under way is
   * finished first, as on a tool switch. A tool that edits masks is refused on a read-only clip.
   */
  enterRoomTool(tool: RoomTool): RoomToolEntry {
    if (tool.edits && this.state.readOnly) return { status: 'refused', reason: readOnlyToolRefusal(this.state.viewOnly) };
    this.input.endGesture();
    this.syncBusy();
    return { status: 'active', leave: this.input.enterRoomTool(tool) };
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
      this.input.endGesture();
      this.input.clearSam();
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
    return this.frames.tagsAt(k);
  }

  /**
   * Replaces the current frame's instance tags (e.g. tags carried to this frame by propagation);
   * malformed entries are dropped; saved like any edit.
   */
  setTags(tags: readonly InstanceTag[]): void {
    if (this.state.readOnly) return;
    this.frames.setTags(this.ctx.frameIndex, parseInstanceTags({ tags }));
    this.persist(this.ctx.frameIndex, this.ctx.map, null, false);
  }

  /** Tags the region under (x, y) with the current instance number; saved like any edit. */
  private tagAt(x: number, y: number): void {
    const next = tagRegion(this.ctx.map, this.tags, x, y, this.state.instanceId);
    if (!next) return;
    this.frames.setTags(this.ctx.frameIndex, next);
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

  /**
   * Objects projects: the objects no tool may change (locked or hidden in the object list); their
   * pixels are neither painted over nor erased, and painting with one of them changes nothing.
   */
  setLockedObjects(ids: readonly string[]): void {
    const slots = this.codec.slots;
    if (!slots) return;
    const unique = [...new Set(ids)];
    if (unique.length === this.state.lockedObjects.length && unique.every((id) => this.state.lockedObjects.includes(id))) return;
    this.input.endGesture();
    this.ctx.locked = unique.map((id) => slots.slotOf(id));
    this.setState({ lockedObjects: unique });
  }

  toggleProtect(): void {
    this.ctx.protect = !this.ctx.protect;
    this.setState({ protect: this.ctx.protect });
  }

  /** Screen-space tolerance for closing polygons, converted to image pixels by the view. */
  setHitRadius(r: number): void {
    this.ctx.hitRadius = r;
  }

  // ---- pointer and keys (already in image coordinates; toolRouter.ts routes them) -----------

  pointerDown(p: PointerInput): void {
    this.input.pointerDown(p);
  }

  pointerMove(p: PointerInput): void {
    this.input.pointerMove(p);
  }

  pointerUp(p: PointerInput): void {
    this.input.pointerUp(p);
  }

  /** Enter, Escape, Backspace (and Tab for SAM) for the active tool; true when the tool used the key. */
  toolKey(key: string, shift = false): boolean {
    return this.input.key(key, shift);
  }

  cancelGesture(): void {
    this.input.cancel();
    this.syncBusy();
  }

  // ---- edits -----------------------------------------------------------------------------------

  undo(): Promise<void> {
    return this.switcher.afterLoad(() => {
      if (this.state.readOnly || this.input.busy) return;
      const patch = this.history.undo(this.ctx.frameIndex, this.ctx.map, this.frames.relationsAt(this.ctx.frameIndex));
      if (patch) this.applied(patch);
    });
  }

  redo(): Promise<void> {
    return this.switcher.afterLoad(() => {
      if (this.state.readOnly || this.input.busy) return;
      const patch = this.history.redo(this.ctx.frameIndex, this.ctx.map, this.frames.relationsAt(this.ctx.frameIndex));
      if (patch) this.applied(patch);
    });
  }

  clearFrame(): Promise<void> {
    return this.switcher.afterLoad(() => {
      this.input.finishGesture();
      this.editNow(this.ctx.frameIndex, this.ctx.map, 'clear', (map) => new Uint8Array(map.data.length));
    });
  }

  /** Replaces this frame's masks with the previous frame's stored masks: one undoable step. */
  async copyPreviousFrame(): Promise<void> {
    await this.switcher.afterLoad(() => undefined);
    const k = this.ctx.frameIndex;
    if (this.state.readOnly || k <= 0) return;
    this.input.finishGesture();
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
    return this.chained(frameIndex, (map) => this.editNow(frameIndex, map, action, compute, options));
  }

  /**
   * Sets hand `subjectId`'s contact answer on frame k (touching `objectId` when the answer is
   * `contact`; null clears the answer): one undoable step in the same transaction as every edit
   * (docs/objects.md "Relations in the editor"). Refused when an end is not on the frame.
   */
  setContact(frameIndex: number, subjectId: string, answer: ContactAnswer | null, objectId?: string): Promise<EditOutcome> {
    const action = answer === null ? 'contact:clear' : `contact:${answer}`;
    return this.chained(frameIndex, (map) => this.relationsNow(frameIndex, map, action, (relations, objects) => withContact(relations, objects, subjectId, answer, objectId)));
  }

  /** Frame k's relations as this session knows them (read with its map). */
  relationsAt(frameIndex: number): readonly LayerRelation[] {
    return this.frames.relationsAt(frameIndex);
  }

  /** In an objects project, the object owning pixel (x, y) of the shown frame, if any. */
  objectAtPoint(x: number, y: number): string | undefined {
    const { map } = this.ctx;
    const px = Math.floor(x);
    const py = Math.floor(y);
    if (px < 0 || py < 0 || px >= map.width || py >= map.height) return undefined;
    return this.codec.slots?.idOf(map.data[py * map.width + px]);
  }

  /**
   * Marks object `id` exhaustively annotated on the shown frame, or not (VISOR's flag). Not an undo
   * step: a checkbox whose inverse is clicking it again (docs/architecture.md "Undo policy"); saved
   * with the frame's layer like instance tags.
   */
  setExhaustive(id: string, on: boolean): EditOutcome {
    const k = this.ctx.frameIndex;
    if (this.state.readOnly) return { status: 'refused', frameIndex: k, reason: readOnlyRefusal(this.state.viewOnly) };
    // The write takes the map as it is: never half a stroke.
    if (this.input.busy) return { status: 'refused', frameIndex: k, reason: STROKE_UNDER_WAY };
    const objects = this.frames.objectsAt(k);
    const at = objects.findIndex((o) => o.id === id);
    if ((at >= 0 && Boolean(objects[at].exhaustive) === on) || (at < 0 && !on)) return { status: 'unchanged', frameIndex: k };
    const { width: w, height: h } = this.ctx.map;
    const next =
      at >= 0
        ? objects.map((o, i): LayerObject => (i !== at ? o : on ? { ...o, exhaustive: true as const } : withoutExhaustive(o)))
        : [...objects, { id, rle: makeRle([w * h], h, w), area: 0, exhaustive: true as const }];
    this.frames.setObjects(k, next);
    this.persist(k, this.ctx.map, null, false);
    return { status: 'applied', frameIndex: k, patch: null };
  }

  /** Runs `now` on frame k's map once it is at hand, after the edits queued before it (see `edit`). */
  private chained(frameIndex: number, now: (map: LabelMap) => EditOutcome): Promise<EditOutcome> {
    const run = this.editChain.then(() => this.onAnyFrame(frameIndex, now));
    this.editChain = run.catch(() => undefined);
    return run;
  }

  private async onAnyFrame(frameIndex: number, now: (map: LabelMap) => EditOutcome): Promise<EditOutcome> {
    if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= this.clip.frameCount) {
      return { status: 'refused', frameIndex, reason: frameOutsideClip(frameIndex, this.clip.frameCount) };
    }
    for (;;) {
      await this.switcher.afterLoad(() => undefined);
      // Read-only: editNow refuses without reading anything.
      if (this.state.readOnly || frameIndex === this.ctx.frameIndex) return now(this.ctx.map);
      const map = await this.loadMap(frameIndex);
      await this.frames.loadHistory(frameIndex);
      // A switch began meanwhile (perhaps to this very frame): decide again once it is done.
      if (this.switcher.coming !== -1 || frameIndex === this.ctx.frameIndex) continue;
      return now(map);
    }
  }

  /** The synchronous heart of a relation edit: one step holding the frame's relations before and after, no pixel changed. */
  private relationsNow(frameIndex: number, map: LabelMap, action: string, compute: (relations: readonly LayerRelation[], objects: readonly LayerObject[]) => ContactChange): EditOutcome {
    if (this.state.readOnly) return { status: 'refused', frameIndex, reason: readOnlyRefusal(this.state.viewOnly) };
    const shown = frameIndex === this.ctx.frameIndex;
    if (shown && this.input.busy) return { status: 'refused', frameIndex, reason: STROKE_UNDER_WAY };
    const before = this.frames.relationsAt(frameIndex);
    const change = compute(before, this.frames.objectsAt(frameIndex));
    if ('refused' in change) return { status: 'refused', frameIndex, reason: change.refused };
    if (sameRelations(before, change.relations)) return { status: 'unchanged', frameIndex };
    if (!shown) this.frames.keep(frameIndex, map);
    const patch = this.persist(frameIndex, map, relationsStep(frameIndex, map, action, [...before], change.relations), false);
    if (patch) this.history.commit(patch);
    this.syncBusy();
    return { status: 'applied', frameIndex, patch };
  }

  /** The synchronous heart of `edit`, on a map already at hand (the shown one, or a loaded one). */
  private editNow(frameIndex: number, map: LabelMap, action: string, compute: FrameCompute, options: EditOptions = {}): EditOutcome {
    if (this.state.readOnly) return { status: 'refused', frameIndex, reason: readOnlyRefusal(this.state.viewOnly) };
    const shown = frameIndex === this.ctx.frameIndex;
    if (shown && this.input.busy) return { status: 'refused', frameIndex, reason: STROKE_UNDER_WAY };
    const change = frameChange(frameIndex, map, action, compute, this.frames.tagsAt(frameIndex), options);
    if (!change && !(options.objects && this.factsChange(frameIndex, options.objects))) return { status: 'unchanged', frameIndex };
    const { patch, tags } = change ?? { patch: null, tags: null };
    if (tags) this.frames.setTags(frameIndex, tags);
    if (!shown) this.frames.keep(frameIndex, map);
    const committed = this.persist(frameIndex, map, patch, false, options.objects);
    if (committed) this.history.commit(committed);
    if (patch && shown) this.emitInvalidate(patch.box);
    this.syncBusy();
    return { status: 'applied', frameIndex, patch };
  }

  /** Writes everything pending now (on visibilitychange, before leaving the editor). */
  flush(): Promise<void> {
    this.input.finishGesture();
    return this.saver.flush();
  }

  /** The page is going away (pagehide): start every waiting write now, without waiting for anything. */
  flushBeforeLeaving(): void {
    this.input.finishGesture();
    this.saver.writeBeforeLeaving();
  }

  /**
   * Another tab changed this clip's gt (externalChanges.ts): forget what is cached here and read the
   * current frame again. Queued writes are dropped, not flushed: they were computed from stale masks.
   */
  async reloadFromStore(): Promise<void> {
    this.input.dropGesture();
    // Their gestures' drafts go too: they were drawn on stale masks and must not come back at the next start.
    for (const item of this.saver.discardQueued()) for (const ref of item.drafts ?? []) void dropGestureDraft(this.db, ref);
    this.frames.clear();
    this.saver.forgetKept();
    const k = this.state.frameIndex;
    this.switcher.abandon();
    this.ctx.frameIndex = -1;
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
    this.saver.destroy();
    this.invalidated.clear();
    this.framed.clear();
    this.stated.clear();
    this.edited.clear();
    this.input.clearRoomTools();
  }

  /** In an objects project, the id of the object painted with `value` (a slot), else undefined. */
  objectOf(value: number): string | undefined {
    return this.codec.slots?.idOf(value);
  }

  /** In an objects project, the map value that paints object `id` (it gets a slot on first use). */
  slotOf(id: string): number {
    if (!this.codec.slots) throw new Error('this clip is not in an objects project');
    return this.codec.slots.slotOf(id);
  }

  /** Frame k's objects as this session knows them (pixels, presence, keyframe). */
  objectsAt(frameIndex: number): readonly LayerObject[] {
    return this.frames.objectsAt(frameIndex);
  }

  // ---- internals -------------------------------------------------------------------------------

  /** A tool's finished gesture on the shown frame (already applied to the map). */
  private commit(patch: Patch): void {
    // The history holds the step as written: with the relations it dropped, if any.
    this.history.commit(this.persist(patch.frameIndex, this.ctx.map, patch, true) ?? patch);
    this.syncBusy();
  }

  /** An undo or redo, already applied to the map by History. */
  private applied(patch: Patch): void {
    this.persist(patch.frameIndex, this.ctx.map, patch, false);
    this.emitInvalidate(patch.box);
  }

  /** Whether `facts` change frame k's objects when its pixels stay (an edit that sets only facts). */
  private factsChange(frameIndex: number, facts: ObjectFacts): boolean {
    const before = this.frames.objectsAt(frameIndex);
    return JSON.stringify(facts(before)) !== JSON.stringify(before);
  }

  /**
   * Queues the frame's layer (from `map`) with the patch's revision, if any. A gesture's commit
   * also settles the gesture's draft rows in the same write. Returns the patch as written: with
   * the relations the change dropped (frameWrite.ts), which is what the history must hold.
   */
  private persist(frameIndex: number, map: LabelMap, patch: Patch | null, gesture: boolean, facts?: ObjectFacts): Patch | null {
    const written = frameWrite({
      clipId: this.clip.id,
      source: this.source,
      frameIndex,
      map,
      tags: this.frames.tagsAt(frameIndex),
      patch,
      author: this.author(),
      at: Date.now(),
      codec: this.codec,
      objects: this.frames.objectsAt(frameIndex),
      facts,
      relations: this.frames.relationsAt(frameIndex),
    });
    const { write } = written;
    this.frames.setObjects(frameIndex, write.layer.objects);
    this.frames.setRelations(frameIndex, written.relations);
    const draft = gesture ? (this.drafts?.take(frameIndex) ?? null) : null;
    this.saver.enqueue({ ...write, ...(draft ? { drafts: [draft] } : {}) });
    this.setState({ revision: this.state.revision + 1 });
    this.edited.emit(frameIndex);
    return written.patch;
  }

  private syncBusy(): void {
    this.input.closeDraftIfIdle();
    const k = this.ctx.frameIndex;
    this.setState({ busy: this.input.busy, canUndo: this.history.canUndo(k), canRedo: this.history.canRedo(k) });
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
    this.stated.emit(next);
  }

  /** Pixels of the shown frame changed inside `box`: the content box grows to hold them, then the views redraw. */
  private emitInvalidate(box: Box): void {
    this.content = this.content ? boxUnion(this.content, box) : box;
    this.invalidated.emit(box);
  }

  /** The whole frame, for callers that replaced every pixel. */
  fullBox(): Box {
    return { x: 0, y: 0, w: this.ctx.map.width, h: this.ctx.map.height };
  }
}

function withoutExhaustive(o: LayerObject): LayerObject {
  const { exhaustive: _e, ...rest } = o;
  return rest;
}
