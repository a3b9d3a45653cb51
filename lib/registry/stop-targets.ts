// Which session a Stop button stops: one short random key per session (the codec's key format;
// session ids are too long), and the messages that carry a Stop button outside prompts (run
// notices, confirmations, pickers), so they lose it when the run ends. Pure.
import { newPromptKey } from "./registry.ts";

export interface StopTarget {
  key: string;
  sessionID: string;
  directory: string;
}

export interface StopMessage {
  chatId: number;
  messageId: number;
}

/** Sessions are few; a bound still keeps a long-lived process small. */
const REMEMBERED_SESSIONS = 500;

export class StopTargets {
  readonly #byKey = new Map<string, StopTarget>();
  readonly #bySession = new Map<string, StopTarget>();
  readonly #messages = new Map<string, StopMessage[]>();
  readonly #newKey: () => string;

  constructor(newKey: () => string = () => newPromptKey()) {
    this.#newKey = newKey;
  }

  /** The session's key, the same every time (so re-rendered keyboards don't change). */
  keyFor(sessionID: string, directory: string): string {
    const known = this.#bySession.get(sessionID);
    if (known) return known.key;
    let key = this.#newKey();
    while (this.#byKey.has(key)) key = this.#newKey();
    const target = { key, sessionID, directory };
    this.#byKey.set(key, target);
    this.#bySession.set(sessionID, target);
    if (this.#bySession.size > REMEMBERED_SESSIONS) this.forget(this.#bySession.keys().next().value!);
    return key;
  }

  byKey(key: string): StopTarget | undefined {
    return this.#byKey.get(key);
  }

  /** A message showing a Stop (or Confirm stop) button for the session. */
  noteMessage(sessionID: string, message: StopMessage): void {
    this.#messages.set(sessionID, [...(this.#messages.get(sessionID) ?? []), message]);
  }

  /** The session's messages with a Stop button, handed over once (their buttons are to go). */
  takeMessages(sessionID: string): StopMessage[] {
    const messages = this.#messages.get(sessionID) ?? [];
    this.#messages.delete(sessionID);
    return messages;
  }

  forget(sessionID: string): void {
    const target = this.#bySession.get(sessionID);
    if (target) this.#byKey.delete(target.key);
    this.#bySession.delete(sessionID);
    this.#messages.delete(sessionID);
  }
}
