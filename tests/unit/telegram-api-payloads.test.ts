// The Bot API client shapes each method's JSON itself (lib/telegram/wire/api.ts), no longer through
// telegraf, which cost OpenCode about 8 MB of memory. What goes on the wire must not change: each
// method's body is compared with the one telegraf built from the same call (telegraf is still a
// devDependency, for this and the harness), after the same JSON encoding (bot-api-call.ts leaves
// out what is undefined or null). And no Bot API library is loaded on the way.
import { Telegram } from "telegraf";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTelegramApi } from "../../lib/telegram/wire/api.ts";
import type { InlineButton } from "../../lib/telegram/wire/rendered-message.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuv";
const API_ROOT = "http://127.0.0.1:9/";
const CHAT = -1001234567890;
const KEYBOARD: InlineButton[][] = [[{ text: "Allow once", callback_data: "h1:abcd:a", style: "success" }], [{ text: "Reject", callback_data: "h1:abcd:r" }]];

/** What each method answers, as Telegram would (enough for the client to read its fields). */
const RESULTS: Record<string, unknown> = {
  getUpdates: [],
  sendMessage: { message_id: 42 },
  editMessageText: { message_id: 42 },
  editMessageReplyMarkup: { message_id: 42 },
  deleteMessage: true,
  createForumTopic: { message_thread_id: 7, name: "t" },
  editForumTopic: true,
  setMessageReaction: true,
  answerCallbackQuery: true,
  setMyCommands: true,
  getFile: { file_id: "f", file_path: "photos/a.jpg", file_size: 10 },
  getMe: { id: 123456, username: "hermes_bot" },
};

interface Sent {
  method: string;
  body: unknown;
}

/** Hermes' client with fetch recording each request (nothing leaves the process). */
function hermesClient(): { sent: Sent[]; api: ReturnType<typeof createTelegramApi> } {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: URL | string, init?: RequestInit) => {
    const method = String(url).split("/").pop()!;
    expect(String(url)).toBe(`http://127.0.0.1:9/bot${TOKEN}/${method}`);
    expect(init?.method).toBe("POST");
    sent.push({ method, body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ ok: true, result: RESULTS[method] }), { headers: { "content-type": "application/json" } });
  });
  return { sent, api: createTelegramApi(TOKEN, API_ROOT) };
}

