/**
 * Pulling a project's changes after its checkpoint, page by page, each page applied in one
 * transaction (applyPull.ts): over HTTP, or from the rows the live socket brought (liveNews.ts).
 */
import type { SpocDb } from '../store/db';
import { applyPullPage, type ApplyResult } from './applyPull';
import type { LiveNews } from './liveNews';
import type { PullResponse } from './protocol';
import { readLink } from './syncState';
import type { SyncTransport } from './transport';

export interface PullRound {
  pages: number;
  applied: number;
  problems: number;
  rebuilt: ApplyResult['rebuilt'];
}

export async function pullAll(db: SpocDb, transport: SyncTransport, projectId: string, pageSize?: number): Promise<PullRound> {
  const round: PullRound = { pages: 0, applied: 0, problems: 0, rebuilt: [] };
  for (;;) {
    const link = await readLink(db, projectId);
    if (!link) throw new Error('This project is not linked to a server.');
    const page = await transport.pull(link.serverProjectId, link.cursor, pageSize);
    const result = await applyPage(db, projectId, page, round);
    if (result.restart) continue; // from the start again: a clip deleted here was restored on the server
    // A page that does not move the cursor cannot be followed by more (a server bug otherwise): stop.
    if (!page.more || page.cursor === link.cursor) return round;
  }
}

/**
 * Applies the live rows that continue from the checkpoint, without a request. `gap` says news was
 * announced that they do not reach: the caller pulls.
 */
export async function applyLiveNews(db: SpocDb, projectId: string, news: LiveNews): Promise<PullRound & { gap: boolean }> {
  const round: PullRound = { pages: 0, applied: 0, problems: 0, rebuilt: [] };
  for (;;) {
    const link = await readLink(db, projectId);
    if (!link) throw new Error('This project is not linked to a server.');
    const page = news.takeFrom(link.cursor);
    if (!page) return { ...round, gap: news.gapAfter(link.cursor) };
    await applyPage(db, projectId, page, round);
  }
}

async function applyPage(db: SpocDb, projectId: string, page: PullResponse, round: PullRound): Promise<ApplyResult> {
  const result = await applyPullPage(db, projectId, page);
  round.pages++;
  round.applied += result.applied;
  round.problems += result.problems;
  round.rebuilt.push(...result.rebuilt);
  return result;
}
