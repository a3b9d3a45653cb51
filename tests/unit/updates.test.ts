import { describe, expect, it } from "vitest";
import { parseUpdate } from "../../lib/telegram/wire/updates.ts";

const user = { id: 111, is_bot: false, first_name: "Ann" };
const privateChat = { id: 111, type: "private" };
const group = { id: -1001234567890, type: "supergroup", title: "Team" };

function message(over: Record<string, unknown> = {}) {
  return { update_id: 1, message: { message_id: 50, from: user, chat: privateChat, date: 0, text: "hello", ...over } };
}

describe("parseUpdate: callback queries", () => {
  const callback = (over: Record<string, unknown> = {}) => ({
    update_id: 2,
    callback_query: { id: "cb-1", from: user, message: { message_id: 77, chat: group }, chat_instance: "x", data: "h1:ABCD:x", ...over },
  });

  it("reads id, sender, chat, message and data", () => {
    expect(parseUpdate(callback())).toEqual({
      kind: "callback",
      id: "cb-1",
      from: { userId: 111, chatId: -1001234567890, chatType: "supergroup", name: "Ann" },
      messageId: 77,
      hasButtons: false,
      data: "h1:ABCD:x",
    });
  });

  it("keeps the text of the message the tapped one replies to (a picker answering a command), and nothing that is not text", () => {
    const replied = { message_id: 70, chat: group, from: user, text: "/new fix the tests" };
    expect(parseUpdate(callback({ message: { message_id: 77, chat: group, reply_to_message: replied } }))).toMatchObject({
      messageId: 77,
      replied: { messageId: 70, text: "/new fix the tests" },
    });
    expect(parseUpdate(callback({ message: { message_id: 77, chat: group, reply_to_message: { message_id: 70, photo: [] } } }))).not.toHaveProperty("replied");
    expect(parseUpdate(callback({ message: { message_id: 77, chat: group, reply_to_message: { text: "no id" } } }))).not.toHaveProperty("replied");
  });

  it("says whether the tapped message still shows buttons as Telegram has it", () => {
    const withButtons = { message_id: 77, chat: group, reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "x" }]] } };
    expect(parseUpdate(callback({ message: withButtons }))).toMatchObject({ hasButtons: true });
    expect(parseUpdate(callback({ message: { ...withButtons, reply_markup: { inline_keyboard: [[]] } } }))).toMatchObject({ hasButtons: false });
    expect(parseUpdate(callback({ message: undefined }))).not.toHaveProperty("hasButtons");
  });

  it("keeps a callback without its message (too old), without a chat id", () => {
    const intent = parseUpdate(callback({ message: undefined }));
    expect(intent).toMatchObject({ kind: "callback", id: "cb-1", data: "h1:ABCD:x", from: { userId: 111, chatType: "" } });
    expect(intent).not.toHaveProperty("messageId");
    expect(intent?.from.chatId).toBeUndefined();
    expect(intent?.from).toHaveProperty("chatId");
  });

  it("defaults missing or non-string data to empty", () => {
    expect(parseUpdate(callback({ data: undefined }))).toMatchObject({ data: "" });
    expect(parseUpdate(callback({ data: 5 }))).toMatchObject({ data: "" });
    expect(parseUpdate(callback({ data: { x: 1 } }))).toMatchObject({ data: "" });
  });

  it("ignores malformed chat and message ids", () => {
    const intent = parseUpdate(callback({ message: { message_id: "77", chat: { id: "-100", type: 5 } } }));
    expect(intent).not.toHaveProperty("messageId");
    expect(intent?.from.chatId).toBeUndefined();
    expect(intent?.from).toHaveProperty("chatId");
    expect(intent?.from.chatType).toBe("");
  });

  it.each<[string, Record<string, unknown>]>([
    ["no id", { id: undefined }],
    ["a numeric id", { id: 5 }],
    ["no sender", { from: undefined }],
    ["a sender without id", { from: { first_name: "x" } }],
    ["a string sender id", { from: { id: "111" } }],
    ["a sender array", { from: [111] }],
  ])("drops a callback with %s", (_name, over) => {
    expect(parseUpdate(callback(over))).toBeUndefined();
  });

  it("takes the callback over a message in the same update", () => {
    expect(parseUpdate({ ...message(), ...callback() })?.kind).toBe("callback");
  });
});

