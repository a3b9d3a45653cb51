// The approvals' routes and run events through the real Bridge (in-memory Telegram, fake OpenCode),
// so that losing their wiring in lib/bridge/ fails a unit test, not only the e2e (issue 42): `/budget`
// as a reply to a session's message sets, clears and explains the session's cap (a stranger's
// changes nothing); /status lists the session rules with Revoke, and Revoke makes the next like
// request ask again; a run whose usage crosses its cap is stopped by OpenCode's abort, and the
// Stopped notice's Continue sends the session "continue".
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent, MessageUsage } from "../../lib/hermes-events.ts";
import { CHAT, DIRECTORY, OWNER, permission, setup } from "../support/bridge-rig.ts";
import type { MemoryMessage, MemoryTelegram } from "../support/memory-telegram.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

const STRANGER = 666;
const usage = (cost: number): MessageUsage => ({ input: 1_000, output: 100, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost });
const answer = (messageID: string, cost: number): HermesEvent => ({
  type: "message.role",
  sessionID: "ses_1",
  messageID,
  role: "assistant",
  usage: usage(cost),
  model: { providerID: "mock", modelID: "mock-model" },
});
const command = (text: string) => ({ update_id: 1, message: { message_id: 77, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text } });
const found = (telegram: MemoryTelegram, test: (message: MemoryMessage) => boolean, what: string) =>
  vi.waitFor(() => telegram.messages.find(test) ?? Promise.reject(new Error(`no ${what}`)));
const buttons = (message: MemoryMessage) => message.keyboard.flat().map((button) => button.text);

function rig(options: Parameters<typeof setup>[0] = {}) {
  const parts = setup(options);
  const emit = (event: HermesEvent) => parts.bridge.handleEvent(DIRECTORY, event);
  emit({ type: "session.upserted", info: { id: "ses_1", title: "Tests", directory: DIRECTORY } });
  const posted = (url: string) => parts.opencode.posts.filter((post) => post.url === url);
  const aborts = () => posted("/session/{sessionID}/abort");
  const prompts = () => posted("/session/{sessionID}/prompt_async");
  /** A run of the session whose answer cost `cost` dollars. */
  const run = (messageID: string, cost: number) => {
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(answer(messageID, cost));
    emit({ type: "session.idle", sessionID: "ses_1" });
  };
  return { ...parts, emit, aborts, prompts, run };
}

