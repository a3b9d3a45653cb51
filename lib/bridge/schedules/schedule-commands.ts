// /every, /at and /schedules: scheduled runs made, listed and cancelled from the phone. /every and
// /at choose their project as /new does (lib/bridge/steering/new-sessions.ts): every process sharing the bot adds the
// directories it serves; the one that polls answers: with one project it serves itself, the
// schedule is made at once; otherwise a picker (a button per served project) replies to the
// command, and the tap is claimed by the process serving that project, which reads the command
// back from the message the picker replies to. The answer says what was understood, in words.
// /schedules and its cancel buttons need no particular process: the file is this user's, shared by
// all (lib/schedules/store.ts); the first tap on a cancel button asks for a second. Only updates
// from those who may act arrive here (lib/bridge/core/gate.ts): a stranger's /every makes nothing.
// Where the Bot API has rich messages /schedules is a table (lib/bridge/core/rich-send.ts: today's
// list where it has none); its edits keep its kind.
import { randomBytes } from "node:crypto";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import { errorText } from "../../util/error-text.ts";
import { RecentIds } from "../../util/recent-ids.ts";
import type { Claim } from "../../relay/update-handler.ts";
import type { Schedule } from "../../schedules/schedule.ts";
import { MAX_INSTRUCTION, MAX_SCHEDULES } from "../../schedules/schedule.ts";
import type { ScheduleStore } from "../../schedules/store.ts";
import type { SchedulePace } from "../../schedules/pace.ts";
import { nextRun, parseAt, parseEvery, type Parsed } from "../../schedules/when.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { escapeHtml, escapeWithin } from "../../text/html.ts";
import {
  renderScheduleCreated,
  renderScheduleError,
  renderScheduleList,
  renderScheduleListRich,
  type ScheduleView,
  renderSchedulePicked,
  renderSchedulePicker,
} from "../../telegram/render/render-schedules.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import type { RenderedMessage, RichHtml } from "../../telegram/wire/rendered-message.ts";
import { parseCommand } from "../../telegram/wire/updates.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { editRichOrHtml, sendRichOrHtml } from "../core/rich-send.ts";
import { parseProjectsPart, projectKey } from "../steering/projects-part.ts";

/** What scheduled runs need of the process: the store and this bot's key; absent, schedules are off. */
export interface ScheduleSetup {
  store: ScheduleStore;
  /** This bot's key in the store (a hash of its token and API root). */
  bot: string;
  /** The schedules changed here: the wake-up timer looks again. */
  changed: () => void;
  /** Given, once the bridge is made, what claims and starts the runs due now (schedule-runner.ts). */
  ready: (runDue: () => Promise<void>) => void;
  /** The schedules' minute (lib/schedules/pace.ts); a real minute when absent. */
  pace?: SchedulePace;
}

export interface ScheduleCommandDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send" | "answerCallback">;
  now: () => number;
  schedules: ScheduleSetup | undefined;
}

const MAKING = new Set(["every", "at"]);
const NOT_ANSWERED = "could not answer a schedule command";
const SHOWN_LIMIT = 50;

export class ScheduleCommands {
  readonly #deps: ScheduleCommandDeps;
  /** What each /schedules message of this process shows now, by message id (an edit that changes nothing is never sent), and whether it is rich. */
  readonly #shown = new Map<number, { key: string; rich: boolean }>();
  /** Pickers already tapped here ("chatId:messageId"): a quick second tap makes no second schedule. */
  readonly #picked = new RecentIds<string>(SHOWN_LIMIT);

  constructor(deps: ScheduleCommandDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return MAKING.has(intent.name);
  }

  async partFor(intent: ActingCommand): Promise<unknown> {
    return MAKING.has(intent.name) ? { directories: this.#deps.links.directories() } : undefined;
  }

  /** /every and /at (with every process' directories), /schedules: answered once, by the process that polls. */
  unclaimed(intent: ActingCommand, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    if (MAKING.has(intent.name)) return this.#make(intent, parts ?? []);
    if (intent.name === "schedules") return this.#list(intent.messageId);
    return undefined;
  }

  /** A tap on the picker: claimed by the process serving the tapped project. */
  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "scheduleIn") return undefined;
    const directory = this.#deps.links.directories().find((served) => projectKey(served) === data.key);
    if (directory === undefined) return undefined;
    return async () => {
      if (this.#picked.add(`${intent.from.chatId}:${intent.messageId}`)) return this.#pick(intent, directory);
      await this.#deps.chat.answerCallback(intent.id);
    };
  }

