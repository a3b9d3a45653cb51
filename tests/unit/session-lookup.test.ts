import { describe, expect, it } from "vitest";
import { lookUpSession } from "../../lib/bridge/prompts/session-lookup.ts";
import type { SessionInfo } from "../../lib/hermes-events.ts";
import { SessionIndex } from "../../lib/registry/sessions.ts";

/** Plays OpenCode's GET /session/:id: what it knows, and what was asked. */
function opencode(known: SessionInfo[], failing = false) {
  const asked: string[] = [];
  return {
    asked,
    session: async (sessionID: string) => {
      asked.push(sessionID);
      if (failing) throw new Error("unreachable");
      return known.find((info) => info.id === sessionID);
    },
  };
}

describe("lookUpSession", () => {
  it("asks nothing when the session and its parent already have titles", async () => {
    const sessions = new SessionIndex();
    sessions.upsert({ id: "ses_parent", title: "Parent" });
    sessions.upsert({ id: "ses_child", title: "Child", parentID: "ses_parent" });
    const api = opencode([]);
    expect(await lookUpSession(api, sessions, "ses_child")).toBe(false);
    expect(api.asked).toEqual([]);
  });

  it("learns a session's title and its parent's", async () => {
    const sessions = new SessionIndex();
    const api = opencode([
      { id: "ses_child", title: "Child", parentID: "ses_parent" },
      { id: "ses_parent", title: "Parent" },
    ]);
    expect(await lookUpSession(api, sessions, "ses_child")).toBe(true);
    expect(api.asked).toEqual(["ses_child", "ses_parent"]);
    expect(sessions.title("ses_child")).toBe("Child");
    expect(sessions.title("ses_parent")).toBe("Parent");
  });

  it("fills in only the missing parent title", async () => {
    const sessions = new SessionIndex();
    sessions.upsert({ id: "ses_child", title: "Child", parentID: "ses_parent" });
    const api = opencode([{ id: "ses_parent", title: "Parent" }]);
    expect(await lookUpSession(api, sessions, "ses_child")).toBe(true);
    expect(api.asked).toEqual(["ses_parent"]);
  });

  it("reports nothing learned when OpenCode doesn't know the session or can't be reached", async () => {
    const sessions = new SessionIndex();
    expect(await lookUpSession(opencode([]), sessions, "ses_x")).toBe(false);
    expect(await lookUpSession(opencode([], true), sessions, "ses_x")).toBe(false);
    expect(sessions.get("ses_x")).toBeUndefined();
  });
});
