/**
 * Per-frame undo/redo of patches. One finished gesture is one entry; a new commit clears that
 * frame's redo stack; all frames share one memory budget.
 *
 * Undo and redo return the patch they applied, named `undo:<action>` / `redo:<action>` and oriented
 * as applied (before = the pixels replaced), so the caller persists it as a new revision and
 * repaints its box; historyReplay.ts rebuilds the stacks from those revisions after a reload.
 *
 * Budget: when the pixels held exceed it, the least recently used entry that can go is dropped:
 * only the bottom of a stack can (dropping a middle entry would make the ones above it unusable),
 * and each frame's bottoms are its oldest entries, so the scan compares one or two per frame. The
 * newest entry always stays, so the last gesture can be undone even when it alone exceeds the
 * budget (a full 8K frame is 64 MB per side).
 */
import type { LabelMap } from '../masks/labelMap';
import { applyPatch, invertPatch, patchBytes, patchFits, type Patch } from './patch';
import { REDO_PREFIX, replayRevisions, UNDO_PREFIX, type LoggedRevision, type ReplayEntry } from './historyReplay';
import { revisionToPatch, type RevisionPixels } from './revisionPatch';
import type { PixelCodec } from './pixelCodec';
import type { LayerRelation } from '../store/types';
import { sameRelations } from '../objects/relations';

export const DEFAULT_HISTORY_BUDGET = 64 * 1024 * 1024;

export interface HistoryOptions {
  /** Bytes of patch pixels kept across all frames (default 64 MiB). */
  budgetBytes?: number;
  /**
   * Called when a frame's next undo/redo does not fit its map (the layer was changed behind the
   * history's back): the frame's stacks are dropped instead of scribbling over foreign pixels.
   */
  onStale?: (frameIndex: number) => void;
  /** Stored revision → patch (annotator/pixelCodec.ts); the states encoding by default. */
  codec?: Pick<PixelCodec, 'toPatch'>;
}

interface Entry {
  patch: Patch;
  bytes: number;
  /** Global clock of the entry's last stack move: the eviction order. */
  touched: number;
}

interface Stacks {
  undo: Entry[];
  redo: Entry[];
}

export class History {
  readonly budgetBytes: number;
  private readonly onStale: ((frameIndex: number) => void) | undefined;
  private readonly toPatch: (rev: RevisionPixels) => Patch;
  private readonly frames = new Map<number, Stacks>();
  private clock = 0;
  private held = 0;
  private entries = 0;

  constructor(options: HistoryOptions = {}) {
    this.budgetBytes = options.budgetBytes ?? DEFAULT_HISTORY_BUDGET;
    this.onStale = options.onStale;
    this.toPatch = options.codec?.toPatch ?? revisionToPatch;
  }

  /** Forgets every frame's history (the clip is read again from the store). */
  reset(): void {
    this.frames.clear();
    this.held = 0;
    this.entries = 0;
  }

  /** Rebuilds the history of every frame in `revisions` (one layer's log; any order). */
  static fromRevisions(revisions: readonly LoggedRevision[], options: HistoryOptions = {}): History {
    const history = new History(options);
    const byFrame = new Map<number, LoggedRevision[]>();
    for (const rev of revisions) {
      const list = byFrame.get(rev.frameIndex);
      if (list) list.push(rev);
      else byFrame.set(rev.frameIndex, [rev]);
    }
    for (const [frameIndex, list] of byFrame) history.loadFrame(frameIndex, list);
    return history;
  }

  /** Pixels held by all entries. */
  get bytes(): number {
    return this.held;
  }

  /** Records a finished gesture (already applied to the map) as the frame's next undo step. */
  commit(patch: Patch): void {
    const stacks = this.stacks(patch.frameIndex);
    for (const e of stacks.redo) this.release(e);
    stacks.redo = [];
    stacks.undo.push(this.entry(patch));
    this.evict();
  }

  /**
   * Reverts the frame's last step in `map`; returns the patch as applied, or null when there is none.
   * `relations` are the frame's relations now: a step that changed them must find them as it left them.
   */
  undo(frameIndex: number, map: LabelMap, relations: readonly LayerRelation[] = []): Patch | null {
    const stacks = this.frames.get(frameIndex);
    const e = stacks?.undo[stacks.undo.length - 1];
    if (!stacks || !e) return null;
    if (!patchFits(map, e.patch, 'undo') || !relationsFit(e.patch, 'undo', relations)) return this.stale(frameIndex);
    stacks.undo.pop();
    applyPatch(map, e.patch, 'undo');
    e.touched = ++this.clock;
    stacks.redo.push(e);
    return invertPatch(e.patch, UNDO_PREFIX + e.patch.action);
  }

  /** Re-applies the frame's last undone step; returns the patch as applied, or null. */
  redo(frameIndex: number, map: LabelMap, relations: readonly LayerRelation[] = []): Patch | null {
    const stacks = this.frames.get(frameIndex);
    const e = stacks?.redo[stacks.redo.length - 1];
    if (!stacks || !e) return null;
    if (!patchFits(map, e.patch, 'redo') || !relationsFit(e.patch, 'redo', relations)) return this.stale(frameIndex);
    stacks.redo.pop();
    applyPatch(map, e.patch, 'redo');
    e.touched = ++this.clock;
    stacks.undo.push(e);
    return { ...e.patch, box: { ...e.patch.box }, action: REDO_PREFIX + e.patch.action };
  }

  canUndo(frameIndex: number): boolean {
    return (this.frames.get(frameIndex)?.undo.length ?? 0) > 0;
  }

