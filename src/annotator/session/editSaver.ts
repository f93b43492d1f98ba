/**
 * Saving the session's edits: the write-behind queue that stores every change (layer + revision,
 * and a stroke's draft rows) within a second, and, while saves fail or stall, keeping every unsaved
 * edit through the pending-edits port (the crash journal) until a save succeeds
 * (docs/durability.md). Framework-free, like the session that owns it.
 */
import type { SpocDb } from '../../store/db';
import { saveFrameEdits } from '../../store/layers';
import type { Clip, LayerInput, RevisionInput } from '../../store/types';
import { PersistQueue, type PersistStatus } from '../persistQueue';
import { toFrameEdits, type FrameWrite } from './frameWrite';
import type { PendingEditsPort, SessionState } from './sessionTypes';

/** How soon keeping unsaved edits in the journal is tried again after it failed (a full disk). */
const KEEP_RETRY_MS = 2000;

export type UnsavedKept = SessionState['unsavedKept'];

export class EditSaver {
  private readonly queue: PersistQueue<LayerInput, RevisionInput>;
  /** Unsaved edits are kept through `pending` (saves are failing). */
  private keptPending = false;
  /** A save failed in this session (a full disk): from then on every unsaved edit is kept, even one in flight. */
  private saveHasFailed = false;
  private pendingChain: Promise<void> = Promise.resolve();
  private pendingError: string | null = null;
  /** Bumped per keep request; the keep that wrote the latest one makes the edits 'kept'. */
  private keepRequests = 0;
  private keepRetryTimer: ReturnType<typeof setTimeout> | null = null;
  private kept: UnsavedKept = null;

  /** @param onKept told each time whether the unsaved edits are kept changes (SessionState.unsavedKept). */
  constructor(
    db: SpocDb,
    private readonly clip: Clip,
    private readonly pending: PendingEditsPort | null,
    stallMs: number | undefined,
    private readonly onKept: (kept: UnsavedKept) => void,
  ) {
    this.queue = new PersistQueue<LayerInput, RevisionInput>({
      write: (batch) => saveFrameEdits(db, batch.map(toFrameEdits), { clip }),
      ...(stallMs !== undefined ? { stallMs } : {}),
    });
    this.queue.subscribe(() => this.keepOrDropPending());
  }

  get status(): PersistStatus {
    return this.queue.status;
  }

  subscribe(fn: (status: PersistStatus) => void): () => void {
    return this.queue.subscribe(fn);
  }

  /** Queues one frame's write. */
  enqueue(write: FrameWrite): void {
    this.queue.enqueue(write);
    // While saves fail, every new edit joins the kept ones (the status may not change with it).
    if (this.queue.status.state === 'error' || this.queue.status.stalled || this.saveHasFailed) this.keepOrDropPending();
  }

  /** Settles once every write queued so far has landed (at once when none is). */
  async landed(): Promise<void> {
    if (this.queue.status.pending > 0) await this.queue.flush();
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** The page is going away: start every waiting write now. */
  writeBeforeLeaving(): void {
    this.queue.writeBeforeLeaving();
  }

  /** See EditorSession.hasUnsavedEdits. */
  get hasUnsavedEdits(): boolean {
    // A retry in flight ('saving' with retries > 0) is still a failing save until it succeeds, and a
    // stalled write may never land.
    const { state, retries, stalled } = this.queue.status;
    return state === 'error' || retries > 0 || stalled || this.queue.waiting > 0 || (this.saveHasFailed && state !== 'idle');
  }

  /** Why keeping unsaved edits in the journal failed too, or null. */
  get keepError(): string | null {
    return this.pendingError;
  }

  /** Drops the queued writes (computed from masks another tab has since replaced) and returns them. */
  discardQueued(): FrameWrite[] {
    return this.queue.discardQueued();
  }

  /** Forgets the kept copies of unsaved edits (after discardQueued: there are none left to keep). */
  forgetKept(): void {
    if (!this.keptPending || !this.pending) return;
    this.keptPending = false;
    ++this.keepRequests;
    this.setKept(null);
    void this.pending.drop(this.clip.id).catch(() => undefined);
  }

  destroy(): void {
    this.queue.destroy();
    if (this.keepRetryTimer !== null) clearTimeout(this.keepRetryTimer);
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
      if (this.kept !== 'not-kept') this.setKept('keeping');
      this.pendingChain = this.pendingChain
        .then(() => port.keep(this.clip.id, edits))
        .then(
          () => {
            this.pendingError = null;
            if (request === this.keepRequests) this.setKept('kept');
          },
          (err: unknown) => {
            this.pendingError = err instanceof Error ? err.message : String(err);
            if (request !== this.keepRequests) return;
            this.setKept('not-kept');
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
      this.setKept(null);
      this.pendingChain = this.pendingChain.then(() => port.drop(this.clip.id)).catch(() => undefined);
    }
  }

  private setKept(kept: UnsavedKept): void {
    this.kept = kept;
    this.onKept(kept);
  }
}
