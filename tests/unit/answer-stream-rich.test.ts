// The answer as it is written, as a rich draft (issue 52): where the client has rich messages a
// private chat's draft is sendRichMessageDraft's, the agent's Markdown as rich blocks (a table, code
// with its language) that pass the fakes' validator as a draft, paced as today's drafts; a group
// gets none; a server without rich messages ("method not found") gets today's drafts from then on,
// the rich method never asked again, logged once; a client without them (HERMES_RICH=off) sends
// today's drafts.
import pino from "pino";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { answerStream } from "../../lib/bridge/runs/answer-stream.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { loadRichDraft } from "../../lib/rich/rich-markdown.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { RichMessagesMissing } from "../../lib/telegram/wire/api.ts";
import { findBlocks, plainOf, readRichMessage, type RichContent } from "../support/telegram/rich.ts";

const delta = (text: string): HermesEvent => ({ type: "message.delta", sessionID: "ses_1", messageID: "msg_1", partID: "prt_1", delta: text });
const busy: HermesEvent = { type: "session.status", sessionID: "ses_1", status: "busy" };

function rig(options: { chatId?: number; rich?: "supported" | "missing" | "off" } = {}) {
  const drafts: string[] = [];
  const richDrafts: RichContent[] = [];
  let richCalls = 0;
  const warnings: string[] = [];
  const log = pino({ level: "silent" });
  vi.spyOn(log, "warn").mockImplementation(((_: unknown, message?: string) => void warnings.push(String(message))) as never);
  let told = false;
  const telegram = {
    async sendDraft(_chatId: number, _draftId: number, html: string) {
      drafts.push(html);
    },
    ...(options.rich === "off"
      ? {}
      : {
          async sendRichDraft(chatId: number, _draftId: number, html: string) {
            richCalls++;
            if (chatId < 0) throw new Error("a group has no drafts");
            if (options.rich === "missing") {
              const first = !told;
              told = true;
              throw new RichMessagesMissing(first);
            }
            const read = readRichMessage({ html }, true);
            if (!read.ok) throw new Error(`refused: ${read.error}`);
            richDrafts.push(read.content);
          },
        }),
  };
  const stream = answerStream(
    {
      telegram: telegram as never,
      registry: new Registry(),
      log,
      t: CATALOGS.en,
      chatId: options.chatId ?? 1001,
      now: Date.now,
      activity: { endsWithDone: () => true },
      progress: { showAnswer: () => undefined },
    },
    undefined,
  );
  return { stream: stream!, drafts, richDrafts, warnings, richCalls: () => richCalls };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
};

const TABLE = '## Plan <b>&</b>\n\n| file | "change" |\n|---|:-:|\n| a.ts | +1 −0 漢字 😀 |\n\n```ts\nconst x = a < b && c;\n```\n';

describe("AnswerStream: rich drafts", () => {
  beforeAll(async () => {
    await loadMarkdown();
    await loadRichDraft();
  });
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("a private chat's draft is rich: the table and code as blocks, hostile text verbatim, paced as today's", async () => {
    const { stream, drafts, richDrafts } = rig({ rich: "supported" });
    stream.observe(busy);
    stream.observe(delta("Hello"));
    await settle();
    expect(richDrafts).toHaveLength(1);
    expect(plainOf(richDrafts[0]!.blocks[0]!)).toBe("Hello");
    stream.observe(delta(`\n\n${TABLE}`));
    await settle();
    expect(richDrafts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(richDrafts).toHaveLength(2);
    const last = richDrafts[1]!;
    expect(findBlocks(last, "table")).toHaveLength(1);
    expect(findBlocks(last, "th").map((cell) => [plainOf(cell), cell.attrs])).toEqual([
      ["file", {}],
      ['"change"', { align: "center" }],
    ]);
    expect(findBlocks(last, "code").some((code) => code.attrs.class === "language-ts" && plainOf(code) === "const x = a < b && c;")).toBe(true);
    expect(plainOf(findBlocks(last, "h2")[0]!)).toBe("Plan <b>&</b>");
    expect(last.plain).toContain("+1 −0 漢字 😀");
    expect(drafts).toEqual([]);
  });

  it("a server without rich messages: today's drafts from then on, the rich method asked once, logged once", async () => {
    const { stream, drafts, richDrafts, warnings, richCalls } = rig({ rich: "missing" });
    stream.observe(busy);
    stream.observe(delta("Hello"));
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(drafts).toEqual(["Hello"]);
    stream.observe(delta(" there, **friend**"));
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(drafts).toEqual(["Hello", "Hello there, <b>friend</b>"]);
    expect(richDrafts).toEqual([]);
    expect(richCalls()).toBe(1);
    expect(warnings.filter((line) => line.includes("no rich messages"))).toHaveLength(1);
  });

  it("HERMES_RICH=off: today's drafts; a group: no draft at all", async () => {
    const off = rig({ rich: "off" });
    off.stream.observe(busy);
    off.stream.observe(delta("Hello"));
    await settle();
    expect(off.drafts).toEqual(["Hello"]);
    const group = rig({ chatId: -100123, rich: "supported" });
    group.stream?.observe(busy);
    group.stream?.observe(delta("Hello"));
    await settle();
    expect(group.richCalls()).toBe(0);
    expect(group.drafts).toEqual([]);
  });
});
