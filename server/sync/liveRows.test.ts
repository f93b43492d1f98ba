/**
 * The live rows feed on its own: the database is a list of rows in cursor order (what `pullPage`
 * reads), so each case can hold a read open and add rows meanwhile. The feed against the real
 * databases, through real sockets, is in server/http/live.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Cursor, LiveServerMessage, PulledChange } from '../../src/sync/protocol';
import { LiveHub } from './liveHub';
import { LIVE_ROWS_MAX_ROWS, LiveRowsFeed } from './liveRows';

const P = 'p1';

function world(maxChars?: number) {
  const rows: PulledChange[] = [];
  let reads = 0;
  let gate: Promise<void> | null = null;
  let failNext = false;
  const read = async (_projectId: string, after: Cursor, limit: number) => {
    reads++;
    if (gate) await gate;
    if (failNext) {
      failNext = false;
      throw new Error('connection lost');
    }
    const later = rows.filter((r) => BigInt(r.cursor) > BigInt(after));
    return { changes: later.slice(0, limit), more: later.length > limit };
  };
  const hub = new LiveHub();
  const got: LiveServerMessage[] = [];
  const peer = { username: 'ana', send: (text: string) => void got.push(JSON.parse(text) as LiveServerMessage) };
  hub.join(P, peer);
  const errors: unknown[] = [];
  const feed = new LiveRowsFeed(hub, read, maxChars, (err) => errors.push(err));
  let cursor = 10;
  /** Commits n rows, as a push does, and returns its (after, cursor]. */
  const commit = (n = 1, text = 'x') => {
    const after = String(cursor);
    for (let i = 0; i < n; i++) rows.push({ kind: 'comment', id: `c${++cursor}`, cursor: String(cursor), by: 'bo', row: { text } });
    return [after, String(cursor)] as const;
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    hub,
    peer,
    feed,
    got,
    errors,
    commit,
    settle,
    reads: () => reads,
    hold: () => {
      let open!: () => void;
      gate = new Promise((r) => (open = r));
      return () => {
        gate = null;
        open();
      };
    },
    failNextRead: () => (failNext = true),
  };
}

const ids = (m: LiveServerMessage) => (m.type === 'rows' ? m.changes.map((c) => c.id) : []);

describe('the live rows feed', () => {
  it('sends each push as the rows it announced, chained cursor to cursor', async () => {
    const w = world();
    const [a1, c1] = w.commit();
    w.feed.notified(P, a1, c1);
    await w.settle();
    const [, c2] = w.commit(2);
    w.feed.notified(P, c1, c2);
    await w.settle();
    expect(w.got.map((m) => [m.type, m.type === 'rows' ? m.after : '', m.type === 'rows' ? m.cursor : '', ids(m)])).toEqual([
      ['rows', '10', '11', ['c11']],
      ['rows', '11', '13', ['c12', 'c13']],
    ]);
    expect(w.reads()).toBe(2);
  });

  it('reads pushes that come while a read is out together, in one message', async () => {
    const w = world();
    const release = w.hold();
    const [a1, c1] = w.commit();
    w.feed.notified(P, a1, c1);
    for (let i = 0; i < 5; i++) {
      const [a, c] = w.commit();
      w.feed.notified(P, a, c);
    }
    release();
    await w.settle();
    await w.settle();
    expect(w.got.map((m) => [m.type, ids(m).length])).toEqual([['rows', 6]]);
    expect(w.reads()).toBe(1);
    // An announcement of rows already sent is not read again.
    w.feed.notified(P, '12', '13');
    await w.settle();
    expect(w.reads()).toBe(1);
  });

  it('says "changed" when the rows are too many, too large or cannot be read, and carries on from there', async () => {
    const w = world(2000);
    const [a1, c1] = w.commit(LIVE_ROWS_MAX_ROWS + 1);
    w.feed.notified(P, a1, c1);
    await w.settle();
    expect(w.got.at(-1)).toEqual({ type: 'changed', cursor: c1 });

    const [a2, c2] = w.commit(1, 'y'.repeat(3000));
    w.feed.notified(P, a2, c2);
    await w.settle();
    expect(w.got.at(-1)).toEqual({ type: 'changed', cursor: c2 });

    w.failNextRead();
    const [a3, c3] = w.commit();
    w.feed.notified(P, a3, c3);
    await w.settle();
    expect(w.got.at(-1)).toEqual({ type: 'changed', cursor: c3 });
    expect(w.errors).toHaveLength(1);

    const [a4, c4] = w.commit();
    w.feed.notified(P, a4, c4);
    await w.settle();
    expect(w.got.at(-1)).toMatchObject({ type: 'rows', after: c3, cursor: c4 });
  });

  it('starts with "changed" when the first news does not say where it starts (the older payload)', async () => {
    const w = world();
    const [, c1] = w.commit();
    w.feed.notified(P, undefined, c1);
    await w.settle();
    const [a2, c2] = w.commit();
    w.feed.notified(P, a2, c2);
    await w.settle();
    expect(w.got).toEqual([{ type: 'changed', cursor: c1 }, expect.objectContaining({ type: 'rows', after: c1, cursor: c2 })]);
  });

  it('after a reset, tells its sockets to pull and sends rows from the reset cursor on', async () => {
    const w = world();
    const [a1, c1] = w.commit();
    w.feed.notified(P, a1, c1);
    await w.settle();
    w.commit(); // its NOTIFY was lost with the listening connection
    const [, c3] = w.commit();
    w.feed.reset(P, c3);
    const [a4, c4] = w.commit();
    w.feed.notified(P, a4, c4);
    await w.settle();
    expect(w.got.slice(1)).toEqual([{ type: 'changed', cursor: c3 }, expect.objectContaining({ type: 'rows', after: c3, cursor: c4 })]);
  });

  it('reads nothing for a project nobody here follows, and forgets one whose last socket left', async () => {
    const w = world();
    const [a1, c1] = w.commit();
    w.feed.notified('p2', a1, c1);
    await w.settle();
    expect(w.reads()).toBe(0);
    w.feed.notified(P, a1, c1);
    await w.settle();
    expect(w.feed.following()).toEqual([P]);
    w.hub.leave(P, w.peer);
    const [a2, c2] = w.commit();
    w.feed.notified(P, a2, c2);
    expect(w.feed.following()).toEqual([]);
  });
});
