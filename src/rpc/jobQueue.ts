/**
 * Runs a worker's jobs one at a time, high priority first, FIFO within a priority. One at a time
 * because a worker has one compute resource (for inference: the WASM threads or the GPU queue, and
 * ORT sessions must not run concurrently); priorities let an interactive click overtake background
 * prefetches. Queued jobs can be cancelled before they start.
 */
import type { Priority } from './protocol';

interface Job {
  id: number;
  run: () => Promise<void>;
  drop: (reason: Error) => void;
}

export class JobQueue {
  private readonly high: Job[] = [];
  private readonly low: Job[] = [];
  private running = false;

  get pending(): number {
    return this.high.length + this.low.length;
  }

  /** Enqueue; the returned promise settles with the job. */
  push<T>(id: number, priority: Priority, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id, run: () => work().then(resolve, reject), drop: reject };
      (priority === 'high' ? this.high : this.low).push(job);
      void this.pump();
    });
  }

  /** Removes a queued job, rejecting its promise with `reason`; false if it is not queued (running or unknown). */
  remove(id: number, reason: Error): boolean {
    for (const list of [this.high, this.low]) {
      const i = list.findIndex((j) => j.id === id);
      if (i >= 0) {
        const [job] = list.splice(i, 1);
        job.drop(reason);
        return true;
      }
    }
    return false;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let job = this.next(); job; job = this.next()) await job.run();
    } finally {
      this.running = false;
    }
  }

  private next(): Job | undefined {
    return this.high.shift() ?? this.low.shift();
  }
}
