/**
 * Connects the editor session to the panels: keeps the current frame's state areas exact as the
 * map changes (TileAreaCounter, updated from each invalidated box) and publishes at most one
 * snapshot per animation frame, however many boxes a stroke invalidates in between. In the editor,
 * edits publish at most once per LIVE_EDIT_INTERVAL_MS: each publication re-renders the panels, the
 * timeline and three charts (20–30 ms of main thread on this 2-core machine without a GPU), which every
 * animation frame of a stroke could not afford (bench: painting with both panels open). The last
 * change of a stroke is always published, so the numbers shown are exact once it ends; a frame switch
 * is published on the next animation frame, so a frame never shows beside another frame's areas.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import type { StateAreas } from '../progress';
import { DEFAULT_TILE, TileAreaCounter } from './liveAreas';

/** What the panels read from the editor (EditorSession satisfies it). */
export interface PanelSession {
  readonly map: LabelMap;
  readonly snapshot: { readonly frameIndex: number; readonly readOnly: boolean };
  onInvalidate(fn: (box: Box) => void): () => void;
  onFrame(fn: (map: LabelMap) => void): () => void;
  /**
   * A box outside which `map` holds no nonzero pixel (null: none), kept by the editor from the frame
   * switch on (EditorSession.shownContent), so the counter does not scan the frame again. Computed
   * here when absent.
   */
  readonly shownContent?: Box | null;
  /** The masks of any frame as the editor knows them (live maps for frames it holds). */
  loadMap(index: number): Promise<LabelMap>;
}

export interface LiveSnapshot {
  /** Bumped on every publication. */
  version: number;
  /** The frame whose map the editor holds (-1 before the first one is loaded). */
  frameIndex: number;
  /** Areas of that frame as the editor holds it. */
  current: StateAreas;
  /**
   * Frames edited in this tab and their areas as painted. They win over stored areas, which reach
   * the store only after the write-behind delay. (This tab holds the clip's edit lock, so its maps
   * are the truth.)
   */
  edited: ReadonlyMap<number, StateAreas>;
  /** performance.now() when this snapshot was published, and the box work (ms) folded into it. */
  publishedAt: number;
  boxWork: number;
}

type Scheduler = (fn: () => void) => () => void;

const animationFrame: Scheduler = (fn) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(() => fn());
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, 16);
  return () => clearTimeout(id);
};

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** How often the editor's store publishes while a frame is being edited (see the file comment). */
export const LIVE_EDIT_INTERVAL_MS = 500;

export class LiveAreaStore {
  private counter: TileAreaCounter | null = null;
  private frame = -1;
  private readonly edited = new Map<number, StateAreas>();
  private readonly listeners = new Set<() => void>();
  private snap: LiveSnapshot = { version: 0, frameIndex: -1, current: { act: 0, trf: 0 }, edited: new Map(), publishedAt: 0, boxWork: 0 };
  private cancelScheduled: (() => void) | null = null;
  /** The scheduled publication waits out the edit interval (a frame switch does not wait behind it). */
  private waiting = false;
  private lastPublish = -Infinity;
  private boxWork = 0;

  constructor(
    private readonly session: PanelSession,
    private readonly schedule: Scheduler = animationFrame,
    /** Called with the milliseconds each invalidated box cost (for benchmarks). */
    private readonly onBoxTime?: (ms: number) => void,
    /** Edits publish at most once per this many ms (0: every animation frame). */
    private readonly editIntervalMs = 0,
  ) {}

  /** Starts listening to the session; returns the function that stops it. Safe to call again after that. */
  attach(): () => void {
    this.rebuild();
    const offFrame = this.session.onFrame(() => {
      this.rebuild();
      this.request();
    });
    const offBox = this.session.onInvalidate((box) => this.onBox(box));
    this.request();
    return () => {
      offFrame();
      offBox();
      this.cancelScheduled?.();
      this.cancelScheduled = null;
    };
  }

  /** The label map the areas describe (the editor's live map), or null before attach. */
  get map(): LabelMap | null {
    return this.counter?.map ?? null;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): LiveSnapshot => this.snap;

  private rebuild(): void {
    // Without the editor's box (undefined), the counter computes it.
    this.counter = new TileAreaCounter(this.session.map, DEFAULT_TILE, this.session.shownContent);
    this.frame = this.session.snapshot.frameIndex;
  }

  private onBox(box: Box): void {
    const t0 = now();
    // A frame switch replaced the map before its frame event reached us: count the new one.
    if (this.counter?.map !== this.session.map) this.rebuild();
    const areas = this.counter!.update(box);
    if (this.frame >= 0 && !this.session.snapshot.readOnly) this.edited.set(this.frame, areas);
    const ms = now() - t0;
    this.boxWork += ms;
    this.onBoxTime?.(ms);
    this.request(true);
  }

  /** Publishes on the next animation frame; an edit (`edit`) no sooner than the edit interval after the last publication. */
  private request(edit = false): void {
    const wait = edit ? this.lastPublish + this.editIntervalMs - now() : 0;
    if (this.cancelScheduled) {
      if (wait > 0 || !this.waiting) return;
      this.cancelScheduled();
      this.cancelScheduled = null;
    }
    if (wait > 0) {
      this.waiting = true;
      const id = setTimeout(() => {
        this.cancelScheduled = null;
        this.request();
      }, wait);
      this.cancelScheduled = () => clearTimeout(id);
      return;
    }
    this.waiting = false;
    let ran = false;
    const cancel = this.schedule(() => {
      ran = true;
      this.cancelScheduled = null;
      this.publish();
    });
    if (!ran) this.cancelScheduled = cancel;
  }

  private publish(): void {
    this.lastPublish = now();
    this.snap = {
      version: this.snap.version + 1,
      frameIndex: this.frame,
      current: this.counter ? this.counter.areas : { act: 0, trf: 0 },
      edited: new Map(this.edited),
      publishedAt: now(),
      boxWork: this.boxWork,
    };
    this.boxWork = 0;
    for (const fn of this.listeners) fn();
  }
}

const stores = new WeakMap<PanelSession, LiveAreaStore>();

/**
 * The one live area store of a session: the editor attaches it and hands it down (its `liveAreas`
 * slot, src/app/editor/EditorPage.tsx), the timeline and the metric panels read the same object.
 */
export function liveAreaStoreFor(session: PanelSession, onBoxTime?: (ms: number) => void): LiveAreaStore {
  let store = stores.get(session);
  if (!store) {
    store = new LiveAreaStore(session, undefined, onBoxTime, LIVE_EDIT_INTERVAL_MS);
    stores.set(session, store);
  }
  return store;
}
