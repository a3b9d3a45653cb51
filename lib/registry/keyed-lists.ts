// What a message with buttons of OpenCode's vocabulary shows (a /commands list, a /history list, a
// fork point), by the random key its buttons carry. Pure and bounded: the oldest is forgotten first,
// and a tap on a forgotten one is told so.
import { newPromptKey } from "./registry.ts";

/** Lists remembered at once. */
export const LISTS_KEPT = 200;

export class KeyedLists<T> {
  readonly #byKey = new Map<string, T>();
  readonly #newKey: () => string;

  constructor(newKey: () => string = () => newPromptKey()) {
    this.#newKey = newKey;
  }

  /** Remembers `value` under a new key, which it returns. */
  add(value: T): string {
    let key = this.#newKey();
    while (this.#byKey.has(key)) key = this.#newKey();
    this.#byKey.set(key, value);
    while (this.#byKey.size > LISTS_KEPT) this.#byKey.delete(this.#byKey.keys().next().value!);
    return key;
  }

  get(key: string): T | undefined {
    return this.#byKey.get(key);
  }

  get size(): number {
    return this.#byKey.size;
  }
}
