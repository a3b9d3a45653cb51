// An in-memory TelegramApi for unit tests of the bridge: records messages and their edits. Texts
// and captions are parsed as Telegram parses parse_mode HTML (telegram/html.ts, the fake Telegram's
// own parser): one it can't parse is refused with Telegram's 400, and fails the test unless claimed.
import { FileTooBigError, TelegramApiError, type OutgoingFile, type SendOptions, type TelegramApi, type UploadOptions } from "../../lib/telegram/wire/api.ts";
import type { InlineButton } from "../../lib/telegram/wire/rendered-message.ts";
import { parseTelegramHtml } from "./telegram/html.ts";
import { claimViolations, reportViolation } from "./telegram/strict-checks.ts";
import { sameContent, sameMarkup } from "./telegram/validate.ts";
import { readRichMessage, sameRich, type RichContent } from "./telegram/rich.ts";
import { RichMessagesMissing } from "../../lib/telegram/wire/api.ts";

export interface MemoryMessage {
  chatId: number;
  messageId: number;
  text: string;
  keyboard: InlineButton[][];
  forceReply: boolean;
  /** The force reply's input field placeholder. */
  placeholder?: string;
  replyTo?: number;
  threadId?: number;
  deleted: boolean;
  edits: number;
  /** Sent with disable_notification. */
  silent: boolean;
  /** A rich message (sendRichMessage), as the fakes read it: `text` is then its visible text. */
  rich?: RichContent;
}

export class MemoryTelegram implements TelegramApi {
  readonly messages: MemoryMessage[] = [];
  readonly callbackAnswers: Array<{ id: string; text?: string; alert?: boolean }> = [];
  #nextId = 1;

