// The last ids something handled, so that the same one arriving again is recognised: an update
// re-delivered after a relay leader change, an OpenCode 2 event that every location's subscription
// delivers. Bounded: the oldest ids fall out.
export class RecentIds<Id extends string | number> {
  readonly #ids = new Set<Id>();
  readonly #limit: number;

  constructor(limit = 1_000) {
    this.#limit = limit;
  }

  has(id: Id): boolean {
    return this.#ids.has(id);
  }

  /** True the first time an id is seen. */
  add(id: Id): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }
}
