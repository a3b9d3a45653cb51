// What Hermes knows about OpenCode sessions: titles and parents, fed by session events.
import type { SessionInfo } from "../hermes-events.ts";

export class SessionIndex {
  readonly #sessions = new Map<string, SessionInfo>();

  upsert(info: SessionInfo): void {
    const known = this.#sessions.get(info.id);
    this.#sessions.set(info.id, { ...known, ...definedOnly(info) });
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
}

function definedOnly(info: SessionInfo): SessionInfo {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as unknown as SessionInfo;
}
