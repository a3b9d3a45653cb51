// Remembers the last few update ids a process handled, so an update re-delivered after a
// leader change is not handled twice. Bounded: old ids fall out.
export class RecentIds {
  readonly #ids = new Set<number>();
  readonly #limit: number;

  constructor(limit = 1_000) {
    this.#limit = limit;
  }

  has(id: number): boolean {
    return this.#ids.has(id);
  }

  /** True the first time an id is seen. */
  add(id: number): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }
}
