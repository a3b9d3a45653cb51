// What a run used, on the bridge (in-memory Telegram, fake OpenCode): the Done notice says the run's
// tokens and dollars, the progress message how full the context is (the model's window from
// OpenCode's provider list), /status each busy session's; nothing at all when OpenCode counted nothing.
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent, MessageUsage } from "../../lib/hermes-events.ts";
import { CHAT, DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";

const model = { providerID: "mock", modelID: "mock-model" };
const usage = (input: number, output: number, cost: number): MessageUsage => ({ input, output, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost });
const answer = (messageID: string, used: MessageUsage, sessionID = "ses_1"): HermesEvent => ({
  type: "message.role",
  sessionID,
  messageID,
  role: "assistant",
  usage: used,
  model,
});
const command = (text: string) => ({ update_id: 1, message: { message_id: 77, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text } });
const found = (messages: MemoryMessage[], pattern: RegExp) =>
  vi.waitFor(() => messages.find((m) => pattern.test(m.text)) ?? Promise.reject(new Error(`no message matching ${pattern}`)));

function rig() {
  const parts = setup({ notices: { level: "all", doneAfterMs: 0 }, progress: true });
  parts.opencode.providers = [{ id: "mock", models: { "mock-model": { name: "Mock", limit: { context: 200_000, output: 4_096 } } } }];
  const emit = (event: HermesEvent) => parts.bridge.handleEvent(DIRECTORY, event);
  emit({ type: "session.upserted", info: { id: "ses_1", title: "Costly", directory: DIRECTORY } });
  return { ...parts, emit };
}

describe("Bridge: what a run used", () => {
  it("the progress message shows the context's fill, /status each busy session's, and Done the run's tokens and dollars", async () => {
    const { telegram, bridge, emit } = rig();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    // A sub-agent's answer counts in the run's total, not in the root's context.
    emit({ type: "session.upserted", info: { id: "ses_child", title: "helper", parentID: "ses_1" } });
    emit(answer("m1", usage(40_000, 1_000, 0.01)));
    emit(answer("m1", usage(80_000, 2_000, 0.02)));
    emit(answer("c1", usage(10_000, 400, 0.011), "ses_child"));
    emit({ type: "todo.updated", sessionID: "ses_1", todos: [{ content: "Step", status: "in_progress" }] });
    const live = await found(telegram.messages, /<b>Running<\/b>/);
    await vi.waitFor(() => expect(live.text).toContain("🧠 41% of 200k"));
    await bridge.handleUpdate(command("/status"));
    const status = await found(telegram.messages, /Hermes status/);
    expect(status.text).toMatch(/busy for \d+ s · 🧠 41% of 200k · <code>project<\/code>/);
    emit({ type: "session.idle", sessionID: "ses_1" });
    const done = await found(telegram.messages, /<b>Done<\/b>/);
    expect(done.text).toContain("92.4k tokens · $0.031");
  });

  it("a run that cost less than a tenth of a cent: its Done notice goes out once, formatted, '<$0.001' escaped (issue 40)", async () => {
    const { telegram, emit } = rig();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(answer("m1", usage(300, 20, 0.0001)));
    emit({ type: "session.idle", sessionID: "ses_1" });
    const done = await found(telegram.messages, /<b>Done<\/b>/);
    expect(done.text).toContain("320 tokens · &lt;$0.001");
    // The in-memory Telegram parses as Telegram does: the notice went out formatted, in one call (no plain-text second try).
    const parsed = parseTelegramHtml(done.text);
    expect(parsed.ok && parsed.plain).toContain("320 tokens · <$0.001");
    expect(telegram.messages.filter((message) => /Done/.test(message.text))).toHaveLength(1);
  });

  it("nothing when OpenCode counted nothing: no 🧠, no tokens, no dollars", async () => {
    const { telegram, bridge, emit } = rig();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID: "m1", role: "assistant" });
    emit({ type: "todo.updated", sessionID: "ses_1", todos: [{ content: "Step", status: "in_progress" }] });
    const live = await found(telegram.messages, /<b>Running<\/b>/);
    await bridge.handleUpdate(command("/status"));
    const status = await found(telegram.messages, /Hermes status/);
    emit({ type: "session.idle", sessionID: "ses_1" });
    const done = await found(telegram.messages, /<b>Done<\/b>/);
    // (/status's 🧠 line about /model is another matter: the session's own line has nothing.)
    const sessionLine = status.text.split("\n").find((line) => line.includes("busy for"));
    for (const text of [live.text, sessionLine, done.text]) expect(text).not.toMatch(/🧠|tokens|\$/);
  });

  it("a model without a price: tokens, no dollars; its window unknown: the count alone", async () => {
    const { telegram, opencode, emit } = rig();
    opencode.providers = [];
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(answer("m1", usage(8_000, 200, 0)));
    emit({ type: "todo.updated", sessionID: "ses_1", todos: [{ content: "Step", status: "in_progress" }] });
    const live = await found(telegram.messages, /<b>Running<\/b>/);
    expect(live.text).toContain("🧠 8.2k tokens");
    emit({ type: "session.idle", sessionID: "ses_1" });
    const done = await found(telegram.messages, /<b>Done<\/b>/);
    expect(done.text).toContain("8.2k tokens");
    expect(done.text).not.toContain("$");
  });

  it("a new run of the session counts from zero", async () => {
    const { telegram, emit } = rig();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(answer("m1", usage(50_000, 0, 1)));
    emit({ type: "session.idle", sessionID: "ses_1" });
    await found(telegram.messages, /\$1\.00/);
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(answer("m2", usage(1_000, 0, 0.002)));
    emit({ type: "session.idle", sessionID: "ses_1" });
    const second = await found(telegram.messages, /\$0\.002/);
    expect(second.text).toContain("1k tokens · $0.002");
  });
});
