/**
 * A growable Uint32Array for run counts. Real masks have few runs compared with pixels, so
 * starting small and doubling beats allocating the worst case (h * w + 1 runs, 8 MB at 1080p).
 */
export class RunBuffer {
  private buf: Uint32Array;
  private len = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint32Array(Math.max(1, initialCapacity));
  }

  get length(): number {
    return this.len;
  }

  push(v: number): void {
    if (this.len === this.buf.length) {
      const next = new Uint32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = v;
  }

  toArray(): Uint32Array {
    return this.buf.slice(0, this.len);
  }
}