describe("Bridge: the approvals' routes (issue 42)", () => {
  it("/budget as a reply to a session's message sets and clears its cap, on its own explains itself; a stranger's changes nothing", async () => {
    const { telegram, say, askPermission, aborts, prompts, run } = rig({ allowedUsers: [OWNER] });
    const sessions = await askPermission(permission({ patterns: ["npm test"], metadata: { command: "npm test" } }));

    const before = telegram.messages.length;
    await runToQuiet(() => say("/budget 0.01", sessions.messageId, STRANGER));
    expect(telegram.messages).toHaveLength(before);
    run("m0", 0.02);

    await say("/budget 0.50", sessions.messageId);
    const set = await found(telegram, (m) => m.text.includes("runs stop at"), "budget set");
    expect(set.text).toBe("💰 This session's runs stop at <b>$0.50</b>.");
    expect(set.replyTo).toBeGreaterThan(900); // the /budget message
    run("m1", 0.6);
    // One abort, m1's: had the stranger's /budget counted, m0's run (started first) would have been stopped too.
    await found(telegram, (m) => m.text.includes("Stopped at $0.60 of a $0.50 budget"), "Stopped notice");
    expect(aborts()).toEqual([{ url: "/session/{sessionID}/abort", path: { sessionID: "ses_1" } }]);

    await say("/budget off", sessions.messageId);
    await found(telegram, (m) => m.text === "💰 No budget for this session's runs.", "budget off");
    run("m2", 0.6);
    await say("/budget 0.50", sessions.messageId);
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("runs stop at"))).toHaveLength(2));
    run("m3", 0.7);
    // One more abort, m3's: m2's run (started first) had no cap.
    await found(telegram, (m) => m.text.includes("Stopped at $0.70 of a $0.50 budget"), "second Stopped notice");
    expect(aborts()).toHaveLength(2);
    expect(telegram.messages.filter((m) => m.text.includes("Stopped at"))).toHaveLength(2);
    expect(telegram.messages.some((m) => m.text.includes("of a $0.01 budget"))).toBe(false);

    await say("/budget", sessions.messageId);
    await found(telegram, (m) => m.text.startsWith("💰 Reply to a session's message with <code>/budget 2.50</code>"), "usage");
    await say("/budget");
    const alone = await found(telegram, (m) => m.text.startsWith("💰 Reply with /budget to a message of the session"), "usage on its own");
    expect(alone.text).toContain("<code>/budget off</code>");
    // None of it reached the session as its next message.
    expect(prompts()).toEqual([]);
  });

  it("/status lists the session's rules with Revoke; after Revoke the next like request asks again", async () => {
    const { telegram, bridge, opencode, emit, askPermission, tap } = rig();
    const replies = () => opencode.posts.filter((post) => post.url === "/permission/{requestID}/reply").map((post) => (post.body as { reply: string }).reply);
    const npmTest = (id: string) => permission({ id, patterns: ["npm test"], metadata: { command: "npm test" }, always: ["npm test *"] });
    const asking = () => telegram.messages.filter((m) => buttons(m).includes("Allow once"));
    const first = await askPermission(npmTest("per_a"));
    await tap(first, "✅ Allow in this session");
    await vi.waitFor(() => expect(first.text).toContain("Allowed in this session</b>"));
    emit({ type: "permission.asked", request: npmTest("per_b") });
    await vi.waitFor(() => expect(replies()).toEqual(["once", "once"]));
    expect(asking()).toHaveLength(0);

    await bridge.handleUpdate(command("/status"));
    const list = await found(telegram, (m) => m.text.startsWith("🔓 <b>Allowed in this session</b> (1)"), "list of rules");
    expect(list.text).toContain("Tests · bash: <code>npm test</code> with any arguments after it · used 1×");
    expect(list.replyTo).toBe(77);
    const id = await tap(list, "✖ Revoke 1");
    await vi.waitFor(() => expect(telegram.callbackAnswers).toContainEqual({ id, text: "Revoked: the next such request asks again" }));
    await vi.waitFor(() => expect(list.keyboard.flat()).toEqual([]));

    emit({ type: "permission.asked", request: npmTest("per_c") });
    const again = await vi.waitFor(() => asking()[0] ?? Promise.reject(new Error("the request did not ask")));
    expect(again.text).toContain("npm test");
    expect(replies()).toEqual(["once", "once"]);
  });

  it("a run whose usage crosses its budget is stopped through OpenCode's abort; Continue sends the session 'continue'", async () => {
    const { telegram, emit, aborts, prompts, tap } = rig({ runBudget: 0.5 });
    await runToQuiet(() => {
      emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
      emit(answer("m1", 0.3));
    });
    expect(aborts()).toEqual([]);

    emit(answer("m2", 0.25));
    await vi.waitFor(() => expect(aborts()).toEqual([{ url: "/session/{sessionID}/abort", path: { sessionID: "ses_1" } }]));
    const stopped = await found(telegram, (m) => m.text.includes("Stopped at"), "Stopped notice");
    expect(stopped.text).toContain("<b>Stopped at $0.55 of a $0.50 budget</b>");
    expect(buttons(stopped)).toEqual(["▶️ Continue (+$0.50)"]);

    const id = await tap(stopped, "▶️ Continue (+$0.50)");
    await vi.waitFor(() =>
      expect(prompts()).toEqual([
        { url: "/session/{sessionID}/prompt_async", path: { sessionID: "ses_1" }, body: { parts: [{ type: "text", text: "continue" }] } },
      ]),
    );
    await vi.waitFor(() => expect(telegram.callbackAnswers).toContainEqual({ id, text: "▶️ Continued with a budget of $1.00" }));
    await vi.waitFor(() => expect(stopped.text).toContain("Continued with a budget of $1.00"));
    expect(stopped.keyboard.flat()).toEqual([]);
  });
});
