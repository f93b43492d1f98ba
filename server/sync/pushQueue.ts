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
import { pushBatch, type PushInput } from './push';

interface Waiting {
  input: PushInput;
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

  push(input: PushInput): Promise<PushResponse> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(input.projectId);
      if (queue) queue.push({ input, resolve, reject });
      else {
        this.queues.set(input.projectId, [{ input, resolve, reject }]);
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
    try {
      responses = await pushBatch(this.db, projectId, batch.map((w) => w.input));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const w of batch) await this.run(projectId, [w]);
      return;
    }
    batch.forEach((w, i) => w.resolve(responses[i]));
  }
}
