// The bridge's side of telegram_send_file: a file the agent sends becomes a message of its session
// in the configured chat (in the session's topic with topics on), captioned with where it comes
// from and the agent's text, and a reply to it reaches the session like a reply to any Hermes
// message of that session. It goes through the outbox like every message (the chat's budget,
// retries while Telegram is away) as an upload: below prompts, in the lane that is not theirs, so
// a prompt never waits for a file however large. Its name is revealed as the caption is (a bidi
// override cannot turn `.apk` into `.pdf`). A picture Telegram refuses as a photo (its
// dimensions) goes again as a document.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { loadMarkdown } from "../../text/markdown.ts";
import { revealFileName } from "../../text/reveal.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { renderAgentFileCaption } from "../../telegram/render/render-agent-file.ts";
import { TelegramApiError, type OutgoingFile, type TelegramApi } from "../../telegram/wire/api.ts";
import type { Outbox } from "../../telegram/wire/outbox.ts";
import { uploadTimeoutMs } from "../../telegram/wire/upload-kind.ts";
import { fileSize } from "../../telegram/wire/upload-source.ts";
import { inThread } from "../core/chat.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface AgentFileDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: Pick<SessionTopics, "threadOf">;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured (the tool is not offered then). */
  chatId: number | undefined;
}

/** What the tool reports back: the message it became, and how Telegram shows it. */
export interface AgentFileSent {
  messageId: number;
  as: "photo" | "document";
}

/** Who sends a file once it passed the rules: the process' bridge (on-demand-bridge.ts), which loads for it. */
export interface AgentFileSender {
  sendAgentFile(owner: MessageOwner, file: OutgoingFile, caption: string | undefined): Promise<AgentFileSent>;
}

export class AgentFiles {
  constructor(private readonly deps: AgentFileDeps) {}

  /** Sends `file` as a message of `owner`'s session; throws when there is no chat or Telegram refused it. */
  async send(owner: MessageOwner, file: OutgoingFile, caption: string | undefined): Promise<AgentFileSent> {
    const { outbox, telegram, registry, topics, log, t, chatId } = this.deps;
    if (chatId === undefined) throw new Error("no Telegram chat is configured");
    const context: PromptContext = { project: projectName(owner.directory), t };
    const title = registry.sessions.title(owner.sessionID);
    if (title) context.sessionTitle = title;
    const html = renderAgentFileCaption(context, caption, caption ? await loadMarkdown() : undefined, t);
    const threadId = await topics.threadOf(owner.sessionID, owner.directory);
    const options = { caption: html, ...inThread(threadId), timeoutMs: uploadTimeoutMs(fileSize(file.bytes)) };
    // The name as it is would let a bidi override show invoice‮fdp.apk as invoicekpa.pdf.
    const named = { ...file, filename: revealFileName(file.filename, t) };
    const upload = (as: OutgoingFile["as"]) => outbox.upload(chatId, () => () => telegram.sendFile(chatId, { ...named, as }, options), options.timeoutMs);
    let as = file.as;
    let sent: { messageId: number } | undefined;
    try {
      sent = await upload(as);
    } catch (error) {
      // Telegram refuses some pictures as photos (PHOTO_INVALID_DIMENSIONS and the like): the same bytes as a file.
      if (as !== "photo" || !(error instanceof TelegramApiError) || error.code !== 400 || error.isParseError) throw error;
      log.info({ err: error.message }, "Telegram refused the agent's picture as a photo: sending it as a file");
      as = "document";
      sent = await upload(as);
    }
    if (!sent) throw new Error("Hermes is stopping");
    registry.noteMessage({ chatId, messageId: sent.messageId }, owner);
    log.info({ sessionID: owner.sessionID, as, bytes: fileSize(file.bytes) }, "the agent sent a file");
    return { messageId: sent.messageId, as };
  }
}
