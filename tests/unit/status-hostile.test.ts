// /status gathers parts from every process sharing the bot, over the relay: a forged or hostile
// part must neither crash it nor inject a link, and hostile titles must not push it past 4096.
import { describe, expect, it, vi } from "vitest";
import { parseStatusPart } from "../../lib/bridge/bot/status-part.ts";
import { renderStatus } from "../../lib/telegram/render/render-status.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { CHAT, OWNER, setup } from "../support/bridge-rig.ts";

const command = (text: string) => ({ update_id: 1, message: { message_id: 77, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text } });

function plain(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.plain;
}

const HOSTILE = `<a href="https://evil.example">x</a> &amp; "q" ${"👨‍👩‍👧‍👦🇺🇦".repeat(60)}\u202E${" ".repeat(300)}end`;

describe("/status with hostile input", () => {
  it("hostile titles from many sessions and prompts stay within 4096 and say what was left out", () => {
    const part = {
      sessions: Array.from({ length: 60 }, (_, i) => ({ title: `${i} ${HOSTILE}`, project: HOSTILE, busy: i % 2 === 0, busyMs: 1000 * i })),
      prompts: Array.from({ length: 60 }, (_, i) => ({
        kind: i % 2 ? "question" : "permission",
        summary: HOSTILE,
        project: HOSTILE,
        chatId: -1001234,
        messageId: i + 1,
      })),
    };
    const parsed = parseStatusPart(part)!;
    const html = renderStatus([parsed, parsed]);
    expect(html.length).toBeLessThanOrEqual(4096);
    const text = plain(html);
    expect(text).toContain("Sessions (120)");
    expect(text).toMatch(/… and 1\d\d more/);
    expect(text).toContain("Waiting for you (120)");
    expect(text).toContain("/pending");
    expect(text).not.toContain("\u202E");
    expect(html).not.toContain('href="https://evil');
  });

  it("a forged part can neither crash it nor inject a link", () => {
    const forged: unknown[] = [
      null,
      5,
      "x",
      { sessions: "nope", prompts: { length: 3 } },
      {
        sessions: [null, { title: 7, project: {}, busy: "yes", busyMs: "1" }],
        prompts: [null, { kind: "question", summary: { toString: 1 }, project: 5, chatId: '-100123"><a href="https://evil.example">', messageId: 1 }],
      },
      { sessions: [], prompts: [{ kind: "permission", summary: "<b>ok</b>", project: "p", chatId: -1009, messageId: '1"><a href="https://evil.example">' }] },
      {
        sessions: [],
        prompts: [
          { kind: "question", summary: "s", project: "p", chatId: -1009.5, messageId: 2 },
          { kind: "<script>", summary: "s", project: "p", chatId: -1009, messageId: 2 },
        ],
      },
      { sessions: [], prompts: [{ kind: "question", summary: "real", project: "p", chatId: -1009, messageId: 3 }] },
    ];
    // Checked where they cross the relay: what is no part is dropped, a malformed entry or field of a part too (issue 39), the rest kept.
    const parts = forged.map(parseStatusPart).filter((part) => part !== undefined);
    expect(parts).toHaveLength(4);
    const html = renderStatus(parts);
    const text = plain(html);
    expect(html).not.toContain("evil");
    expect([...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual(["https://t.me/c/9/3"]);
    expect(text).toContain("real");
    // The permission whose message id was forged is kept without it: its summary shown as text, not markup, with no link.
    expect(text).toContain("<b>ok</b>");
    expect(html).not.toContain("<b>ok</b>");
  });

  it("through the bridge, a forged part from the relay still gets /status answered", async () => {
    const { bridge, telegram } = setup();
    await bridge.handleUnclaimed(command("/status"), [
      { sessions: [{ title: {}, busy: true }], prompts: [{ kind: "question", chatId: "-100x", summary: [] }] },
      null,
      { sessions: [{ title: "good", busy: true }], prompts: [] },
    ]);
    const answer = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Hermes status")) ?? Promise.reject(new Error("no status")));
    // The forged title is dropped, its session kept.
    expect(plain(answer!.text)).toContain("Sessions (2)");
    expect(plain(answer!.text)).toContain("good");
  });
});
