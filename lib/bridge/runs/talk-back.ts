// The phone's words to a session: typed text (or a voice note's words) sent to a session as its next
// instruction through OpenCode's prompt route, and said so quietly (👍, the run's progress message
// or the Running notice with Stop; a busy session's wait in queue-control.ts first), or, when it could not be sent, the
// text handed back (quoted, and whole as a file when long) so that nothing the person wrote is lost.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { LOST_MESSAGE_FILE, renderNotSent } from "../../telegram/render/render-notice.ts";
import { escapeHtml } from "../../text/html.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { LiveProgress } from "./live-progress.ts";
import type { SpokenAnswers } from "./spoken-answers.ts";
import type { StopControl } from "./stop-control.ts";

export interface TalkBackDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  log: Logger;
  t: Strings;
  activity: ActivityTracker;
  links: Pick<InstanceLinks, "linkFor">;
  chat: Pick<Chat, "reply">;
  /** Says the phone's text started (or was queued behind) a run, with a way to stop it. */
  stops: Pick<StopControl, "announce">;
  /** With live progress on, a run the phone started gets its progress message instead of the Running notice. */
  progress?: Pick<LiveProgress, "startFromPhone" | "showNow"> | undefined;
  /** A run a voice note asked for is answered in voice too (spoken-answers.ts). */
  spoken?: Pick<SpokenAnswers, "heardVoice">;
  /** A run held by a usage limit holds what the phone sends it until it resumes (lib/bridge/walkaway/). */
  held?: { hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean };
  /** A busy session's messages wait in the queue until its run ends (queue-control.ts). */
  queue?: { hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean };
}

/** The user's own message that carried the text (for the 👍 and for replies). */
export interface UserMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
  /** In the main chat while the session posts in its own topic (topics on, /new): the Running notice does not reply to it. */
  outsideTopic?: true;
  /** Who sent it (their Telegram name), for the queue's list. */
  sender?: string;
}

export class TalkBack {
  readonly activity: ActivityTracker;
  readonly #deps: TalkBackDeps;

  constructor(deps: TalkBackDeps) {
    this.#deps = deps;
    this.activity = deps.activity;
  }

  /** Sends typed text (or a voice note's words: `byVoice`) to a session as its next instruction, and says so quietly (or says why not). */
  async talkBack(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice = false): Promise<void> {
    if (this.#deps.held?.hold(owner, userMessage, text, byVoice)) return;
    if (this.#deps.queue?.hold(owner, userMessage, text, byVoice)) return;
    return this.send(owner, userMessage, text, byVoice);
  }

  /** Sends it now, whatever holds messages (the queue sends what it held through this). */
  async send(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice = false): Promise<void> {
    const { t, log, outbox, telegram } = this.#deps;
    const link = this.#deps.links.linkFor(owner.directory);
    const busy = this.activity.isBusy(owner.sessionID);
    const outcome = link
      ? await link.opencode.prompt(owner.sessionID, [{ type: "text", text }])
      : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: owner.sessionID, outcome, busy }, "message from the phone sent to a session");
    if (outcome.ok && byVoice) this.#deps.spoken?.heardVoice(owner.sessionID);
    if (outcome.ok) return this.acknowledge(owner, userMessage, busy);
    // The instruction is lost unless the user gets it back: quoted, and in full as a file if long.
    const why = outcome.gone ? t.talk.sessionGone : outcome.error;
    const notice = renderNotSent(why, text, t);
    await this.#deps.chat.reply(notice.html, userMessage.messageId, userMessage.threadId);
    if (!notice.cut) return;
    const { chatId } = userMessage;
    const options = {
      replyTo: userMessage.messageId,
      caption: escapeHtml(t.talk.fileCaption),
      ...(userMessage.threadId !== undefined ? { threadId: userMessage.threadId } : {}),
    };
    await outbox
      .send(chatId, () => () => telegram.sendDocument(chatId, LOST_MESSAGE_FILE, text, options), Priority.Answer)
      .catch((error) => log.warn({ err: errorText(error) }, "could not send back a message that was not delivered"));
  }

  /** A voice note answered one of the session's prompts: the run it continues is answered in voice too (spoken-answers.ts). */
  heardVoice(sessionID: string): void {
    this.#deps.spoken?.heardVoice(this.#deps.registry.sessions.rootOf(sessionID));
  }

  /**
   * A message from the phone reached the session: 👍 on it, and the run's progress message (with
   * Stop), or the Running notice with progress off; "queued" if the session was busy.
   */
  async acknowledge(owner: MessageOwner, userMessage: UserMessage, wasBusy: boolean): Promise<void> {
    const { outbox, telegram, progress } = this.#deps;
    this.activity.markFromPhone(owner.sessionID);
    void outbox.chore(userMessage.chatId, () => telegram.react(userMessage.chatId, userMessage.messageId, "👍")).catch(() => undefined);
    // A message outside the session's topic (/new opening a new topic) is not replied to there.
    const replyTo = userMessage.outsideTopic ? undefined : userMessage.messageId;
    if (progress && !wasBusy) return progress.startFromPhone(owner, replyTo, userMessage.threadId);
    await this.#deps.stops.announce(owner, replyTo, wasBusy, userMessage.threadId);
    // Queued behind a run: that run now concerns the phone too.
    if (progress) await progress.showNow(owner.sessionID);
  }
}
