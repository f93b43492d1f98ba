import { describe, expect, it } from 'vitest';
import { LiveNews } from './liveNews';
import type { PulledChange } from './protocol';

const row = (cursor: number): PulledChange => ({ kind: 'comment', id: `c${cursor}`, cursor: String(cursor), by: 'bo', row: {} });
const rows = (after: number, ...cursors: number[]) => ({ type: 'rows' as const, after: String(after), cursor: String(cursors.at(-1) ?? after), changes: cursors.map(row) });
const ids = (page: { changes: PulledChange[] } | null) => page?.changes.map((c) => c.id);

describe('live news', () => {
  it('joins the messages that continue from the checkpoint into one page, in cursor order whatever order they came in', () => {
    const news = new LiveNews();
    news.add(rows(12, 14));
    news.add(rows(10, 11, 12));
    const page = news.takeFrom('10');
    expect(ids(page)).toEqual(['c11', 'c12', 'c14']);
    expect(page).toMatchObject({ cursor: '14', more: false });
    expect(news.takeFrom('14')).toBeNull();
    expect(news.gapAfter('14')).toBe(false);
  });

  it('drops what the checkpoint covers, and keeps only the newer part of a message it covers in part', () => {
    const news = new LiveNews();
    news.add(rows(10, 11, 12));
    news.add(rows(12, 13, 15));
    expect(ids(news.takeFrom('13'))).toEqual(['c15']);
    news.add(rows(15, 16));
    expect(news.takeFrom('20')).toBeNull();
    expect(news.gapAfter('20')).toBe(false);
  });

  it('stops at a gap and says so, and goes on from a checkpoint a pull moved past it', () => {
    const news = new LiveNews();
    news.add(rows(10, 11));
    news.add(rows(13, 14)); // (11, 13] was never sent here
    expect(ids(news.takeFrom('10'))).toEqual(['c11']);
    expect(news.takeFrom('11')).toBeNull();
    expect(news.gapAfter('11')).toBe(true);
    // A pull brought 12 and 13: the waiting message continues from there.
    expect(ids(news.takeFrom('13'))).toEqual(['c14']);
  });

  it('counts `changed` and `hello` as news: a checkpoint below them is a gap', () => {
    const news = new LiveNews();
    news.announce('30');
    expect(news.takeFrom('20')).toBeNull();
    expect(news.gapAfter('20')).toBe(true);
    expect(news.gapAfter('30')).toBe(false);
    news.clear();
    expect(news.gapAfter('0')).toBe(false);
  });
});