  /** A cancel button of /schedules: any process may answer it (the one that polls does). */
  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action === "scheduleCancel") return this.#cancel(intent, data.key, false);
    if (data?.action === "scheduleDrop") return this.#cancel(intent, data.key, true);
    return undefined;
  }

  async #make(intent: ActingCommand, received: readonly unknown[]): Promise<void> {
    const { t, chat, links, log } = this.#deps;
    const replyTo = intent.messageId;
    const parsed = parse(intent.name, intent.args, this.#deps.now());
    if ("error" in parsed) return chat.reply(renderScheduleError(parsed.error, t), replyTo);
    const parts = received.map(parseProjectsPart).filter((part) => part !== undefined);
    if (parts.length < received.length) log.warn({ dropped: received.length - parts.length }, "dropped a malformed schedule part from another process");
    const directories = [...new Set(parts.flatMap((part) => part.directories))];
    if (directories.length === 0) return chat.reply(escapeHtml(t.steer.noProject), replyTo);
    const only = directories.length === 1 ? directories[0]! : undefined;
    if (only !== undefined && links.linkFor(only)) return this.#save(only, parsed, intent.from.chatId, replyTo);
    const picker = renderSchedulePicker(
      directories.map((directory) => ({ key: projectKey(directory), directory })),
      t,
    );
    await chat.send(picker.text, { keyboard: picker.keyboard, replyTo }, Priority.Answer, NOT_ANSWERED);
  }

  async #pick(intent: ActingTap, directory: string): Promise<void> {
    const { chat, t, outbox, telegram } = this.#deps;
    const chatId = intent.from.chatId;
    // The picker replies to the command: the command comes back with the tap.
    const command = intent.replied ? parseCommand(intent.replied.text) : undefined;
    const parsed = command && MAKING.has(command.name) ? parse(command.name, command.args, this.#deps.now()) : undefined;
    if (!parsed || "error" in parsed || chatId === undefined || intent.messageId === undefined) return chat.answerCallback(intent.id, t.schedule.gone);
    await chat.answerCallback(intent.id);
    const pickerId = intent.messageId;
    const picked = renderSchedulePicked(directory, t);
    void outbox
      .edit(chatId, pickerId, () => () => telegram.editMessage(chatId, pickerId, picked.text, picked.keyboard), Priority.Answer)
      .catch(() => undefined);
    await this.#save(directory, parsed, chatId, intent.replied?.messageId ?? pickerId);
  }

  async #save(directory: string, parsed: Exclude<Parsed, { error: unknown }>, chatId: number | undefined, replyTo: number): Promise<void> {
    const { t, chat, log, schedules } = this.#deps;
    if (!schedules) return chat.reply(t.schedule.off(escapeHtml(t.talk.notRunning)), replyTo);
    if (chatId === undefined) return;
    const now = this.#deps.now();
    const schedule: Schedule = {
      id: randomBytes(4).toString("hex"),
      bot: schedules.bot,
      chatId,
      directory,
      when: parsed.when,
      instruction: parsed.instruction.slice(0, MAX_INSTRUCTION),
      next: nextRun(parsed.when, now, schedules.pace?.minuteMs),
      created: now,
    };
    const saved = await schedules.store.update((list) =>
      list.length >= MAX_SCHEDULES ? { schedules: list, result: false } : { schedules: [...list, schedule], result: true },
    );
    // A full file: this schedule is not made, the others stand (said as a failed save, not as schedules being off).
    if (!saved.ok && saved.full) return chat.reply(t.schedule.saveFailed(t.schedule.full), replyTo);
    if (!saved.ok) return chat.reply(t.schedule.off(escapeWithin(saved.refused, 300)), replyTo);
    if (!saved.result) return chat.reply(t.schedule.saveFailed(escapeHtml(`${MAX_SCHEDULES} schedules at most`)), replyTo);
    log.info({ id: schedule.id, directory, when: schedule.when, next: schedule.next }, "schedule made from the phone");
    schedules.changed();
    await chat.reply(renderScheduleCreated(schedule, now, t), replyTo);
  }

  /** This bot's and chat's schedules, or why there are none to show. */
  #mine(): { views: Schedule[] } | { refused: string } {
    const { schedules, chatId } = this.#deps;
    if (!schedules) return { views: [] };
    const read = schedules.store.read();
    if (!read.ok) return { refused: read.refused };
    return { views: read.schedules.filter((schedule) => schedule.bot === schedules.bot && schedule.chatId === chatId) };
  }

  async #list(replyTo: number): Promise<void> {
    const { t, chat } = this.#deps;
    const mine = this.#mine();
    if ("refused" in mine) return chat.reply(t.schedule.off(escapeWithin(mine.refused, 300)), replyTo);
    const sent = await this.#send(this.#render(mine.views), replyTo);
    if (sent) this.#remember(sent.messageId, sent.list, sent.rich);
  }

  async #cancel(intent: ActingTap, id: string, confirmed: boolean): Promise<void> {
    const { t, chat, schedules } = this.#deps;
    if (!schedules || intent.messageId === undefined) return chat.answerCallback(intent.id, t.schedule.gone);
    if (!confirmed) {
      const mine = this.#mine();
      const known = "views" in mine && mine.views.some((schedule) => schedule.id === id);
      await chat.answerCallback(intent.id, known ? t.schedule.confirmHint : t.schedule.gone);
      return this.#showList(intent.messageId, known ? id : undefined);
    }
    const chatId = this.#deps.chatId;
    const removed = await schedules.store.update((list) => {
      const kept = list.filter((schedule) => !(schedule.id === id && schedule.bot === schedules.bot && schedule.chatId === chatId));
      return kept.length === list.length ? { schedules: list, result: false } : { schedules: kept, result: true };
    });
    const done = removed.ok && removed.result;
    if (done) {
      this.#deps.log.info({ id }, "schedule cancelled from the phone");
      schedules.changed();
    }
    await chat.answerCallback(intent.id, done ? t.schedule.cancelled : t.schedule.gone);
    await this.#showList(intent.messageId);
  }

  /**
   * The list message, redrawn from the file as it is now. A redraw is never dropped: when the edit
   * fails (Telegram refused it, or it ran out of tries in a busy group), the list goes out as a new
   * message, and the old one is no longer the list this process keeps up to date.
   */
  async #showList(messageId: number, confirming?: string): Promise<void> {
    const { chatId, outbox, t, chat, log } = this.#deps;
    const mine = this.#mine();
    if (chatId === undefined) return;
    if ("refused" in mine) return void (await chat.send(t.schedule.off(escapeWithin(mine.refused, 300)), {}, Priority.Answer, NOT_ANSWERED));
    const list = this.#render(mine.views, confirming);
    const was = this.#shown.get(messageId);
    if (was?.key === JSON.stringify(list)) return;
    const rich = was?.rich === true && list.rich !== undefined;
    this.#remember(messageId, list, rich);
    const failed = await outbox
      .edit(chatId, messageId, () => () => editRichOrHtml(this.#deps, { chatId, messageId, rich }, list), Priority.Answer)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    if (failed === undefined) return;
    this.#shown.delete(messageId);
    log.warn({ err: errorText(failed), messageId }, "the schedules list could not be edited; sent again as a new message");
    const sent = await this.#send(list, undefined);
    if (sent) this.#remember(sent.messageId, sent.list, sent.rich);
  }

  /** The list, its rich form too where the client has rich messages (a table). */
  #render(views: readonly ScheduleView[], confirming?: string): RenderedMessage & { rich?: RichHtml | undefined } {
    const { telegram, t } = this.#deps;
    const list = renderScheduleList(views, this.#deps.now(), t, confirming);
    return telegram.sendRichMessage ? { ...list, rich: renderScheduleListRich(views, this.#deps.now(), t) } : list;
  }

  /** A new list message, rich when it can be (rich-send.ts); what it shows, as HTML when it went so. */
  async #send(
    list: RenderedMessage & { rich?: RichHtml | undefined },
    replyTo: number | undefined,
  ): Promise<{ messageId: number; list: typeof list; rich: boolean } | undefined> {
    const { chatId, outbox, log } = this.#deps;
    if (chatId === undefined) return undefined;
    const options = { keyboard: list.keyboard, ...(replyTo !== undefined ? { replyTo } : {}) };
    const sent = await outbox
      .send(chatId, () => () => sendRichOrHtml(this.#deps, chatId, list, options, "the schedules list"), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, NOT_ANSWERED));
    return sent ? { messageId: sent.messageId, list, rich: sent.rich === true } : undefined;
  }

  #remember(messageId: number, list: RenderedMessage, rich: boolean): void {
    this.#shown.delete(messageId);
    this.#shown.set(messageId, { key: JSON.stringify(list), rich });
    if (this.#shown.size > SHOWN_LIMIT) this.#shown.delete(this.#shown.keys().next().value!);
  }
}

function parse(name: string, args: string, now: number): Parsed {
  return name === "at" ? parseAt(args) : parseEvery(args, now);
}