  canRedo(frameIndex: number): boolean {
    return (this.frames.get(frameIndex)?.redo.length ?? 0) > 0;
  }

  /** Number of undo and redo steps held for a frame. */
  depth(frameIndex: number): { undo: number; redo: number } {
    const s = this.frames.get(frameIndex);
    return { undo: s?.undo.length ?? 0, redo: s?.redo.length ?? 0 };
  }

  /** Drops a frame's steps (its layer was replaced from outside: an import, another tab). */
  forgetFrame(frameIndex: number): void {
    const s = this.frames.get(frameIndex);
    if (!s) return;
    for (const e of s.undo) this.release(e);
    for (const e of s.redo) this.release(e);
    this.frames.delete(frameIndex);
  }

  /**
   * Replaces a frame's stacks with the replay of its stored revisions (historyReplay.ts). Entries
   * beyond the budget are dropped before decoding, oldest first, so a long log never has to fit
   * in memory. Returns how many undo/redo revisions did not fit the stacks and were replayed as
   * edits, and how many steps were lost to unreadable revisions.
   */
  loadFrame(frameIndex: number, revisions: readonly LoggedRevision[]): { mismatched: number; unreadable: number } {
    this.forgetFrame(frameIndex);
    const replay = replayRevisions(revisions.filter((r) => r.frameIndex === frameIndex));
    const { undo, redo } = replay;
    const size = (e: ReplayEntry) => 2 * e.revision.box.w * e.revision.box.h;
    let total = undo.reduce((n, e) => n + size(e), 0) + redo.reduce((n, e) => n + size(e), 0);
    let u = 0;
    let r = 0;
    while (total > this.budgetBytes && undo.length - u + redo.length - r > 1) {
      const dropUndo = r >= redo.length || (u < undo.length && undo[u].touched < redo[r].touched);
      total -= size(dropUndo ? undo[u++] : redo[r++]);
    }
    // Decode from the top down; an unreadable revision makes it and everything below it in its
    // stack unusable (they would be undone through it), but never the frame's opening.
    const decoded = new Map<ReplayEntry, Patch>();
    let unreadable = 0;
    for (const list of [undo.slice(u), redo.slice(r)]) {
      for (let i = list.length - 1; i >= 0; i--) {
        try {
          decoded.set(list[i], withRelations(this.toPatch(list[i].revision), list[i].revision));
        } catch {
          unreadable += i + 1;
          break;
        }
      }
    }
    const keep = [...undo.filter((e) => decoded.has(e)).map((e) => ({ e, undo: true })), ...redo.filter((e) => decoded.has(e)).map((e) => ({ e, undo: false }))];
    // Each stack's entries are already in increasing `touched` order (a push is always the latest
    // move), so pushing in merged `touched` order keeps both stacks bottom-first and hands out
    // fresh clock ticks in the order the log made the moves.
    keep.sort((a, b) => a.e.touched - b.e.touched);
    const stacks = this.stacks(frameIndex);
    for (const { e, undo: isUndo } of keep) (isUndo ? stacks.undo : stacks.redo).push(this.entry(decoded.get(e) as Patch));
    if (stacks.undo.length === 0 && stacks.redo.length === 0) this.frames.delete(frameIndex);
    this.evict();
    return { mismatched: replay.mismatched, unreadable };
  }

  private stacks(frameIndex: number): Stacks {
    let s = this.frames.get(frameIndex);
    if (!s) {
      s = { undo: [], redo: [] };
      this.frames.set(frameIndex, s);
    }
    return s;
  }

  private entry(patch: Patch): Entry {
    const bytes = patchBytes(patch);
    this.held += bytes;
    this.entries++;
    return { patch, bytes, touched: ++this.clock };
  }

  private release(e: Entry): void {
    this.held -= e.bytes;
    this.entries--;
  }

  private stale(frameIndex: number): null {
    this.forgetFrame(frameIndex);
    this.onStale?.(frameIndex);
    return null;
  }

  /** Drops least recently used stack bottoms until the budget holds (the newest entry stays). */
  private evict(): void {
    while (this.held > this.budgetBytes && this.entries > 1) {
      let victim: { stacks: Stacks; frameIndex: number; undo: boolean } | null = null;
      let oldest = Infinity;
      for (const [frameIndex, stacks] of this.frames) {
        if (stacks.undo.length > 0 && stacks.undo[0].touched < oldest) {
          oldest = stacks.undo[0].touched;
          victim = { stacks, frameIndex, undo: true };
        }
        if (stacks.redo.length > 0 && stacks.redo[0].touched < oldest) {
          oldest = stacks.redo[0].touched;
          victim = { stacks, frameIndex, undo: false };
        }
      }
      if (!victim) return;
      const list = victim.undo ? victim.stacks.undo : victim.stacks.redo;
      const [dropped] = list.splice(0, 1);
      this.release(dropped);
      if (victim.stacks.undo.length === 0 && victim.stacks.redo.length === 0) this.frames.delete(victim.frameIndex);
    }
  }
}

/** Whether the frame's relations are what applying the step in `direction` replaces (always, for a step that left them). */
function relationsFit(patch: Patch, direction: 'undo' | 'redo', relations: readonly LayerRelation[]): boolean {
  if (!patch.relations) return true;
  return sameRelations(relations, direction === 'undo' ? patch.relations.after : patch.relations.before);
}

/** A stored revision's relation change, carried onto its decoded patch. */
function withRelations(patch: Patch, rev: RevisionPixels): Patch {
  if (rev.relationsBefore === undefined || rev.relationsAfter === undefined) return patch;
  return { ...patch, relations: { before: rev.relationsBefore, after: rev.relationsAfter } };
}
