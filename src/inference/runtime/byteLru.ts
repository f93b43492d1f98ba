/**
 * A least-recently-used map with a byte budget (SAM embeddings are 4 MB each; CVAT caps its cache
 * by memory too). Reading an entry makes it the most recent; inserting evicts from the least
 * recent until the new entry fits. An entry larger than the whole budget is not stored.
 */
export class ByteLru<V> {
  // A Map iterates in insertion order: re-inserting on access keeps the oldest entry first.
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private budget: number,
    private readonly onEvict?: (key: string, value: V) => void,
  ) {
    if (!(budget >= 0)) throw new RangeError(`cache budget must be >= 0, got ${budget}`);
  }

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.map.size;
  }

  get capacity(): number {
    return this.budget;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Returns false (and stores nothing) when the entry alone exceeds the budget. */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.budget) return false;
    while (this.total + bytes > this.budget) this.evictOldest();
    this.map.set(key, { value, bytes });
    this.total += bytes;
    return true;
  }

  delete(key: string): boolean {
    const e = this.map.get(key);
    if (!e) return false;
    this.map.delete(key);
    this.total -= e.bytes;
    this.onEvict?.(key, e.value);
    return true;
  }

  /** Deletes every key the predicate accepts; returns how many. */
  deleteWhere(pred: (key: string) => boolean): number {
    let n = 0;
    for (const key of [...this.map.keys()]) if (pred(key) && this.delete(key)) n++;
    return n;
  }

  setBudget(budget: number): void {
    this.budget = budget;
    while (this.total > this.budget) this.evictOldest();
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  private evictOldest(): void {
    const oldest = this.map.keys().next();
    if (oldest.done) return;
    this.delete(oldest.value);
  }
}