describe("parseUpdate: commands", () => {
  it.each<[string, string, string, string?]>([
    ["/start", "start", ""],
    ["/START", "start", ""],
    ["/start@HermesBot", "start", "", "HermesBot"],
    ["/start@hermes_bot arg", "start", "arg", "hermes_bot"],
    ["/pending  several   words ", "pending", "several   words"],
    ["/help\nsecond line", "help", "second line"],
    ["/a_b_9", "a_b_9", ""],
    [`/${"x".repeat(32)}`, "x".repeat(32), ""],
  ])("parses %j", (text, name, args, bot) => {
    expect(parseUpdate(message({ text }))).toEqual({
      kind: "command",
      name,
      args,
      from: { userId: 111, chatId: 111, chatType: "private", name: "Ann" },
      messageId: 50,
      ...(bot ? { bot } : {}),
    });
  });

  it("a command in a group names the group", () => {
    expect(parseUpdate(message({ text: "/start@HermesBot", chat: group }))).toMatchObject({
      kind: "command",
      name: "start",
      from: { chatId: -1001234567890, chatType: "supergroup" },
    });
  });

  it.each(["/", "/ start", "start", " /start", "/start-now", "/stärt", `/${"x".repeat(33)}`, "/start@", "/start@bot-name", "//start", "\\start"])(
    "treats %j as plain text",
    (text) => {
      expect(parseUpdate(message({ text }))).toMatchObject({ kind: "text", text });
    },
  );

  it("a slash inside a word is not a command", () => {
    expect(parseUpdate(message({ text: "/usr/local/bin" }))).toMatchObject({ kind: "text", text: "/usr/local/bin" });
  });

  // BUG: a typed answer that looks like a command is swallowed. The user replies to Hermes'
  // "type your answer" message with "/tmp" (a plausible answer to "Where should I write the
  // file?"); parseUpdate checks the command pattern before the reply (lib/telegram/wire/updates.ts:35-36),
  // returns a "command" intent without replyTo, and the bridge drops every command but /start, so
  // the answer silently never reaches OpenCode. Fix: when `reply_to_message` is present, return a
  // text intent (with replyTo) before testing for a command (or carry replyTo on commands and let
  // the bridge treat unknown commands in a reply as text).
  it("a reply that starts with a slash is a typed answer, not a command", () => {
    expect(parseUpdate(message({ text: "/tmp", reply_to_message: { message_id: 9 } }))).toMatchObject({ kind: "text", text: "/tmp", replyTo: 9 });
  });
});

describe("parseUpdate: text and replies", () => {
  it("parses plain text", () => {
    expect(parseUpdate(message({ text: "Green, please" }))).toEqual({
      kind: "text",
      text: "Green, please",
      from: { userId: 111, chatId: 111, chatType: "private", name: "Ann" },
      messageId: 50,
    });
  });

  it("keeps the text exactly, whitespace and all", () => {
    const text = "  two\nlines  😀 <b>&amp;</b> ";
    expect(parseUpdate(message({ text }))).toMatchObject({ text });
  });

  it("adds replyTo for a reply", () => {
    expect(parseUpdate(message({ text: "Green", reply_to_message: { message_id: 9, text: "Type your answer" } }))).toEqual({
      kind: "text",
      text: "Green",
      from: { userId: 111, chatId: 111, chatType: "private", name: "Ann" },
      messageId: 50,
      replyTo: 9,
    });
  });

  it("ignores a malformed reply_to_message", () => {
    for (const reply of [{ message_id: "9" }, {}, null, 9, [9]]) {
      const intent = parseUpdate(message({ reply_to_message: reply }));
      expect(intent).toMatchObject({ kind: "text" });
      expect(intent).not.toHaveProperty("replyTo");
    }
  });

  it("keeps an empty text", () => {
    expect(parseUpdate(message({ text: "" }))).toMatchObject({ kind: "text", text: "" });
  });

  it("defaults a missing chat type to empty", () => {
    expect(parseUpdate(message({ chat: { id: 111 } }))?.from.chatType).toBe("");
  });
});

