// A session's title and parent (and the parent's title) that no session event told Hermes about,
// asked from OpenCode: a prompt can come before its session's events (or without them).
import type { OpencodeEndpoint } from "../../opencode/endpoint.ts";
import type { SessionIndex } from "../../registry/sessions.ts";

/** Fills in what `sessions` lacks for `sessionID`; true when something new was learned (its prompts then show it). */
export async function lookUpSession(opencode: Pick<OpencodeEndpoint, "session">, sessions: SessionIndex, sessionID: string): Promise<boolean> {
  let known = sessions.get(sessionID);
  let changed = false;
  if (!known?.title) {
    const info = await opencode.session(sessionID).catch(() => undefined);
    if (!info) return false;
    sessions.upsert(info);
    known = sessions.get(sessionID);
    changed = true;
  }
  if (known?.parentID && !sessions.title(known.parentID)) {
    const parent = await opencode.session(known.parentID).catch(() => undefined);
    if (parent) sessions.upsert(parent);
    changed ||= parent !== undefined;
  }
  return changed;
}
