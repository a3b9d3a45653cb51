// A tap's answer (answerCallbackQuery) that got no answer (a connection reset, as the taps bench saw
// on a kept-alive socket, or a call that hangs) is tried again twice within Telegram's few seconds:
// the button must not spin on the phone, and the tap's work (which waits for it) goes on. What Telegram refused (a 400: the query is too old) is not tried again, nor a
// 429 (its retry_after outlasts the tap).
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Chat } from "../../lib/bridge/core/chat.ts";
import { TelegramApiError, type TelegramApi } from "../../lib/telegram/wire/api.ts";
import { Outbox } from "../../lib/telegram/wire/outbox.ts";
import { CALLBACK_ANSWER_TIMEOUT_MS } from "../../lib/telegram/wire/timeouts.ts";

const logger = pino({ level: "silent" });

/** A failure to throw, or "hang": a call that never gets an answer (a dead kept-alive socket). */
function chatFailing(failures: Array<unknown | "hang">) {
  const calls: Array<{ id: string; text?: string }> = [];
  const telegram = {
    async answerCallback(id: string, text?: string) {
      calls.push({ id, ...(text !== undefined ? { text } : {}) });
      const failure = failures.shift();
      if (failure === "hang") return new Promise<void>(() => undefined);
      if (failure) throw failure;
    },
  } as unknown as TelegramApi;
  const outbox = new Outbox({ logger, limits: false });
  const warn = vi.spyOn(logger, "warn");
  return { chat: new Chat(-100, { telegram, outbox, log: logger }), calls, warn, outbox };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Chat.answerCallback", () => {
  it("a reset connection: tried again, and answered the second time, with the same text", async () => {
    const { chat, calls, warn, outbox } = chatFailing([new TelegramApiError(0, "ECONNRESET")]);
    const answered = chat.answerCallback("cb1", "Confirm to stop");
    await vi.advanceTimersByTimeAsync(300);
    await answered;
    expect(calls).toEqual([
      { id: "cb1", text: "Confirm to stop" },
      { id: "cb1", text: "Confirm to stop" },
    ]);
    expect(warn).not.toHaveBeenCalled();
    await outbox.stop();
  });

  it("no answer three times: three tries within about a second, then one warning", async () => {
    const reset = () => new TelegramApiError(0, "ECONNRESET");
    const { chat, calls, warn, outbox } = chatFailing([reset(), new TelegramApiError(502, "Bad Gateway"), reset()]);
    const answered = chat.answerCallback("cb2");
    await vi.advanceTimersByTimeAsync(1_300);
    await answered;
    expect(calls).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatchObject({ attempts: 3 });
    await outbox.stop();
  });

  it("a call that never gets an answer is given up after CALLBACK_ANSWER_TIMEOUT_MS and tried again: the tap's work (its confirmation) does not wait for ever", async () => {
    const { chat, calls, warn, outbox } = chatFailing(["hang"]);
    let done = false;
    const answered = chat.answerCallback("cb4", "Confirm to stop").then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(CALLBACK_ANSWER_TIMEOUT_MS - 100);
    expect(done).toBe(false);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    await answered;
    expect(calls).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
    await outbox.stop();
  });

  it("what Telegram refused (400), or a 429, is not tried again", async () => {
    for (const refusal of [new TelegramApiError(400, "Bad Request: query is too old"), new TelegramApiError(429, "Too Many Requests", 30)]) {
      const { chat, calls, warn, outbox } = chatFailing([refusal]);
      await chat.answerCallback("cb3", "Done");
      expect(calls).toHaveLength(1);
      expect(warn).toHaveBeenCalledTimes(1);
      await outbox.stop();
      vi.restoreAllMocks();
    }
  });
});
