// A flood of commands from strangers, or answers the poll loop would have to wait for, never stalls
// the owner's tap (issue #10 item 3): the relay's poll loop only decides who handles an update and
// never waits on outgoing Telegram traffic. Today's main: ten /start queued behind a send that
// Telegram holds kept the owner's tap from reaching OpenCode.
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Bridge } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import type { SendOptions } from "../../lib/telegram/wire/api.ts";
import { CHAT, DIRECTORY, FakeOpencode, OWNER, request } from "../support/bridge-rig.ts";
import { QueueTelegram } from "../support/queue-telegram.ts";
import { socketPath, startRelay, stopAll } from "../support/relay-rig.ts";

/** A Telegram that holds every sendMessage once `hold()` was called, until `release()`. */
class HeldTelegram extends QueueTelegram {
  #held?: Promise<void>;
  #release?: () => void;
  sendsHeld = 0;
  hold(): void {
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }
  release(): void {
    this.#release?.();
  }
  override async sendMessage(chatId: number, html: string, options: SendOptions = {}) {
    if (this.#held) {
      this.sendsHeld++;
      await this.#held;
    }
    return super.sendMessage(chatId, html, options);
  }
}

const bridges: Bridge[] = [];
afterEach(async () => {
  await stopAll();
  await Promise.all(bridges.splice(0).map((bridge) => bridge.stop(10)));
});

describe("the poll loop never waits on outgoing Telegram traffic", () => {
  it("ten strangers' /start, ten /help whose answers Telegram holds, then the owner's tap: the tap reaches OpenCode while every send is still held", async () => {
    const telegram = new HeldTelegram();
    const opencode = new FakeOpencode();
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger: pino({ level: "silent" }),
      access: { chatId: CHAT, allowedUsers: [] },
      questionTtlMs: 0,
      pacing: false,
      confirmTimeoutMs: 10_000,
    });
    bridges.push(bridge);
    opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
    bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) });
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    const message = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("not delivered")));

    telegram.hold();
    startRelay(socketPath(), telegram, bridge);
    const text = (id: number, from: number, chat: number, body: string) => ({
      message: { message_id: id, from: { id: from }, chat: { id: chat, type: "private" }, text: body },
    });
    for (let i = 0; i < 10; i++) telegram.push("stranger", text(100 + i, 666 + i, 666 + i, "/start"));
    for (let i = 0; i < 10; i++) telegram.push("help", text(200 + i, OWNER, CHAT, "/help"));
    telegram.push("tap", {
      callback_query: {
        id: "cb1",
        from: { id: OWNER },
        data: telegram.button(message, "Red").callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    });

    try {
      await vi.waitFor(() => expect(opencode.posts.map((post) => post.url)).toContain("/question/{requestID}/reply"));
      await vi.waitFor(() => expect(telegram.callbackAnswers.map((answer) => answer.id)).toEqual(["cb1"]));
      // Meanwhile the first /help answer is still held by Telegram, the other nine wait behind it.
      expect(telegram.sendsHeld).toBe(1);
      expect(telegram.messages).toHaveLength(1);
    } finally {
      telegram.release();
    }
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("/status"))).toHaveLength(10));
    expect(telegram.messages.filter((m) => m.chatId !== CHAT)).toEqual([]); // strangers got nothing
  });
});
