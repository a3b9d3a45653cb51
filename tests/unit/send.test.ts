import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { TelegramApiError } from "../../lib/telegram/api.ts";
import { sendWithRetry } from "../../lib/telegram/send.ts";

const logger = pino({ level: "silent" });
const FAST = { minTimeout: 1 };

/** A call that fails with the given errors, in order, then resolves with `value`. */
function flaky<T>(errors: unknown[], value: T) {
  return vi.fn(async () => {
    if (errors.length) throw errors.shift();
    return value;
  });
}

describe("sendWithRetry", () => {
  it("returns the result of a call that succeeds at once", async () => {
    const call = flaky([], { messageId: 7 });
    const sleep = vi.fn(async () => {});
    await expect(sendWithRetry(call, logger, { ...FAST, sleep })).resolves.toEqual({ messageId: 7 });
    expect(call).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it.each([0, 429, 500, 502, 503, 504])("retries the transient code %i", async (code) => {
    const call = flaky([new TelegramApiError(code, "trouble"), new TelegramApiError(code, "trouble")], "ok");
    await expect(sendWithRetry(call, logger, { ...FAST, sleep: async () => {} })).resolves.toBe("ok");
    expect(call).toHaveBeenCalledTimes(3);
  });

  it("waits exactly retry_after through the injected sleep", async () => {
    const call = flaky([new TelegramApiError(429, "Too Many Requests: retry after 3", 3), new TelegramApiError(429, "again", 11)], "sent");
    const sleep = vi.fn(async (_ms: number) => {});
    await expect(sendWithRetry(call, logger, { ...FAST, sleep })).resolves.toBe("sent");
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([3000, 11_000]);
  });

  it("does not call sleep when there is no retry_after", async () => {
    const call = flaky([new TelegramApiError(502, "Bad Gateway")], "sent");
    const sleep = vi.fn(async () => {});
    await sendWithRetry(call, logger, { ...FAST, sleep });
    expect(sleep).not.toHaveBeenCalled();
  });

  it.each([400, 401, 403, 404, 409])("does not retry %i and rethrows the original error", async (code) => {
    const error = new TelegramApiError(code, "Bad Request: chat not found");
    const call = flaky([error], "never");
    const sleep = vi.fn(async () => {});
    await expect(sendWithRetry(call, logger, { ...FAST, sleep })).rejects.toBe(error);
    expect(call).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("does not retry an error that is not a TelegramApiError", async () => {
    const error = new Error("programming error");
    const call = flaky([error], "never");
    await expect(sendWithRetry(call, logger, FAST)).rejects.toBe(error);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("does not retry a thrown non-error, and rejects with an Error carrying its text", async () => {
    const call = flaky(["just a string"], "never");
    await expect(sendWithRetry(call, logger, FAST)).rejects.toThrow("just a string");
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("gives up after `retries` retries with the last transient error", async () => {
    const errors = [1, 2, 3, 4].map((n) => new TelegramApiError(500, `failure ${n}`));
    const call = flaky([...errors], "never");
    await expect(sendWithRetry(call, logger, { retries: 2, minTimeout: 1, sleep: async () => {} })).rejects.toBe(errors[2]);
    expect(call).toHaveBeenCalledTimes(3);
  });

  it("retries 5 times by default", async () => {
    const call = vi.fn(async () => {
      throw new TelegramApiError(0, "unreachable");
    });
    await expect(sendWithRetry(call, logger, FAST)).rejects.toThrow("Telegram unreachable: unreachable");
    expect(call).toHaveBeenCalledTimes(6);
  });

  it("stops retrying at the first permanent error", async () => {
    const permanent = new TelegramApiError(400, "Bad Request: message is too long");
    const call = flaky([new TelegramApiError(500, "x"), permanent, new TelegramApiError(500, "y")], "never");
    await expect(sendWithRetry(call, logger, { ...FAST, sleep: async () => {} })).rejects.toBe(permanent);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("uses a real timer for retry_after when no sleep is given", async () => {
    vi.useFakeTimers();
    try {
      const call = flaky([new TelegramApiError(429, "flood", 2)], "sent");
      const result = sendWithRetry(call, logger, { minTimeout: 0 });
      await vi.advanceTimersByTimeAsync(1999);
      expect(call).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toBe("sent");
      expect(call).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("TelegramApiError", () => {
  it("classifies transient codes", () => {
    expect([0, 429, 500, 502, 599].map((code) => new TelegramApiError(code, "x").isTransient)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 409, 420].map((code) => new TelegramApiError(code, "x").isTransient)).toEqual([false, false, false, false, false, false]);
  });

  it("builds readable messages and keeps retry_after", () => {
    const error = new TelegramApiError(429, "Too Many Requests", 5);
    expect(error.message).toBe("Telegram 429: Too Many Requests");
    expect(error.retryAfterSeconds).toBe(5);
    expect(error.name).toBe("TelegramApiError");
    expect(new TelegramApiError(0, "ECONNRESET").message).toBe("Telegram unreachable: ECONNRESET");
    expect(new TelegramApiError(500, "x").retryAfterSeconds).toBeUndefined();
  });

  it("recognises not-modified and gone messages", () => {
    expect(new TelegramApiError(400, "Bad Request: message is not modified: specified new message content").isNotModified).toBe(true);
    expect(new TelegramApiError(400, "Bad Request: message to edit not found").isMessageGone).toBe(true);
    expect(new TelegramApiError(400, "Bad Request: message can't be deleted").isMessageGone).toBe(true);
    expect(new TelegramApiError(400, "Bad Request: chat not found").isMessageGone).toBe(false);
    expect(new TelegramApiError(500, "message is not modified").isNotModified).toBe(false);
  });
});
