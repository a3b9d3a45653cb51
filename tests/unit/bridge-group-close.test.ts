// The supergroup dispose bug: an instance closed while its prompt's sendMessage was on its way
// settled the prompt as "gone", but the edit that shows it (sent once the message id is known)
// queued behind the group's pacing past the bridge's stop grace and was dropped: the phone kept
// the buttons. Here with Telegram's real group limits and a fake clock.
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Bridge } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import type { SendOptions } from "../../lib/telegram/wire/api.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { TELEGRAM_LIMITS } from "../../lib/telegram/wire/pacer.ts";
import { DIRECTORY, FakeOpencode, OWNER, request } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const GROUP = -1001234567890;

/** A Telegram whose answer to one sendMessage is held until released (the message is on its way). */
class HeldTelegram extends MemoryTelegram {
  hold?: { marker: string; released: Promise<void> };
  override async sendMessage(chatId: number, html: string, options?: SendOptions) {
    const sent = await super.sendMessage(chatId, html, options);
    if (this.hold && html.includes(this.hold.marker)) await this.hold.released;
    return sent;
  }
}

beforeEach(async () => {
  // Loaded once per process by the first question (real I/O, which fake timers don't advance): loaded here, so the clock is all that moves.
  await loadMarkdown();
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("closing a bridge that posts to a group", () => {
  it("the last edits go out although the group's budget was in use: the message loses its buttons", async () => {
    const telegram = new HeldTelegram();
    const opencode = new FakeOpencode();
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger: pino({ level: "silent" }),
      access: { chatId: GROUP, allowedUsers: [OWNER] },
      questionTtlMs: 0,
      pacing: TELEGRAM_LIMITS,
    });
    const link = { directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) };
    bridge.attach(link);
    await vi.advanceTimersByTimeAsync(10);

    // A first question, answered in the terminal: its edit is queued.
    const first = request();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: first });
    await vi.advanceTimersByTimeAsync(100);
    bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: first.id, answers: [["Red"]] });
    // A second question whose sendMessage is on its way when the instance closes.
    let release!: () => void;
    const second = request([{ question: "Second? [held]", header: "Q", options: [{ label: "Yes", description: "" }], multiple: false, custom: true }]);
    telegram.hold = { marker: "[held]", released: new Promise((resolve) => (release = resolve)) };
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: second });
    for (let waited = 0; waited < 60_000 && !telegram.messages.some((m) => m.text.includes("[held]")); waited += 100) await vi.advanceTimersByTimeAsync(100);

    const detached = bridge.detach(link); // instance disposed: its prompts are gone
    const stopped = bridge.stop(); // the last instance: the bridge stops (hub.release)
    await vi.advanceTimersByTimeAsync(10);
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all([detached, stopped]);

    const held = telegram.messages.find((m) => m.text.includes("[held]"))!;
    expect(held.keyboard).toEqual([]);
    expect(held.text).toContain("No longer pending");
    const answered = telegram.messages.find((m) => m.messageId !== held.messageId)!;
    expect(answered.keyboard).toEqual([]);
    expect(answered.text).toContain("Answered in the terminal");
  });
});
