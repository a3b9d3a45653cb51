// Placing OpenCode 2 events in their location: the plugin host and attach mode share this memory.
import { describe, expect, it } from "vitest";
import { SessionDirectories } from "../../lib/opencode2/session-directories.ts";

const event = (sessionID?: string, directory?: string) => ({ events: [], ...(sessionID ? { sessionID } : {}), ...(directory ? { directory } : {}) });

describe("SessionDirectories", () => {
  it("places an event by its own directory, else by what an earlier event of its session said", () => {
    const sessions = new SessionDirectories();
    expect(sessions.place(event("ses_1"))).toBeUndefined();
    expect(sessions.place(event("ses_1", "/a"))).toBe("/a");
    expect(sessions.place(event("ses_1"))).toBe("/a");
    expect(sessions.place(event("ses_1", "/b"))).toBe("/b");
    expect(sessions.place(event("ses_1"))).toBe("/b");
    expect(sessions.place(event(undefined, "/c"))).toBe("/c");
    expect(sessions.place(event())).toBeUndefined();
  });

  it("remembers a bounded number of sessions, forgetting the one learnt longest ago", () => {
    const sessions = new SessionDirectories(2);
    sessions.place(event("ses_1", "/a"));
    sessions.place(event("ses_2", "/b"));
    sessions.place(event("ses_1", "/moved"));
    sessions.place(event("ses_3", "/c"));
    expect(sessions.place(event("ses_2"))).toBeUndefined();
    expect(sessions.place(event("ses_1"))).toBe("/moved");
    expect(sessions.place(event("ses_3"))).toBe("/c");
  });
});
