/**
 * What each project's live sockets are sent when it gains rows (docs/sync.md "Live rows"): the rows
 * themselves, read once per project and process, not a "changed" that makes every member pull. With
 * fifty people stroking five times a second, "changed" meant 50 × 250 pulls a second; this is one
 * read per push (fewer when pushes arrive faster than a read takes: they are read together).
 *
 * Per project it keeps `sent`, the cursor up to which its sockets were told everything. A push
 * announces (after, cursor] (push.ts); when `sent` is known the feed reads the rows after `sent`
 * and sends them as one `rows` message covering (sent, last row's cursor]. That is complete: the
 * project's cursors are assigned in commit order (syncStore.ts lockProject), so no row below a
 * visible one can still appear. Too many rows, a message too large, or a failed read go out as
 * `changed` (clients pull); a client whose cursor is below a message's `after` pulls too.
 *
 * No database of its own: `read` is the pull query. One read in flight per project.
 */
import { LIVE_ROWS_MAX_CHARS, compareCursors, type Cursor, type LiveServerMessage, type PulledChange } from '../../src/sync/protocol';
import type { LiveHub } from './liveHub';

/** Rows read per message; more than this is news for a pull. */
export const LIVE_ROWS_MAX_ROWS = 500;

export type ReadRows = (projectId: string, after: Cursor, limit: number) => Promise<{ changes: PulledChange[]; more: boolean }>;

interface ProjectFeed {
  /** Everything up to here was sent (as rows or as "changed"); null before the first news. */
  sent: Cursor | null;
  /** The newest cursor announced. */
  target: Cursor;
  reading: boolean;
}

const later = (a: Cursor, b: Cursor) => (compareCursors(a, b) >= 0 ? a : b);

export class LiveRowsFeed {
  private readonly feeds = new Map<string, ProjectFeed>();

  constructor(
    private readonly hub: LiveHub,
    private readonly read: ReadRows,
    private readonly maxChars = LIVE_ROWS_MAX_CHARS,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** A push committed the project's rows in (after, cursor]; `after` is absent in the older payload. */
  notified(projectId: string, after: Cursor | undefined, cursor: Cursor): void {
    if (!this.hub.has(projectId)) {
      this.feeds.delete(projectId);
      return;
    }
    let feed = this.feeds.get(projectId);
    if (!feed) this.feeds.set(projectId, (feed = { sent: after ?? null, target: cursor, reading: false }));
    if (feed.sent !== null && compareCursors(cursor, feed.sent) <= 0) return;
    feed.target = later(cursor, feed.target);
    if (!feed.reading) void this.drain(projectId, feed);
  }

  /**
   * Tells the project's sockets to pull up to `cursor` (news may have been missed: the LISTEN
   * connection was replaced), and carries on from there.
   */
  reset(projectId: string, cursor: Cursor): void {
    this.hub.broadcastText(projectId, serialized(changed(cursor)).text, 'changed');
    const feed = this.feeds.get(projectId);
    if (feed) {
      feed.sent = feed.sent === null ? cursor : later(cursor, feed.sent);
      feed.target = later(cursor, feed.target);
    }
  }

  /** Projects whose news is being followed (for tests). */
  following(): string[] {
    return [...this.feeds.keys()];
  }

  private async drain(projectId: string, feed: ProjectFeed): Promise<void> {
    feed.reading = true;
    try {
      while (feed.sent === null || compareCursors(feed.target, feed.sent) > 0) {
        if (!this.hub.has(projectId)) {
          this.feeds.delete(projectId);
          return;
        }
        const news = feed.sent === null ? serialized(changed(feed.target)) : await this.next(projectId, feed.sent, feed.target);
        this.hub.broadcastText(projectId, news.text, news.type);
        // `reset` may have moved `sent` on while the rows were read.
        feed.sent = feed.sent === null ? news.cursor : later(news.cursor, feed.sent);
      }
    } finally {
      feed.reading = false;
    }
  }

  /** The message for news after `sent` up to at least `target`, as JSON. */
  private async next(projectId: string, sent: Cursor, target: Cursor): Promise<News> {
    let page: { changes: PulledChange[]; more: boolean };
    try {
      page = await this.read(projectId, sent, LIVE_ROWS_MAX_ROWS);
    } catch (err) {
      this.onError(err);
      return serialized(changed(target));
    }
    const last = page.changes.at(-1)?.cursor ?? sent;
    if (page.more) return serialized(changed(later(last, target)));
    // Under the lock the announced rows are visible once announced; if not (the project was just
    // deleted), pull rather than guess.
    if (compareCursors(last, target) < 0) return serialized(changed(target));
    // Rows committed after the news came are complete too (see above): send up to the last one read.
    const rows = serialized({ type: 'rows', after: sent, cursor: last, changes: page.changes });
    return rows.text.length > this.maxChars ? serialized(changed(last)) : rows;
  }
}

interface News {
  type: 'rows' | 'changed';
  cursor: Cursor;
  text: string;
}

const changed = (cursor: Cursor) => ({ type: 'changed' as const, cursor });
const serialized = (message: Extract<LiveServerMessage, { type: 'rows' | 'changed' }>): News => ({ type: message.type, cursor: message.cursor, text: JSON.stringify(message) });
