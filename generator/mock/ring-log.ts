/**
 * A bounded log: the newest `capacity` entries, oldest first. The mock keeps
 * its request and stream records in these, so a long-lived server's memory
 * does not grow with the number of requests it has answered.
 */
export class RingLog<T> {
  #items: T[] = [];
  #start = 0;
  /** How many entries were dropped to stay within the capacity. */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`RingLog capacity must be a positive integer, got ${capacity}`);
  }

  push(item: T): void {
    if (this.#items.length < this.capacity) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.capacity;
    this.dropped++;
  }

  /** The entries, oldest first (a copy). */
  toArray(): T[] {
    return [...this.#items.slice(this.#start), ...this.#items.slice(0, this.#start)];
  }

  /** The newest entry. */
  last(): T | undefined {
    if (this.#items.length === 0) return undefined;
    return this.#items[(this.#start + this.#items.length - 1) % this.#items.length];
  }

  get length(): number {
    return this.#items.length;
  }
}
