// What Hermes knows about OpenCode sessions: titles and parents, fed by session events. Bounded:
// the SESSIONS_KEPT sessions heard of last are kept (an OpenCode that runs for weeks sees many);
// one forgotten is looked up again when a prompt of it comes (lib/bridge/prompts/session-lookup.ts).
import type { SessionInfo } from "../hermes-events.ts";

/** Sessions remembered, the ones heard of last. */
export const SESSIONS_KEPT = 500;

export class SessionIndex {
  readonly #sessions = new Map<string, SessionInfo>();

  upsert(info: SessionInfo): void {
    const known = this.#sessions.get(info.id);
    this.#sessions.delete(info.id);
    this.#sessions.set(info.id, { ...known, ...definedOnly(info) });
    if (this.#sessions.size > SESSIONS_KEPT) this.#sessions.delete(this.#sessions.keys().next().value!);
  }

  /** How many sessions are remembered. */
  get size(): number {
    return this.#sessions.size;
  }

  get(sessionID: string): SessionInfo | undefined {
    return this.#sessions.get(sessionID);
  }

  title(sessionID: string): string | undefined {
    return this.#sessions.get(sessionID)?.title;
  }

  delete(sessionID: string): void {
    this.#sessions.delete(sessionID);
  }

  /**
   * The session a sub-agent's session descends from (itself when it has no known parent): its run
   * is the one Stop aborts, its topic the one sub-agents post in. Parents come from OpenCode's
   * events (untrusted), so the walk stops after MAX_ANCESTORS steps, which also ends a cycle.
   */
  rootOf(sessionID: string): string {
    let current = sessionID;
    for (let depth = 0; depth < MAX_ANCESTORS; depth++) {
      const parent = this.#sessions.get(current)?.parentID;
      if (!parent) break;
      current = parent;
    }
    return current;
  }
}

/** Deeper than any real sub-agent nesting; only bounds the walk. */
const MAX_ANCESTORS = 20;

function definedOnly(info: SessionInfo): SessionInfo {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as unknown as SessionInfo;
}
