/**
 * What the live socket brought and the store has not applied yet (docs/sync.md "Live rows"): `rows`
 * messages, each every row changed in (after, cursor]. They are applied in cursor order as pages,
 * without a request, as long as they continue from the store's checkpoint; a gap (news starting
 * above the checkpoint) is closed by a pull. Pure: the engine owns one per socket.
 */
import { CURSOR_START, compareCursors, type Cursor, type LiveServerMessage, type PulledChange, type PullResponse } from './protocol';

type RowsMessage = Extract<LiveServerMessage, { type: 'rows' }>;

/** Changes applied as one page at most (one store transaction). */
const MAX_PAGE_CHANGES = 2000;

export class LiveNews {
  private waiting: RowsMessage[] = [];
  private newest: Cursor = CURSOR_START;

  /** The newest cursor the server announced on this socket (hello, changed or rows). */
  get announced(): Cursor {
    return this.newest;
  }

  announce(cursor: Cursor): void {
    if (compareCursors(cursor, this.newest) > 0) this.newest = cursor;
  }

  add(message: RowsMessage): void {
    this.announce(message.cursor);
    this.waiting.push(message);
  }

  /**
   * The waiting rows that continue from `checkpoint`, as one page (ending at the last message it
   * takes whole), or null when none do: nothing waits, or a gap lies between. Messages the
   * checkpoint already covers are dropped.
   */
  takeFrom(checkpoint: Cursor): PullResponse | null {
    this.waiting.sort((a, b) => compareCursors(a.after, b.after));
    this.waiting = this.waiting.filter((m) => compareCursors(m.cursor, checkpoint) > 0);
    const changes: PulledChange[] = [];
    let cursor = checkpoint;
    while (this.waiting.length > 0 && compareCursors(this.waiting[0].after, cursor) <= 0 && changes.length < MAX_PAGE_CHANGES) {
      const m = this.waiting.shift()!;
      const from = cursor;
      for (const c of m.changes) if (compareCursors(c.cursor, from) > 0) changes.push(c);
      if (compareCursors(m.cursor, cursor) > 0) cursor = m.cursor;
    }
    return cursor === checkpoint ? null : { changes, cursor, more: false };
  }

  /** Whether news above `checkpoint` was announced that no waiting message continues to. */
  gapAfter(checkpoint: Cursor): boolean {
    return compareCursors(this.newest, checkpoint) > 0;
  }

  clear(): void {
    this.waiting = [];
    this.newest = CURSOR_START;
  }
}
