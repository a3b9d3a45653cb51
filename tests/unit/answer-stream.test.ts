// The answer stream's I/O with a fake clock: a private chat's draft goes at once, then at most once
// a second and only when what it shows changed, one draft id per run, only for a run whose end the
// phone hears of; a 429 waits as told; a refused draft (a 400) moves the answer to the progress
// message for the rest of the process, said once in the log; a group shows the last lines there.
import pino from "pino";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AnswerStream, answerStream } from "../../lib/bridge/runs/answer-stream.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";

const delta = (text: string, sessionID = "ses_1"): HermesEvent => ({ type: "message.delta", sessionID, messageID: "msg_1", partID: "prt_1", delta: text });
const busy = (sessionID = "ses_1"): HermesEvent => ({ type: "session.status", sessionID, status: "busy" });

function rig(options: { chatId?: number; stream?: boolean; worth?: boolean; refuse?: TelegramApiError } = {}) {
  const drafts: Array<{ chatId: number; draftId: number; html: string; at: number }> = [];
  const shown: Array<{ sessionID: string; html: string }> = [];
  const warnings: string[] = [];
  let refuse = options.refuse;
  const log = pino({ level: "silent" });
  vi.spyOn(log, "warn").mockImplementation(((_: unknown, message?: string) => void warnings.push(String(message))) as never);
  const telegram = {
    async sendDraft(chatId: number, draftId: number, html: string) {
      if (refuse) {
        const error = refuse;
        if (error.code === 429) refuse = undefined;
        throw error;
      }
      drafts.push({ chatId, draftId, html, at: Date.now() });
    },
  };
  const stream = answerStream(
    {
      telegram,
      registry: new Registry(),
      log,
      t: CATALOGS.en,
      chatId: options.chatId ?? 1001,
      now: Date.now,
      activity: { endsWithDone: () => options.worth ?? true },
      progress: { showAnswer: (sessionID, html) => void shown.push({ sessionID, html }) },
    },
    options.stream,
  );
  return { stream, drafts, shown, warnings };
}

/** Lets the lazily loaded Markdown parser and the draft's call settle. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
};

describe("AnswerStream", () => {
  // The parser loads once per process (real I/O, not a timer): loaded here, settle() only waits for microtasks and timers.
  beforeAll(async () => {
    await loadMarkdown();
  });
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("HERMES_STREAM unset: drafts in a private chat, nothing in a group; on: a group's progress message; off: nothing", () => {
    expect(rig().stream).toBeInstanceOf(AnswerStream);
    expect(rig({ chatId: -100123 }).stream).toBeUndefined();
    expect(rig({ chatId: -100123, stream: true }).stream).toBeInstanceOf(AnswerStream);
    expect(rig({ stream: false }).stream).toBeUndefined();
  });

  it("a private chat: the first draft at once, then at most one a second with the latest text, one draft id, nothing once the run ended", async () => {
    const { stream, drafts } = rig();
    stream!.observe(busy());
    stream!.observe(delta("Hello"));
    await settle();
    expect(drafts.map((d) => d.html)).toEqual(["Hello"]);
    stream!.observe(delta(" there"));
    stream!.observe(delta(", **friend**"));
    await settle();
    expect(drafts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(drafts.map((d) => d.html)).toEqual(["Hello", "Hello there, <b>friend</b>"]);
    expect(drafts[1]!.at - drafts[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(new Set(drafts.map((d) => d.draftId)).size).toBe(1);
    // Nothing changed: no draft, however long.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(drafts).toHaveLength(2);
    stream!.observe({ type: "session.idle", sessionID: "ses_1" });
    stream!.observe(delta(" late"));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(drafts).toHaveLength(2);
    // The next run has a draft of its own.
    stream!.observe(busy());
    stream!.observe(delta("Next"));
    await settle();
    expect(drafts[2]!.draftId).not.toBe(drafts[0]!.draftId);
  });

  it("a run whose end the phone will not hear of (a short run from the terminal) streams nothing", async () => {
    const { stream, drafts } = rig({ worth: false });
    stream!.observe(busy());
    stream!.observe(delta("quiet"));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(drafts).toEqual([]);
  });

  it("a 429 waits the time Telegram asked, then the latest text goes", async () => {
    const { stream, drafts } = rig({ refuse: new TelegramApiError(429, "Too Many Requests: retry after 3", 3) });
    stream!.observe(busy());
    stream!.observe(delta("one"));
    await settle();
    stream!.observe(delta(" two"));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(drafts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_100);
    await settle();
    expect(drafts.map((d) => d.html)).toEqual(["one two"]);
  });

  it("drafts refused (a 400): the progress message shows the answer's last lines from then on, said once", async () => {
    const { stream, drafts, shown, warnings } = rig({ refuse: new TelegramApiError(400, "Bad Request: method not found") });
    stream!.observe(busy());
    stream!.observe(delta("line one\nline two"));
    await settle();
    expect(drafts).toEqual([]);
    expect(shown.at(-1)).toEqual({ sessionID: "ses_1", html: "line one\nline two" });
    stream!.observe(delta("\nline three"));
    await settle();
    expect(shown.at(-1)?.html).toBe("line one\nline two\nline three");
    expect(warnings.filter((w) => w.includes("refused a draft"))).toHaveLength(1);
  });

  it("a group: the answer's last lines on the progress message, no draft", async () => {
    const { stream, drafts, shown } = rig({ chatId: -100123, stream: true });
    stream!.observe(busy());
    stream!.observe(delta("1\n2\n3\n4\n5\n6"));
    await settle();
    expect(drafts).toEqual([]);
    expect(shown.at(-1)?.html).toBe("3\n4\n5\n6");
  });
});