  /** A long poll that nothing answers: it ends, empty, when it is aborted (an answer at once would spin the poll loop). */
  getUpdates(_offset: number, _timeoutSeconds: number, signal: AbortSignal): Promise<unknown[]> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve([]);
      signal.addEventListener("abort", () => resolve([]), { once: true });
    });
  }

  /**
   * `rich`: 'supported' gives it sendRichMessage (read as strictly as the fake Bot API reads it:
   * telegram/rich.ts); 'refused' too, answering like a server older than 10.1. Absent (the default):
   * no such method, as with HERMES_RICH=off.
   */
  constructor(options: { rich?: "supported" | "refused" } = {}) {
    if (options.rich) {
      const mode = options.rich;
      let told = false;
      this.sendRichMessage = async (chatId, html, send = {}) => {
        this.richCalls++;
        if (mode === "refused") {
          const first = !told;
          told = true;
          throw new RichMessagesMissing(first);
        }
        const read = readRichMessage({ html });
        if (!read.ok) {
          const description = `Bad Request: can't parse rich message: ${read.error}`;
          reportViolation({ source: this, kind: "refused rich message", detail: `sendRichMessage: ${description} in ${JSON.stringify(html.slice(0, 400))}` });
          throw new TelegramApiError(400, description);
        }
        const message: MemoryMessage = {
          chatId,
          messageId: this.#nextId++,
          text: read.content.plain,
          keyboard: send.keyboard ?? [],
          forceReply: false,
          deleted: false,
          edits: 0,
          silent: send.silent === true,
          rich: read.content,
          ...(send.threadId !== undefined ? { threadId: send.threadId } : {}),
          ...(send.replyTo !== undefined ? { replyTo: send.replyTo } : {}),
        };
        this.messages.push(message);
        return { messageId: message.messageId };
      };
      this.editRichMessage = async (chatId, messageId, html, keyboard) => {
        const message = this.#find(chatId, messageId);
        const refuse = (description: string) => {
          reportViolation({ source: this, kind: "refused rich message", detail: `editMessageText on message ${chatId}:${messageId}: ${description}` });
          return new TelegramApiError(400, description);
        };
        if (!message.rich) throw refuse("Bad Request: a text message can't be edited into a rich message");
        const read = readRichMessage({ html });
        if (!read.ok) throw refuse(`Bad Request: can't parse rich message: ${read.error}`);
        if (sameRich(read.content, message.rich) && sameMarkup(keyboard, message.keyboard)) return this.#refuse("editMessageText", message);
        message.rich = read.content;
        message.text = read.content.plain;
        message.keyboard = keyboard;
        message.edits++;
      };
    }
  }

  editRichMessage?: TelegramApi["editRichMessage"];

  sendRichMessage?: TelegramApi["sendRichMessage"];
  /** sendRichMessage calls, refused ones included. */
  richCalls = 0;

  async sendMessage(chatId: number, html: string, options: SendOptions = {}) {
    this.#parse("sendMessage", html);
    const message: MemoryMessage = {
      chatId,
      messageId: this.#nextId++,
      text: html,
      keyboard: options.keyboard ?? [],
      forceReply: !!options.forceReply,
      deleted: false,
      edits: 0,
      silent: options.silent === true,
      ...(options.forceReply ? { placeholder: options.forceReply.placeholder } : {}),
      ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
    };
    if (options.replyTo !== undefined) message.replyTo = options.replyTo;
    this.messages.push(message);
    return { messageId: message.messageId };
  }

  /**
   * Telegram refuses an edit that leaves the message as it was ("message is not modified"); the
   * real TelegramApi passes over that answer, so this one records it (failing the test unless
   * claimed, see telegram/strict-checks.ts) and changes nothing.
   */
  async editMessage(chatId: number, messageId: number, html: string, keyboard: InlineButton[][]) {
    const message = this.#find(chatId, messageId);
    if (message.rich) {
      const description = "Bad Request: a rich message can't be edited into a text message";
      reportViolation({ source: this, kind: "refused rich message", detail: `editMessageText on message ${chatId}:${messageId}: ${description}` });
      throw new TelegramApiError(400, description);
    }
    this.#parse("editMessageText", html);
    if (sameContent({ text: html, parseMode: "HTML" }, { text: message.text, parseMode: "HTML" }) && sameMarkup(keyboard, message.keyboard)) {
      return this.#refuse("editMessageText", message);
    }
    message.text = html;
    message.keyboard = keyboard;
    message.edits++;
  }

  /** Drafts sent (sendMessageDraft), in order; a group refuses them as Telegram does. */
  readonly drafts: Array<{ chatId: number; draftId: number; text: string; threadId?: number }> = [];

  async sendDraft(chatId: number, draftId: number, html: string, threadId?: number) {
    if (chatId < 0) throw new TelegramApiError(400, "Bad Request: draft can be sent only to private chats");
    this.drafts.push({ chatId, draftId, text: html, ...(threadId !== undefined ? { threadId } : {}) });
  }

  /** Voice messages sent (sendVoice), in order. */
  readonly voices: Array<{ chatId: number; messageId: number; bytes: Uint8Array; caption?: string; replyTo?: number }> = [];

  async sendVoice(chatId: number, ogg: Uint8Array, options: UploadOptions = {}) {
    const messageId = this.#nextId++;
    this.voices.push({
      chatId,
      messageId,
      bytes: ogg,
      ...(options.caption ? { caption: options.caption } : {}),
      ...(options.replyTo ? { replyTo: options.replyTo } : {}),
    });
    return { messageId };
  }

  async removeKeyboard(chatId: number, messageId: number) {
    const message = this.#find(chatId, messageId);
    if (message.keyboard.length === 0) return this.#refuse("editMessageReplyMarkup", message);
    message.keyboard = [];
  }

  /** Edits refused as not modified that no test took yet, in order. */
  readonly #refusedEdits: Array<{ method: string; chatId: number; messageId: number }> = [];

  /** Claims the refused edits since the last call (a test that makes them on purpose), so they do not fail the test. */
  takeRefusedEdits(): Array<{ method: string; chatId: number; messageId: number }> {
    claimViolations(this, "not modified");
    return this.#refusedEdits.splice(0);
  }

  /** Telegram's answer to HTML it can't parse; reported, so a test that does not expect it fails. */
  #parse(method: string, html: string): void {
    const parsed = parseTelegramHtml(html);
    if (parsed.ok) return;
    const description = `Bad Request: can't parse entities: ${parsed.error}`;
    reportViolation({ source: this, kind: "unparsable entities", detail: `${method}: ${description} in ${JSON.stringify(html.slice(0, 400))}` });
    throw new TelegramApiError(400, description);
  }

  /** Claims the "can't parse entities" refusals since the last call (a test that sends bad HTML on purpose). */
  takeUnparsable(): string[] {
    return claimViolations(this, "unparsable entities").map((violation) => violation.detail);
  }

  #refuse(method: string, message: MemoryMessage): void {
    this.#refusedEdits.push({ method, chatId: message.chatId, messageId: message.messageId });
    reportViolation({
      source: this,
      kind: "not modified",
      detail: `${method} on message ${message.chatId}:${message.messageId} (${message.text.slice(0, 80)})`,
    });
  }

  async deleteMessage(chatId: number, messageId: number) {
    this.#find(chatId, messageId).deleted = true;
  }

  readonly documents: Array<{ chatId: number; messageId: number; filename: string; content: string; caption?: string; replyTo?: number }> = [];

  async sendDocument(chatId: number, filename: string, content: string, options: { caption?: string; replyTo?: number } = {}) {
    if (options.caption !== undefined) this.#parse("sendDocument", options.caption);
    const messageId = this.#nextId++;
    this.documents.push({ chatId, messageId, filename, content, ...options });
    return { messageId };
  }

  /** Files the agent sent (sendFile), bytes and all (chunked bytes read, as Telegram would receive them). */
  readonly sentFiles: Array<{ chatId: number; messageId: number; file: OutgoingFile & { bytes: Uint8Array } } & UploadOptions> = [];

  async sendFile(chatId: number, file: OutgoingFile, options: UploadOptions = {}) {
    if (options.caption !== undefined) this.#parse(file.as === "photo" ? "sendPhoto" : "sendDocument", options.caption);
    let bytes: Uint8Array;
    if (file.bytes instanceof Uint8Array) bytes = file.bytes;
    else {
      const parts: Uint8Array[] = [];
      for await (const chunk of file.bytes.chunks()) parts.push(chunk.slice());
      bytes = new Uint8Array(Buffer.concat(parts));
    }
    const messageId = this.#nextId++;
    this.sentFiles.push({ chatId, messageId, file: { ...file, bytes }, ...options });
    return { messageId };
  }

  readonly topics: Array<{ chatId: number; threadId: number; name: string }> = [];

  async createTopic(chatId: number, name: string) {
    const threadId = 500 + this.topics.length;
    this.topics.push({ chatId, threadId, name });
    return threadId;
  }

  async renameTopic(chatId: number, threadId: number, name: string) {
    const topic = this.topics.find((entry) => entry.chatId === chatId && entry.threadId === threadId);
    if (topic) topic.name = name;
  }

  readonly reactions: Array<{ chatId: number; messageId: number; emoji: string }> = [];

  async react(chatId: number, messageId: number, emoji: string) {
    this.reactions.push({ chatId, messageId, emoji });
  }

  async answerCallback(id: string, text?: string, alert?: boolean) {
    this.callbackAnswers.push({ id, ...(text !== undefined ? { text } : {}), ...(alert !== undefined ? { alert } : {}) });
  }

  commands: Array<{ command: string; description: string }> = [];

  async setCommands(commands: ReadonlyArray<{ command: string; description: string }>) {
    this.commands = [...commands];
  }

  /** How many times getMe was asked. */
  getMeCalls = 0;

  async getMe() {
    this.getMeCalls++;
    return { id: 42, username: "hermes_test_bot" };
  }

  /** Files the human sent, by file id (`size`: what getFile reports, if not the real size). */
  readonly files = new Map<string, { bytes: Uint8Array; size?: number }>();
  /** Every getFile and downloadFile call, in order. */
  readonly fileCalls: Array<{ method: "getFile" | "downloadFile"; id: string }> = [];

  async getFile(fileId: string) {
    this.fileCalls.push({ method: "getFile", id: fileId });
    const file = this.files.get(fileId);
    if (!file) throw new TelegramApiError(400, "Bad Request: invalid file_id");
    return { path: `documents/${fileId}`, size: file.size ?? file.bytes.length };
  }

  async downloadFile(filePath: string, maxBytes: number) {
    const id = filePath.replace(/^documents\//, "");
    this.fileCalls.push({ method: "downloadFile", id });
    const file = this.files.get(id);
    if (!file) throw new TelegramApiError(404, "file download answered 404");
    if (file.bytes.length > maxBytes) throw new FileTooBigError(maxBytes);
    return file.bytes;
  }

  /** The button of `message` whose text is `text` (throws with the available ones). */
  button(message: MemoryMessage, text: string): InlineButton {
    const found = message.keyboard.flat().find((button) => button.text === text);
    if (!found)
      throw new Error(
        `no button "${text}" in [${message.keyboard
          .flat()
          .map((b) => b.text)
          .join(", ")}]`,
      );
    return found;
  }

  #find(chatId: number, messageId: number): MemoryMessage {
    const message = this.messages.find((m) => m.chatId === chatId && m.messageId === messageId && !m.deleted);
    if (!message) throw new Error(`message ${chatId}:${messageId} not found`);
    return message;
  }
}
