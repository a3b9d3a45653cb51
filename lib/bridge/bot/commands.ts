// The bot's commands: /start (chat id, setup check), /help, /status, /pending and /stop. The last three
// concern every process sharing the bot, so each process contributes its part and the one that
// polls answers once (see lib/relay/relay.ts). Only commands from those who may act arrive here (lib/bridge/core/gate.ts),
// except /start, which the gate sends to `start` for whoever may learn their ids.
import { projectName } from "../../telegram/render/render-context.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { Registry } from "../../registry/registry.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../util/error-text.ts";
import { renderHelp, renderStatus, type StatusPart } from "../../telegram/render/render-status.ts";
import { escapeHtml, html, type Html, joinHtml } from "../../text/html.ts";
import type { ActingCommand, Gate, IntentOf } from "../core/gate.ts";
import type { PromptLife } from "../prompts/prompt-life.ts";
import { StartReplies } from "./start-replies.ts";
import { parseStatusPart } from "./status-part.ts";
import type { RunCosts } from "../runs/run-costs.ts";
import type { StopControl } from "../runs/stop-control.ts";

type Command = IntentOf<"command">;

export interface CommandDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  activity: ActivityTracker;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured yet (only /start is answered). */
  chatId: number | undefined;
  /** /pending sends each pending prompt again as a fresh message at the bottom of the chat. */
  prompts: Pick<PromptLife, "sendAgain">;
  /** /stop: this process' busy sessions, offered for stopping in reply to the command. */
  stops: Pick<StopControl, "offer">;
  /** /status: what the phone's prompts use (/model, /agent). */
  steering: { statusLine(): Html };
  /** /status: how full each busy session's context is. */
  costs?: Pick<RunCosts, "context" | "lastContext">;
  /** /status: this process' session rules, each with Revoke, in reply (issue 42). */
  rules?: { offer(replyTo: number): Promise<void> };
}

export class Commands {
  readonly #deps: CommandDeps;
  readonly #startReplies: StartReplies;

  constructor(deps: CommandDeps) {
    this.#deps = deps;
    this.#startReplies = new StartReplies();
  }

  /** Its route on the gate: what the routes before it left (an unknown command is answered with /help). */
  route(gate: Gate): void {
    gate.route("command", {
      unclaimed: (command, after) => this.answer(command, after.parts),
      gathers: (command) => this.gathers(command),
      partFor: (command) => this.partFor(command),
    });
  }

  /** /status and /pending need every process sharing the bot: each adds its own sessions and prompts. */
  gathers(intent: ActingCommand): boolean {
    return intent.name === "status" || intent.name === "pending" || intent.name === "stop";
  }

  /** This process' part; for /pending it also sends its pending prompts again (in the background: sending is paced). */
  async partFor(intent: ActingCommand): Promise<StatusPart | undefined> {
    if (!this.gathers(intent)) return undefined;
    const { registry, prompts, stops } = this.#deps;
    const part = this.#statusPart();
    if (intent.name === "pending") for (const prompt of registry.pending()) void prompts.sendAgain(prompt);
    if (intent.name === "stop") void stops.offer(intent.messageId);
    if (intent.name === "status") void this.#deps.rules?.offer(intent.messageId);
    return part;
  }

  /** `received`: what each process sent for /status and /pending (checked here: they crossed the relay). */
  async answer(intent: ActingCommand, received: readonly unknown[] | undefined): Promise<void> {
    const { t, log } = this.#deps;
    const parts = received?.map(parseStatusPart).filter((part) => part !== undefined);
    if (received && parts && parts.length < received.length)
      log.warn({ dropped: received.length - parts.length }, "dropped a malformed /status part from another process");
    const text =
      intent.name === "status"
        ? html`${renderStatus(parts ?? [], t)}\n\n${this.#deps.steering.statusLine()}`
        : intent.name === "pending"
          ? (parts ?? []).some((part) => part.prompts.length > 0)
            ? undefined // the prompts themselves are the answer
            : escapeHtml(t.status.nothingWaiting)
          : intent.name === "stop"
            ? (parts ?? []).some((part) => part.sessions.some((session) => session.busy))
              ? undefined // each process offered its own runs
              : escapeHtml(t.stop.nothingRunning)
            : intent.name === "undo"
              ? t.undo.howTo // /undo works as a reply to a session's message (lib/bridge/input/typed-text.ts)
              : renderHelp(t);
    if (text) await this.#send(intent, text);
  }

  /** /start, from whoever the gate lets learn their ids (setup, or the owner in a new chat). */
  async start(intent: Command): Promise<void> {
    const { t, chatId, log } = this.#deps;
    if (!this.#startReplies.mayAnswer(intent.from.chatId)) return void log.debug({ chatId: intent.from.chatId }, "/start not answered (answered recently)");
    const configured = intent.from.chatId === chatId;
    const lines = [
      t.start.hello,
      t.start.ids(intent.from.chatId, intent.from.userId),
      configured ? escapeHtml(t.start.configured) : t.start.setChat(intent.from.chatId),
    ];
    await this.#send(intent, joinHtml(lines, "\n"));
  }

  async #send(intent: Command, text: Html): Promise<void> {
    const { outbox, telegram, log } = this.#deps;
    const chatId = intent.from.chatId;
    await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, text, { replyTo: intent.messageId }), Priority.Answer)
      .catch((error) => log.warn({ err: errorText(error), command: intent.name }, "could not answer a command"));
  }

  #statusPart(): StatusPart {
    const { registry, activity, chatId, costs } = this.#deps;
    const sessions = activity.summary().map(({ sessionID, busy, busyMs }) => {
      const info = registry.sessions.get(sessionID);
      const context = busy ? costs?.context(sessionID) : costs?.lastContext(sessionID);
      return {
        busy,
        ...(busyMs !== undefined ? { busyMs } : {}),
        ...(context ? { context } : {}),
        ...(info?.title ? { title: info.title } : {}),
        ...(info?.directory ? { project: projectName(info.directory) } : {}),
      };
    });
    // Prompts are posted only to a configured chat.
    const prompts =
      chatId === undefined
        ? []
        : registry.pending().map((prompt) => {
            const title = registry.sessions.title(prompt.sessionID);
            const summary =
              prompt.kind === "question" ? (prompt.questions[0]?.question ?? "question") : `${prompt.request.permission}: ${prompt.request.patterns[0] ?? ""}`;
            return {
              kind: prompt.kind,
              summary,
              project: projectName(prompt.directory),
              chatId,
              ...(title ? { title } : {}),
              ...(prompt.message ? { messageId: prompt.message.messageId } : {}),
            };
          });
    return { sessions, prompts };
  }
}