describe("parseUpdate: ignored updates", () => {
  it("ignores messages from bots", () => {
    expect(parseUpdate(message({ from: { ...user, is_bot: true } }))).toBeUndefined();
    expect(parseUpdate(message({ from: { ...user, is_bot: true }, text: "/start" }))).toBeUndefined();
  });

  it("does not treat a truthy non-boolean is_bot as a bot", () => {
    expect(parseUpdate(message({ from: { ...user, is_bot: "false" } }))).toMatchObject({ kind: "text" });
  });

  it.each<[string, Record<string, unknown>]>([
    ["no text (a photo)", { text: undefined, photo: [{}], caption: "/start" }],
    ["a numeric text", { text: 5 }],
    ["no sender (a channel post)", { from: undefined }],
    ["no chat", { chat: undefined }],
    ["a string chat id", { chat: { id: "111", type: "private" } }],
    ["a string user id", { from: { id: "111" } }],
    ["a string message id", { message_id: "50" }],
    ["no message id", { message_id: undefined }],
  ])("ignores a message with %s", (_name, over) => {
    expect(parseUpdate(message(over))).toBeUndefined();
  });

  it("ignores update kinds Hermes does not use", () => {
    const inner = message().message;
    expect(parseUpdate({ update_id: 3, edited_message: inner })).toBeUndefined();
    expect(parseUpdate({ update_id: 3, channel_post: inner })).toBeUndefined();
    expect(parseUpdate({ update_id: 3, my_chat_member: {} })).toBeUndefined();
    expect(parseUpdate({ update_id: 3 })).toBeUndefined();
  });

  it.each([
    undefined,
    null,
    0,
    "update",
    true,
    [],
    [message()],
    {},
    { message: null },
    { message: [] },
    { message: "hi" },
    { callback_query: null },
    { callback_query: [] },
    { callback_query: "x" },
  ])("ignores garbage %j without throwing", (value) => {
    expect(() => parseUpdate(value)).not.toThrow();
    expect(parseUpdate(value)).toBeUndefined();
  });

  it("copes with huge text", () => {
    const text = "x".repeat(100_000);
    expect(parseUpdate(message({ text }))).toMatchObject({ kind: "text", text });
    expect(parseUpdate(message({ text: `/start ${text}` }))).toMatchObject({ kind: "command", args: text });
  });
});

describe("parseUpdate: photos and files", () => {
  const from = { id: 7, first_name: "U" };
  const chat = { id: 7, type: "private" };

  it("a photo: the largest size, with caption, reply and topic", () => {
    const intent = parseUpdate({
      message: {
        message_id: 5,
        from,
        chat,
        caption: "look",
        reply_to_message: { message_id: 3 },
        is_topic_message: true,
        message_thread_id: 9,
        media_group_id: "1390",
        photo: [
          { file_id: "small", file_size: 10 },
          { file_id: "big", file_size: 9000, width: 1280 },
        ],
      },
    });
    expect(intent).toEqual({
      kind: "attachment",
      file: { kind: "photo", type: "photo", fileId: "big", size: 9000 },
      caption: "look",
      albumId: "1390",
      from: { userId: 7, chatId: 7, chatType: "private", name: "U" },
      messageId: 5,
      replyTo: 3,
      threadId: 9,
    });
  });

  it("a document with its name and type; an empty caption is no caption", () => {
    const intent = parseUpdate({
      message: { message_id: 5, from, chat, caption: "  ", document: { file_id: "d", file_name: "a.txt", mime_type: "text/plain", file_size: 12 } },
    });
    expect(intent).toEqual({
      kind: "attachment",
      file: { kind: "document", type: "document", fileId: "d", size: 12, mime: "text/plain", name: "a.txt" },
      from: { userId: 7, chatId: 7, chatType: "private", name: "U" },
      messageId: 5,
    });
  });

  it("a video message is an attachment Hermes will refuse, named by its type", () => {
    const intent = parseUpdate({ message: { message_id: 5, from, chat, video: { file_id: "v", file_size: 3 } } });
    expect(intent?.kind === "attachment" && intent.file).toEqual({ kind: "other", type: "video", fileId: "v", size: 3 });
  });

  it("a voice note and an audio file are audio attachments (transcribed), with their type, size and name", () => {
    const voice = parseUpdate({ message: { message_id: 5, from, chat, voice: { file_id: "v", file_size: 3, mime_type: "audio/ogg", duration: 2 } } });
    expect(voice?.kind === "attachment" && voice.file).toEqual({ kind: "audio", type: "voice", fileId: "v", size: 3, mime: "audio/ogg" });
    const audio = parseUpdate({
      message: { message_id: 6, from, chat, audio: { file_id: "a", mime_type: "audio/mpeg", file_name: "memo.mp3" }, caption: "memo" },
    });
    expect(audio).toMatchObject({
      kind: "attachment",
      caption: "memo",
      file: { kind: "audio", type: "audio", fileId: "a", mime: "audio/mpeg", name: "memo.mp3" },
    });
  });

  it("malformed file fields are dropped or make the message unreadable", () => {
    expect(parseUpdate({ message: { message_id: 5, from, chat, document: { file_id: 42 } } })).toBeUndefined();
    expect(parseUpdate({ message: { message_id: 5, from, chat, photo: [{ file_size: 1 }] } })).toBeUndefined();
    const intent = parseUpdate({ message: { message_id: 5, from, chat, document: { file_id: "d", file_size: -1, file_name: 7, mime_type: null } } });
    expect(intent?.kind === "attachment" && intent.file).toEqual({ kind: "document", type: "document", fileId: "d" });
  });
});
