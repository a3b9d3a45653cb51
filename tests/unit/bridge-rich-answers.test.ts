// Rich answers through the bridge (issue 52): with rich messages the Done notice is one rich
// message (its header, the answer's Markdown as blocks, what changed, the hint, its buttons), with
// no answer.md up to the rich limits; past them its end and answer.md. A server without them: the
// Done notice goes as today's HTML, nothing lost or sent twice, and one log line for the process.
// HERMES_RICH=off (no sendRichMessage): today's HTML, the rich method never asked.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { ANSWER_FILE } from "../../lib/telegram/render/render-agent-text.ts";
import { CHAT, DIRECTORY, setup } from "../support/bridge-rig.ts";
import { findBlocks } from "../support/telegram/rich.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };

function runSession(emit: (event: HermesEvent) => void, text: string, sessionID = "ses_1", n = 1) {
  emit({ type: "session.status", sessionID, status: "busy" });
  emit({ type: "message.role", sessionID, messageID: `msg_${n}`, role: "assistant" });
  emit({ type: "message.text", sessionID, messageID: `msg_${n}`, partID: `prt_${n}`, text });
  emit({ type: "session.idle", sessionID });
}

const TABLE_ANSWER = `## Result\n\n${"All checks pass & the <b> escaping moved out. ".repeat(130)}\n\n| file | change |\n|---|---|\n| a.ts | +3 |\n| b.ts | −1 |\n\n\`\`\`ts\nconst ok = a < b;\n\`\`\``;

function logLines() {
  const lines: string[] = [];
  return { lines, logger: pino({ level: "info" }, { write: (line: string) => lines.push(line) }) };
}

describe("Bridge: rich answers", () => {
  it("a 6,000-character answer with a table: one rich Done notice with a table block, no answer.md", async () => {
    const { telegram, bridge } = setup({ notices: quick, rich: "supported" });
    expect(TABLE_ANSWER.length).toBeGreaterThan(6000);
    runSession((event) => bridge.handleEvent(DIRECTORY, event), TABLE_ANSWER);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.rich && m.text.includes("Done after")) ?? Promise.reject(new Error("no notice")));
    expect(findBlocks(done.rich!, "table")).toHaveLength(1);
    expect(findBlocks(done.rich!, "h2")).toHaveLength(1);
    expect(done.text).toContain("const ok = a < b;");
    expect(done.text).toContain("All checks pass & the <b> escaping moved out.");
    expect(done.text).toMatch(/Reply to this message/);
    expect(done.keyboard.flat().length).toBeGreaterThan(0);
    expect(telegram.messages.filter((m) => m.text.includes("Done after"))).toHaveLength(1);
    expect(telegram.documents).toEqual([]);
  });

  it("a 40,000-character answer: a rich notice within the limits, saying so, and answer.md replying to it", async () => {
    const { telegram, bridge } = setup({ notices: quick, rich: "supported" });
    const answer = Array.from({ length: 500 }, (_, i) => `Step ${i}: ${"done & checked ".repeat(5)}`).join("\n\n");
    expect(answer.length).toBeGreaterThan(40_000);
    runSession((event) => bridge.handleEvent(DIRECTORY, event), answer);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.rich) ?? Promise.reject(new Error("no notice")));
    expect(done.rich!.stats.chars).toBeLessThanOrEqual(32768);
    expect(done.text).toContain("Step 499:");
    expect(done.text).toMatch(/Only the end of the answer fits in one message/);
    const file = await vi.waitFor(() => telegram.documents[0] ?? Promise.reject(new Error("no file")));
    expect(file).toMatchObject({ chatId: CHAT, filename: ANSWER_FILE, content: answer, replyTo: done.messageId });
  });

  it("a server without rich messages: today's HTML, nothing sent twice, logged once for the process", async () => {
    const { lines, logger } = logLines();
    const { telegram, bridge } = setup({ notices: quick, rich: "refused", logger });
    runSession((event) => bridge.handleEvent(DIRECTORY, event), TABLE_ANSWER);
    await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b> after")) ?? Promise.reject(new Error("no notice")));
    runSession((event) => bridge.handleEvent(DIRECTORY, event), "second **answer**", "ses_2", 2);
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("<b>Done</b> after"))).toHaveLength(2));
    expect(telegram.messages.filter((m) => m.rich)).toEqual([]);
    // Today's HTML shows a 6,000-character answer's end and attaches it whole.
    expect(telegram.documents.map((d) => d.filename)).toEqual([ANSWER_FILE]);
    expect(lines.filter((line) => line.includes("no rich messages"))).toHaveLength(1);
  });

  it("HERMES_RICH=off (no rich method): today's HTML", async () => {
    const { telegram, bridge } = setup({ notices: quick });
    runSession((event) => bridge.handleEvent(DIRECTORY, event), TABLE_ANSWER);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b> after")) ?? Promise.reject(new Error("no notice")));
    expect(done.rich).toBeUndefined();
    expect(telegram.richCalls).toBe(0);
  });
});
