/** A set of listeners to one kind of event, called in the order they subscribed. */
export class Listeners<T> {
  private readonly fns = new Set<(value: T) => void>();

  /** Subscribes `fn`; returns the function that unsubscribes it. */
  add(fn: (value: T) => void): () => void {
    this.fns.add(fn);
    return () => this.fns.delete(fn);
  }

  emit(value: T): void {
    for (const fn of this.fns) fn(value);
  }

  clear(): void {
    this.fns.clear();
  }
}
