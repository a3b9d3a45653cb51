// A prompt's Telegram messages: rendered when they can go out (a prompt settled meanwhile is not
// sent at all), edited only when what they show changes, the files a permission's message replies
// to, and the force-reply that asks for typed text. Writes no prompt state: prompt-life.ts records
// what these return.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { Prompt, Registry } from "../../registry/registry.ts";
import { TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import { cutText, escapeHtml, escapeWithin, PLACEHOLDER_LIMIT } from "../../text/html.ts";
import { loadMarkdown, type Markdown } from "../../text/markdown.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { permissionFiles } from "../../telegram/render/render-permission-file.ts";
import { renderPermission } from "../../telegram/render/render-permission.ts";
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
  async post(prompt: Prompt, threadId: number | undefined): Promise<{ message: MessageRef; text: string } | undefined> {
    const { outbox, telegram, chat } = this.#deps;
    const chatId = chat.id;
    if (chatId === undefined) return undefined;
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

  /**
   * The full request and the full diff, when the message can't show them, go out just before it
   * (the message replies to them), so what Allow approves can be read before the tap. Undefined
   * when there is nothing to attach.
   */
  async postFiles(prompt: PermissionPrompt, threadId: number | undefined): Promise<SentFiles | undefined> {
    const { outbox, telegram, chat, log, t } = this.#deps;
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

  /** The prompt is settled and forgotten: its message gets no more edits. */
  forget(key: string): void {
    this.#shown.delete(key);
    this.#plain.delete(key);
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
    void outbox.chore(old.chatId, () => telegram.editMessage(old.chatId, old.messageId, t.status.sentAgain, [])).catch(() => undefined);
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

  render(prompt: Prompt): RenderedMessage {
    const context = this.#contextOf(prompt);
    return prompt.kind === "question" ? renderQuestion(prompt, context) : renderPermission(prompt, context);
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
