// The ids of the last OpenCode 2 events handled: every location's subscription delivers every
// event of the server, and each must reach the bridge once. Bounded: old ids fall out.
export class SeenIds {
  readonly #ids = new Set<string>();
  readonly #limit: number;

  constructor(limit = 10_000) {
    this.#limit = limit;
  }

  /** True the first time an id is seen. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }
}
