// What each ⏪ Undo button undoes: one short random key per run offered for undoing (the codec's
// key format), the run it names (its session and first user message), the files it changed, and
// where its undo stands. A run's state changes only through the transitions here. Pure.
import type { FileChange } from "../hermes-events.ts";
import { newPromptKey } from "./registry.ts";

/**
 * `offered`: Undo (or its confirmation) is showing; `working`: a revert or unrevert is under way;
 * `undone`: reverted, Redo is showing; `final`: the session went on after the undo (Redo is gone).
 */
export type UndoState = "offered" | "working" | "undone" | "final";

export interface UndoMessage {
  chatId: number;
  messageId: number;
}

export interface UndoTarget {
  readonly key: string;
  readonly sessionID: string;
  readonly directory: string;
  /** The run's first user message: OpenCode reverts to just before it. */
  readonly messageID: string;
  /** What the run changed, as its Done notice listed it. */
  readonly files: readonly FileChange[];
  state: UndoState;
  /** How many files OpenCode said it restored, once undone. */
  restored?: number;
  /** Undo's own message (the confirmation, then the outcome), once sent. */
  message?: UndoMessage;
}

/** Runs are few per session; a bound keeps a long-lived process small. */
const REMEMBERED_RUNS = 200;

export class UndoTargets {
  readonly #byKey = new Map<string, UndoTarget>();
  readonly #newKey: () => string;

  constructor(newKey: () => string = () => newPromptKey()) {
    this.#newKey = newKey;
  }

  /** The run's target, the same one each time it is asked for (a Done notice and /undo share it). */
  targetFor(sessionID: string, directory: string, messageID: string, files: readonly FileChange[]): UndoTarget {
    const known = [...this.#byKey.values()].find((target) => target.sessionID === sessionID && target.messageID === messageID);
    if (known) return known;
    let key = this.#newKey();
    while (this.#byKey.has(key)) key = this.#newKey();
    const target: UndoTarget = { key, sessionID, directory, messageID, files: [...files], state: "offered" };
    this.#byKey.set(key, target);
    if (this.#byKey.size > REMEMBERED_RUNS) this.#byKey.delete(this.#byKey.keys().next().value!);
    return target;
  }

  byKey(key: string): UndoTarget | undefined {
    return this.#byKey.get(key);
  }

  /** The session's runs that were undone: once the session goes on, their Redo is gone. */
  undoneIn(sessionID: string): UndoTarget[] {
    return [...this.#byKey.values()].filter((target) => target.sessionID === sessionID && target.state === "undone");
  }

  forget(sessionID: string): void {
    for (const [key, target] of this.#byKey) if (target.sessionID === sessionID) this.#byKey.delete(key);
  }
}
