// "Allow in this session" through the bridge, without OpenCode: the tap allows once and makes a rule;
// the next covered request of the session is answered "once" with no message with buttons; without
// a progress message (HERMES_PROGRESS=off) that answer is shown by a silent line of its own; a
// flagged request of the session still asks; another session's request still asks.
import { describe, expect, it, vi } from "vitest";
import { permission, setup } from "../support/bridge-rig.ts";

describe("Bridge: Allow in this session", () => {
  it("answers the session's like requests by itself, shows each, and never a flagged one", async () => {
    const { telegram, opencode, askPermission, tap } = setup();
    const replies = () => opencode.posts.filter((post) => post.url === "/permission/{requestID}/reply").map((post) => (post.body as { reply: string }).reply);
    const first = await askPermission(permission({ id: "per_a", patterns: ["npm test"], metadata: { command: "npm test" }, always: ["npm test *"] }));
    await tap(first, "✅ Allow in this session");
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.messageId === first.messageId)?.text).toContain("Allowed in this session</b>"));
    expect(telegram.messages.find((m) => m.messageId === first.messageId)?.text).toContain("<code>npm test *</code>");
    const withButtons = () => telegram.messages.filter((m) => m.keyboard.some((row) => row.length > 0)).length;
    const before = withButtons();

    opencode.announce({
      type: "permission.asked",
      request: permission({ id: "per_b", patterns: ["npm test -- -t x"], metadata: { command: "npm test -- -t x" }, always: ["npm test *"] }),
    });
    await vi.waitFor(() => expect(replies()).toEqual(["once", "once"]));
    const line = await vi.waitFor(() => {
      const found = telegram.messages.find((m) => m.text.includes("auto-allowed in this session"));
      expect(found).toBeDefined();
      return found!;
    });
    expect(line.text).toBe("✔ auto-allowed in this session: bash <code>npm test -- -t x</code>");
    expect(line.silent).toBe(true);
    expect(withButtons()).toBe(before);

    // A flagged request the scope would cover still asks.
    const flagged = await askPermission(
      permission({ id: "per_c", patterns: ["npm test; rm -rf ~"], metadata: { command: "npm test; rm -rf ~" }, always: ["npm test *"] }),
    );
    expect(flagged.text).toContain("⚠️");
    expect(replies()).toEqual(["once", "once"]);
    // Another session's request still asks.
    const other = await askPermission(
      permission({ id: "per_d", sessionID: "ses_2", patterns: ["npm test"], metadata: { command: "npm test" }, always: ["npm test *"] }),
    );
    expect(other.keyboard.flat().some((button) => button.text === "Allow once")).toBe(true);
  });
});