/** telegraf's Telegram with callApi recording what it would have sent, encoded as bot-api-call.ts encodes. */
function telegrafClient(): { sent: Sent[]; telegram: Telegram } {
  const sent: Sent[] = [];
  const telegram = new Telegram(TOKEN, { apiRoot: API_ROOT, webhookReply: false });
  telegram.callApi = (async (method: string, payload: object) => {
    sent.push({ method, body: JSON.parse(JSON.stringify(payload, (_key, value) => (value === null ? undefined : value))) });
    return RESULTS[method];
  }) as Telegram["callApi"];
  return { sent, telegram };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Bot API payloads without telegraf", () => {
  it("every method sends the body telegraf built for the same call", async () => {
    const { sent, api } = hermesClient();
    const { sent: expected, telegram } = telegrafClient();
    const html = "<b>Question</b> &amp; 🙂";
    const link = { link_preview_options: { is_disabled: true } };

    await api.getUpdates(17, 30, new AbortController().signal);
    await telegram.callApi("getUpdates", { offset: 17, timeout: 30, allowed_updates: ["message", "callback_query"] });

    expect(await api.sendMessage(CHAT, trustedHtml(html), { keyboard: KEYBOARD, replyTo: 5, silent: true, threadId: 9 })).toEqual({ messageId: 42 });
    await telegram.sendMessage(CHAT, html, {
      parse_mode: "HTML",
      ...link,
      reply_markup: { inline_keyboard: KEYBOARD as never },
      reply_parameters: { message_id: 5, allow_sending_without_reply: true },
      disable_notification: true,
      message_thread_id: 9,
    });
    await api.sendMessage(CHAT, trustedHtml(html), { forceReply: { placeholder: "Your answer" } });
    await telegram.sendMessage(CHAT, html, { parse_mode: "HTML", ...link, reply_markup: { force_reply: true, input_field_placeholder: "Your answer" } });
    await api.sendMessage(CHAT, trustedHtml(html));
    await telegram.sendMessage(CHAT, html, { parse_mode: "HTML", ...link });

    await api.editMessage(CHAT, 42, trustedHtml(html), KEYBOARD);
    await telegram.editMessageText(CHAT, 42, undefined, html, { parse_mode: "HTML", ...link, reply_markup: { inline_keyboard: KEYBOARD as never } });
    await api.editMessage(CHAT, 42, trustedHtml(html), []);
    await telegram.editMessageText(CHAT, 42, undefined, html, { parse_mode: "HTML", ...link, reply_markup: { inline_keyboard: [] } });
    await api.removeKeyboard(CHAT, 42);
    await telegram.editMessageReplyMarkup(CHAT, 42, undefined, { inline_keyboard: [] });
    await api.deleteMessage(CHAT, 42);
    await telegram.deleteMessage(CHAT, 42);

    expect(await api.createTopic(CHAT, "fix the build")).toBe(7);
    await telegram.createForumTopic(CHAT, "fix the build");
    await api.renameTopic(CHAT, 7, "fixed");
    await telegram.editForumTopic(CHAT, 7, { name: "fixed" });
    await api.react(CHAT, 42, "👍");
    await telegram.setMessageReaction(CHAT, 42, [{ type: "emoji", emoji: "👍" }]);

    await api.answerCallback("cb1", "Sent", true);
    await telegram.answerCbQuery("cb1", "Sent", { show_alert: true });
    await api.answerCallback("cb2");
    await telegram.answerCbQuery("cb2", undefined, { show_alert: false });

    const commands = [{ command: "status", description: "Sessions" }];
    await api.setCommands(commands);
    await telegram.setMyCommands(commands);
    expect(await api.getFile("f")).toEqual({ path: "photos/a.jpg", size: 10 });
    await telegram.getFile("f");
    expect(await api.getMe()).toEqual({ id: 123456, username: "hermes_bot" });
    await telegram.getMe();

    expect(sent.map((call) => call.method)).toEqual(expected.map((call) => call.method));
    for (let i = 0; i < sent.length; i++) expect({ at: i, ...sent[i] }).toEqual({ at: i, ...expected[i] });
  });

  it("a refusal is a TelegramApiError with Telegram's code, description and retry_after", async () => {
    vi.stubGlobal(
      "fetch",
      async () => new Response(JSON.stringify({ ok: false, error_code: 429, description: "Too Many Requests: retry after 3", parameters: { retry_after: 3 } })),
    );
    const api = createTelegramApi(TOKEN, API_ROOT);
    await expect(api.sendMessage(CHAT, trustedHtml("x"))).rejects.toMatchObject({ name: "TelegramApiError", code: 429, retryAfterSeconds: 3 });
    vi.stubGlobal("fetch", async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    });
    await expect(api.getMe()).rejects.toMatchObject({ name: "TelegramApiError", code: 0, message: "Telegram unreachable: ECONNREFUSED" });
  });

  it("an aborted long poll rejects as no answer", async () => {
    vi.stubGlobal(
      "fetch",
      (_url: unknown, init?: RequestInit) => new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))),
    );
    const api = createTelegramApi(TOKEN, API_ROOT);
    const abort = new AbortController();
    const poll = api.getUpdates(1, 30, abort.signal);
    abort.abort();
    await expect(poll).rejects.toMatchObject({ name: "TelegramApiError", code: 0 });
  });

  it("lib/ loads no Bot API library: the client is the runtime's fetch", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const lib = path.resolve(import.meta.dirname, "../../lib");
    const offenders = fs
      .readdirSync(lib, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .filter((file) => /from "telegraf"|import\("telegraf"\)|from "grammy"|import\("grammy"\)/.test(fs.readFileSync(path.join(lib, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});
