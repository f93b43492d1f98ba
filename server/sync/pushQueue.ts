/**
 * Group commit for pushes (docs/sync.md "Live rows"): pushes to one project are serialized by its
 * lock anyway, and each paid for its own transaction: the lock, a commit that waits for the disk, a
 * NOTIFY and its read by every server process. Here the pushes that arrive while one project's
 * transaction runs wait for it to end and then go together in the next (pushBatch), so under load a
 * commit serves many pushes; alone, a push goes at once and waits for nothing.
 *
 * One push's failure (other than a refusal, which is an outcome) would fail the whole transaction:
 * then each push of the batch runs again on its own, so only the push at fault fails.
 */
import type { PushResponse } from '../../src/sync/protocol';
import type { Db } from '../db/db';
import { performance } from 'node:perf_hooks';
import { pushBatch, type PushInput } from './push';

/** Where one push's time on the server went (sent as Server-Timing; bench/server-team.bench.ts reads it). */
export interface PushTiming {
  /** Waiting for the project's previous transaction to end. */
  queuedMs: number;
  /** The transaction that judged and stored it, shared with the others of its batch. */
  batchMs: number;
  /** Pushes in that transaction. */
  batchPushes: number;
}

interface Waiting {
  input: PushInput;
  at: number;
  timing?: PushTiming;
  resolve(response: PushResponse): void;
  reject(err: unknown): void;
}

export interface PushQueueLimits {
  /** Pushes per transaction at most. */
  pushes: number;
  /** Changes per transaction at most (a batch always takes its first push whole). */
  changes: number;
}

export const DEFAULT_PUSH_QUEUE_LIMITS: PushQueueLimits = { pushes: 64, changes: 2000 };

export class PushQueue {
  private readonly queues = new Map<string, Waiting[]>();
  /** Transactions run (for tests and the bench). */
  batches = 0;

  constructor(
    private readonly db: Db,
    private readonly limits: PushQueueLimits = DEFAULT_PUSH_QUEUE_LIMITS,
  ) {}

  /** The push's response; `timing`, when given, is filled in before it resolves. */
  push(input: PushInput, timing?: PushTiming): Promise<PushResponse> {
    return new Promise((resolve, reject) => {
      const waiting = { input, at: performance.now(), timing, resolve, reject };
      const queue = this.queues.get(input.projectId);
      if (queue) queue.push(waiting);
      else {
        this.queues.set(input.projectId, [waiting]);
        void this.drain(input.projectId);
      }
    });
  }

  private async drain(projectId: string): Promise<void> {
    const queue = this.queues.get(projectId)!;
    try {
      while (queue.length > 0) await this.run(projectId, this.take(queue));
    } finally {
      this.queues.delete(projectId);
    }
  }

  private take(queue: Waiting[]): Waiting[] {
    let changes = queue[0].input.request.changes.length;
    let n = 1;
    while (n < queue.length && n < this.limits.pushes && changes + queue[n].input.request.changes.length <= this.limits.changes) {
      changes += queue[n].input.request.changes.length;
      n++;
    }
    return queue.splice(0, n);
  }

  private async run(projectId: string, batch: Waiting[]): Promise<void> {
    this.batches++;
    let responses: PushResponse[];
    const start = performance.now();
    try {
      responses = await pushBatch(this.db, projectId, batch.map((w) => w.input));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const w of batch) await this.run(projectId, [w]);
      return;
    }
    const end = performance.now();
    batch.forEach((w, i) => {
      if (w.timing) Object.assign(w.timing, { queuedMs: start - w.at, batchMs: end - start, batchPushes: batch.length });
      w.resolve(responses[i]);
    });
  }
}
