// A prompt's Telegram messages: rendered when they can go out (a prompt settled meanwhile is not
// sent at all), edited only when what they show changes, the files a permission's message replies
// to, and the force-reply that asks for typed text. A permission whose diff is longer than its
// message's preview goes as a rich message (Bot API 10.1+) with the whole diff in a collapsible
// block and no file, where the client has rich messages; its edits stay rich. A server without them
// answers "method not found": post() then sends nothing and says so (RICH_UNSENT), and the prompt
// goes as today, its files first. Writes no prompt state: prompt-life.ts records what these return.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { Prompt, Registry } from "../../registry/registry.ts";
import { RichMessagesMissing, TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import { richFromHtml, type RichHtml } from "../../rich/rich-html.ts";
import { cutText, escapeHtml, escapeWithin, PLACEHOLDER_LIMIT } from "../../text/html.ts";
import { loadMarkdown, type Markdown } from "../../text/markdown.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { permissionFiles } from "../../telegram/render/render-permission-file.ts";
import { renderPermission, renderPermissionRich, richPermissionDiff } from "../../telegram/render/render-permission.ts";
import { renderQuestion } from "../../telegram/render/render-question.ts";
import type { InlineButton, RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";
import { errorText } from "../../util/error-text.ts";
import { inThread, type Chat } from "../core/chat.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface PromptMessagesDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  chat: Chat;
  registry: Registry;
  topics: SessionTopics;
  /** The Stop button on every prompt's message (stop-control.ts, which itself closes prompts). */
  stops: { buttonFor(sessionID: string, directory: string): InlineButton };
  log: Logger;
  t: Strings;
}

/** post() sent nothing: the server has no rich messages after all; send the prompt again as today (its files first). */
export const RICH_UNSENT = "rich unsent";

/** What sending a permission's files came to (PermissionPrompt.files). */
export type SentFiles = NonNullable<PermissionPrompt["files"]>;

export class PromptMessages {
  readonly #deps: PromptMessagesDeps;
  /** What each prompt's message shows now, so edits that change nothing are skipped. */
  readonly #shown = new Map<string, string>();
  /** Loaded before the first question goes out; every later render of it is synchronous. */
  #markdown: Markdown | undefined;
  /** Questions whose formatting Telegram refused: their agent text is shown unformatted. */
  readonly #plain = new Set<string>();
  /** Prompts whose message is a rich message (its edits are rich too), and those messages. */
  readonly #rich = new Set<string>();
  readonly #richMessages = new Set<string>();
  /** Prompts a rich message was refused for (a 400): today's message. */
  readonly #notRich = new Set<string>();
  /** The server answered "method not found": no rich message from now on. */
  #richMissing = false;

  constructor(deps: PromptMessagesDeps) {
    this.#deps = deps;
  }

  /** The forum topic the prompt's messages go to (undefined without topics). */
  threadOf(prompt: Prompt): Promise<number | undefined> {
    return this.#deps.topics.threadOf(prompt.sessionID, prompt.directory);
  }

  /**
   * Sends the prompt's message, rendered when it can go out: undefined if the prompt was settled
   * by then. Returns the message and the text it showed. Telegram's errors reach the caller.
   */
  /** Whether the prompt goes as a rich message (its diff whole in it, no file): decided before its files. */
  richDiff(prompt: Prompt): boolean {
    const { telegram, t } = this.#deps;
    if (prompt.kind !== "permission" || this.#richMissing || this.#notRich.has(prompt.key)) return false;
    if (this.#rich.has(prompt.key)) return true;
    return !!telegram.sendRichMessage && !!telegram.editRichMessage && richPermissionDiff(prompt, t) !== undefined;
  }

  /** `wholeDiff`: the message is rich and shows the whole diff (PermissionPrompt.wholeDiff). */
  async post(prompt: Prompt, threadId: number | undefined): Promise<{ message: MessageRef; text: string; wholeDiff?: true } | typeof RICH_UNSENT | undefined> {
    const { outbox, telegram, chat } = this.#deps;
    const chatId = chat.id;
    if (chatId === undefined) return undefined;
    if (prompt.kind === "permission" && this.richDiff(prompt)) return this.#postRich(prompt, chatId, threadId);
    // A question shows the agent's Markdown: the parser is loaded by the first one, not at start-up.
    if (prompt.kind === "question") this.#markdown ??= await loadMarkdown();
    let rendered: RenderedMessage | undefined;
    const options = { ...replyToFiles(prompt), ...inThread(threadId) };
    const sent = await outbox.send(
      chatId,
      () => {
        if (prompt.state !== "pending") return undefined;
        const message = this.render(prompt);
        rendered = message;
        return () =>
          telegram.sendMessage(chatId, message.text, { keyboard: message.keyboard, ...options }).catch((error: unknown) => {
            if (!this.#refusedFormatting(prompt, error)) throw error;
            const plain = this.render(prompt);
            rendered = plain;
            return telegram.sendMessage(chatId, plain.text, { keyboard: plain.keyboard, ...options });
          });
      },
      Priority.Prompt,
    );
    if (!sent || !rendered) return undefined;
    this.#shown.set(prompt.key, shownAs(rendered));
    return { message: { chatId, messageId: sent.messageId }, text: rendered.text };
  }

  async #postRich(
    prompt: PermissionPrompt,
    chatId: number,
    threadId: number | undefined,
  ): Promise<{ message: MessageRef; text: string; wholeDiff: true } | typeof RICH_UNSENT | undefined> {
    const { outbox, telegram, log } = this.#deps;
    let shown: { text: string; key: string } | undefined;
    const sent = await outbox.send<{ messageId: number } | typeof RICH_UNSENT>(
      chatId,
      () => {
        if (prompt.state !== "pending") return undefined;
        const message = renderPermissionRich(prompt, this.#contextOf(prompt));
        if (!message) return async () => RICH_UNSENT;
        return async () => {
          try {
            const posted = await telegram.sendRichMessage!(chatId, message.rich, { keyboard: message.keyboard, ...inThread(threadId) });
            shown = { text: this.#renderHtml(prompt, true).text, key: shownRich(message) };
            return posted;
          } catch (error) {
            if (error instanceof RichMessagesMissing) {
              this.#richMissing = true;
              if (error.first) log.warn({}, "this Bot API server has no rich messages (sendRichMessage: method not found): prompts go as HTML from now on");
              return RICH_UNSENT;
            }
            if (error instanceof TelegramApiError && error.code === 400) {
              log.warn({ err: errorText(error), requestID: prompt.requestID }, "Telegram refused a rich permission message: sent as HTML");
              return RICH_UNSENT;
            }
            throw error;
          }
        };
      },
      Priority.Prompt,
    );
    if (sent === RICH_UNSENT) {
      this.#notRich.add(prompt.key);
      return RICH_UNSENT;
    }
    if (!sent || !shown) return undefined;
    this.#rich.add(prompt.key);
    this.#richMessages.add(`${chatId}:${sent.messageId}`);
    this.#shown.set(prompt.key, shown.key);
    return { message: { chatId, messageId: sent.messageId }, text: shown.text, wholeDiff: true };
  }

  /**
   * The full request and the full diff, when the message can't show them, go out just before it
   * (the message replies to them), so what Allow approves can be read before the tap. Undefined
   * when there is nothing to attach.
   */
  /** A permission's files go out before its message; if they can't be sent, the message offers no Allow. */
  async attachFiles(prompt: PermissionPrompt, threadId: number | undefined): Promise<void> {
    const files = await this.postFiles(prompt, threadId);
    if (files) prompt.files = files;
  }

  async postFiles(prompt: PermissionPrompt, threadId: number | undefined): Promise<SentFiles | undefined> {
    const { outbox, telegram, chat, log, t } = this.#deps;
    // A rich message shows the whole diff itself.
    if (this.richDiff(prompt)) return undefined;
    const files = permissionFiles(prompt, t);
    const chatId = chat.id;
    if (files.length === 0 || chatId === undefined) return undefined;
    const sent: number[] = [];
    for (const file of files) {
      const send = () => telegram.sendDocument(chatId, file.filename, file.content, { caption: file.caption, ...inThread(threadId) });
      const document = await outbox
        .send(chatId, () => (prompt.state === "pending" ? send : undefined), Priority.Prompt)
        .catch((error) => {
          log.warn({ err: errorText(error), requestID: prompt.requestID, file: file.filename }, "could not attach the full text of a permission request");
          return undefined;
        });
      if (document) sent.push(document.messageId);
    }
    return { sent: sent.length === files.length, ...(sent.length > 0 ? { messageId: sent[0]! } : {}) };
  }

  /**
   * Re-renders the prompt's message. Rendered when it goes out, so edits queued behind flood
   * control collapse into the latest state; an edit that would change nothing is not sent (it
   * would cost a flood-limit slot).
   */
  async edit(prompt: Prompt): Promise<void> {
    if (!prompt.message) return;
    if (prompt.kind === "permission" && this.#rich.has(prompt.key)) return this.#editRich(prompt, prompt.message);
    const { outbox, telegram, log } = this.#deps;
    const { chatId, messageId } = prompt.message;
    try {
      await outbox.edit(
        chatId,
        messageId,
        () => {
          const rendered = this.render(prompt);
          const shown = shownAs(rendered);
          if (this.#shown.get(prompt.key) === shown) return undefined;
          return async () => {
            try {
              await telegram.editMessage(chatId, messageId, rendered.text, rendered.keyboard);
              this.#shown.set(prompt.key, shown);
            } catch (error) {
              if (!this.#refusedFormatting(prompt, error)) throw error;
              const plain = this.render(prompt);
              await telegram.editMessage(chatId, messageId, plain.text, plain.keyboard);
              this.#shown.set(prompt.key, shownAs(plain));
            }
          };
        },
        // An open prompt's edit answers a tap the user watches; a settled one's may wait for prompts.
        prompt.state === "pending" ? Priority.Prompt : Priority.Edit,
      );
    } catch (error) {
      log.warn({ err: errorText(error), requestID: prompt.requestID }, "could not update the Telegram message");
    }
  }

  /** A rich permission message re-rendered, rich; skipped when it would change nothing. */
  async #editRich(prompt: PermissionPrompt, message: MessageRef): Promise<void> {
    const { outbox, telegram, log } = this.#deps;
    const { chatId, messageId } = message;
    try {
      await outbox.edit(
        chatId,
        messageId,
        () => {
          const rendered = renderPermissionRich(prompt, this.#contextOf(prompt));
          if (!rendered) return undefined;
          const shown = shownRich(rendered);
          if (this.#shown.get(prompt.key) === shown) return undefined;
          return async () => {
            await telegram.editRichMessage!(chatId, messageId, rendered.rich, rendered.keyboard);
            this.#shown.set(prompt.key, shown);
          };
        },
        prompt.state === "pending" ? Priority.Prompt : Priority.Edit,
      );
    } catch (error) {
      log.warn({ err: errorText(error), requestID: prompt.requestID }, "could not update the Telegram message");
    }
  }

  /** The prompt is settled and forgotten: its message gets no more edits. */
  forget(key: string): void {
    this.#shown.delete(key);
    this.#plain.delete(key);
    this.#rich.delete(key);
    this.#notRich.delete(key);
  }

  /**
   * Telegram could not parse a question's formatted text: from now on that question shows the
   * agent's text unformatted (once per question, logged), so it is never lost to a parse error.
   */
  #refusedFormatting(prompt: Prompt, error: unknown): boolean {
    if (!(error instanceof TelegramApiError && error.isParseError) || prompt.kind !== "question" || this.#plain.has(prompt.key)) return false;
    this.#plain.add(prompt.key);
    this.#deps.log.warn({ err: errorText(error), requestID: prompt.requestID }, "Telegram could not parse a formatted question: shown as plain text");
    return true;
  }

  /** An older copy of a prompt sent again: it says so and loses its buttons. */
  markSentAgain(old: MessageRef): void {
    const { outbox, telegram, t } = this.#deps;
    const rich = this.#richMessages.has(`${old.chatId}:${old.messageId}`) ? richFromHtml(t.status.sentAgain) : undefined;
    const edit = rich
      ? () => telegram.editRichMessage!(old.chatId, old.messageId, rich, [])
      : () => telegram.editMessage(old.chatId, old.messageId, t.status.sentAgain, []);
    void outbox.chore(old.chatId, edit).catch(() => undefined);
  }

  /** A force-reply message asking for typed text (a free-text answer, or a reject's feedback), while the prompt is pending. */
  async askForText(prompt: Prompt, label: string): Promise<MessageRef | undefined> {
    const { outbox, telegram, chat, log, t } = this.#deps;
    const chatId = chat.id;
    if (chatId === undefined) return undefined;
    const text = prompt.kind === "question" ? t.input.answerTo(escapeWithin(reveal(label, t), 200)) : escapeHtml(t.input.feedback);
    const threadId = await this.threadOf(prompt);
    const replyTo = prompt.message ? { replyTo: prompt.message.messageId } : {};
    const options = { forceReply: { placeholder: cutText(label, PLACEHOLDER_LIMIT) }, ...replyTo, ...inThread(threadId) };
    const send = () => telegram.sendMessage(chatId, text, options);
    const sent = await outbox
      .send(chatId, () => (prompt.state === "pending" ? send : undefined), Priority.Answer)
      .catch((error) => {
        log.warn({ err: errorText(error) }, "could not ask for typed text");
        return undefined;
      });
    return sent ? { chatId, messageId: sent.messageId } : undefined;
  }

  /** What the prompt's message shows (as today's HTML: a rich one's own lines, its diff whole). */
  render(prompt: Prompt): RenderedMessage {
    return this.#renderHtml(prompt, this.#rich.has(prompt.key));
  }

  #renderHtml(prompt: Prompt, wholeDiff: boolean): RenderedMessage {
    const context = this.#contextOf(prompt);
    return prompt.kind === "question" ? renderQuestion(prompt, context) : renderPermission(prompt, context, { wholeDiff });
  }

  #contextOf(prompt: Prompt): PromptContext {
    const { registry, stops, t } = this.#deps;
    const session = registry.sessions.get(prompt.sessionID);
    const context: PromptContext = { project: projectName(prompt.directory), t };
    if (session?.title) context.sessionTitle = session.title;
    if (session?.parentID) context.parentTitle = registry.sessions.title(session.parentID) ?? session.parentID;
    context.stop = stops.buttonFor(prompt.sessionID, prompt.directory);
    if (this.#markdown && !this.#plain.has(prompt.key)) context.markdown = this.#markdown;
    return context;
  }
}

/** A permission prompt that came with files replies to the first one, so the two stay together. */
function replyToFiles(prompt: Prompt): { replyTo?: number } {
  return prompt.kind === "permission" && prompt.files?.messageId !== undefined ? { replyTo: prompt.files.messageId } : {};
}

function shownAs(rendered: RenderedMessage): string {
  return JSON.stringify([rendered.text, rendered.keyboard]);
}

function shownRich(rendered: { rich: RichHtml; keyboard: InlineButton[][] }): string {
  return JSON.stringify([rendered.rich, rendered.keyboard]);
}
