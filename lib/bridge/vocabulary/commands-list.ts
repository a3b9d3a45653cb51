// /commands (issue 43): as a reply to a session's message (or in its topic), the commands OpenCode
// offers for that session's project, a page at a time, a button each; a tap shows what the command
// sends (its template, and each `` !`…` `` shell line OpenCode runs first with its risk flags, issue
// 49) with a Run button that runs it in that session through OpenCode's command route (as typing
// `/review` in the terminal does); `/<name> <arguments>` typed as such a reply runs it with
// arguments, after the same preview when its template has shell lines. A name that is also
// Hermes's stays Hermes's when typed; its button still runs OpenCode's.
import os from "node:os";
import type { MessageOwner } from "../../registry/registry.ts";
import { KeyedLists } from "../../registry/keyed-lists.ts";
import { errorText } from "../../util/error-text.ts";
import type { CallbackData, VocabularyAction } from "../../telegram/codec.ts";
import { escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { type FlaggedLine, renderCommandPreview, renderCommands, type CommandView } from "../../telegram/render/render-vocabulary.ts";
import type { Tap } from "../core/desk.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import type { VocabularyDesk } from "./vocabulary-desk.ts";

interface Listing {
  owner: MessageOwner;
  commands: CommandView[];
  page: number;
  /** A typed `/name arguments` waiting for its Run tap: the arguments and the message. */
  typed?: { args: string; message: UserMessage; sent?: boolean };
}

/** A template's shell lines with their flags (lib/bridge/shell/template-flags.ts, given by lib/bridge/bridge.ts). */
export type FlagTemplate = (template: string, args: string, place: { directory: string; home: string }) => Promise<FlaggedLine[]>;

export class CommandsList {
  readonly #posts: VocabularyDesk;
  readonly #hermes: ReadonlySet<string>;
  readonly #lists = new KeyedLists<Listing>();
  /** A command's run is the phone's: its Done notice comes, as for a prompt from the phone. */
  readonly #runs: Pick<TalkBack, "acknowledge" | "activity">;
  readonly #flag: FlagTemplate;

  constructor(posts: VocabularyDesk, hermes: ReadonlySet<string>, runs: Pick<TalkBack, "acknowledge" | "activity">, flag: FlagTemplate) {
    this.#posts = posts;
    this.#hermes = hermes;
    this.#runs = runs;
    this.#flag = flag;
  }

  owns(data: CallbackData): boolean {
    return (data.action === "commandRun" || data.action === "commandPage" || data.action === "commandSend") && this.#lists.get(data.key) !== undefined;
  }

  /** The list, in reply to `replyTo`. */
  async offer(owner: MessageOwner, replyTo: number): Promise<void> {
    const { t } = this.#posts.deps;
    const commands = await this.#commands(owner);
    if (typeof commands === "string") return void (await this.#posts.post(owner, commands, [], replyTo));
    const listing: Listing = { owner, commands, page: 0 };
    const key = this.#lists.add(listing);
    const rendered = renderCommands(commands, projectName(owner.directory), key, 0, this.#hermes, t);
    await this.#posts.post(owner, rendered.text, rendered.keyboard, replyTo);
  }

  /** `/<name> <arguments>` as a reply: runs OpenCode's command of that name, or, when there is none, `otherwise` (the text goes as a prompt). */
  async typed(owner: MessageOwner, name: string, args: string, userMessage: UserMessage, otherwise: () => Promise<void>): Promise<void> {
    const commands = await this.#commands(owner);
    const found = typeof commands === "string" ? undefined : commands.find((command) => command.name.toLowerCase() === name.toLowerCase());
    if (!found) return otherwise();
    // Typed knowingly, it runs at once, unless its template runs shell lines (those are shown first)
    // or Hermes cannot be sure what it runs (2.0.15: it asks first, saying so).
    const lines = await this.#lines(owner, found, args);
    if (lines.length === 0 && !found.unsure) return this.#run(owner, found.name, args, userMessage.messageId, userMessage);
    const key = this.#lists.add({ owner, commands: [found], page: 0, typed: { args, message: userMessage } });
    await this.#preview(owner, found, args, key, 0, userMessage.messageId, lines);
  }

  tap(data: CallbackData<VocabularyAction>, message: { chatId: number; messageId: number } | undefined): Tap {
    const listing = this.#lists.get(data.key)!;
    if (data.action === "commandPage") {
      if (!message || listing.page === data.question) return { ok: true, note: () => "" };
      listing.page = data.question;
      const rendered = renderCommands(listing.commands, projectName(listing.owner.directory), data.key, data.question, this.#hermes, this.#posts.deps.t);
      return { ok: true, note: () => "", next: () => this.#posts.edit(message, rendered.text, rendered.keyboard) };
    }
    const command = listing.commands[data.question];
    if (!command) return { ok: false, note: (t) => t.vocabulary.history.gone, alert: true };
    if (data.action === "commandRun")
      return {
        ok: true,
        note: (t) => t.vocabulary.commands.tapRun,
        next: () => this.#preview(listing.owner, command, "", data.key, data.question, message?.messageId),
      };
    const typed = listing.typed;
    if (typed?.sent) return { ok: false, note: (t) => t.vocabulary.commands.running, alert: true }; // one Run per typed command
    if (typed) typed.sent = true;
    return {
      ok: true,
      note: (t) => t.vocabulary.commands.running,
      next: () => this.#run(listing.owner, command.name, typed?.args ?? "", typed?.message.messageId ?? message?.messageId, typed?.message),
    };
  }

  /** What `command` sends, its shell lines with their flags, and Run (in reply to `replyTo`). */
  async #preview(
    owner: MessageOwner,
    command: CommandView,
    args: string,
    key: string,
    index: number,
    replyTo: number | undefined,
    known?: FlaggedLine[],
  ): Promise<void> {
    const lines = known ?? (await this.#lines(owner, command, args));
    const rendered = renderCommandPreview(command, args, lines, this.#posts.titleOf(owner), key, index, this.#posts.deps.t);
    await this.#posts.post(owner, rendered.text, rendered.keyboard, replyTo);
  }

  /**
   * The shell lines with their flags of the text OpenCode makes of the template and the arguments
   * (lib/shell/command-template.ts), of every definition shown (2.0.15's `others`), once each; of the
   * arguments alone when the template is unknown.
   */
  async #lines(owner: MessageOwner, command: CommandView, args: string): Promise<FlaggedLine[]> {
    const templates = [...(command.template !== undefined ? [command.template] : []), ...(command.others ?? [])];
    if (templates.length === 0 && args !== "") templates.push("");
    const place = { directory: owner.directory, home: os.homedir() };
    const flagged = await Promise.all(templates.map((template) => this.#flag(template, args, place)));
    const seen = new Set<string>();
    return flagged.flat().filter((line) => !seen.has(line.line) && seen.add(line.line));
  }

  /** The project's commands, or why they cannot be listed. */
  async #commands(owner: MessageOwner): Promise<CommandView[] | Html> {
    const { t, log } = this.#posts.deps;
    const route = this.#posts.route(owner, "listCommands", "commands");
    if ("refusal" in route) return route.refusal;
    try {
      return await route.call();
    } catch (error) {
      log.warn({ err: errorText(error) }, "could not list OpenCode's commands");
      return t.vocabulary.failed(escapeWithin(errorText(error), 300));
    }
  }

  /** `typed`: the user's `/name args` message (👍 on it, as on any text that reached the session); a tap gets a message saying it was sent. */
  async #run(owner: MessageOwner, name: string, args: string, replyTo: number | undefined, typed?: UserMessage): Promise<void> {
    const { t, log, activity } = this.#posts.deps;
    const route = this.#posts.route(owner, "runCommand", "command");
    if ("refusal" in route) return void (await this.#posts.post(owner, route.refusal, [], replyTo));
    const busy = activity.isBusy(owner.sessionID);
    // Before the call: OpenCode 1.x answers a command only when its run is over.
    this.#runs.activity.markFromPhone(owner.sessionID);
    const outcome = await route.call(owner.sessionID, name, args);
    log.info({ sessionID: owner.sessionID, command: name, ok: outcome.ok }, "OpenCode command run from the phone");
    if (outcome.ok && typed) return this.#runs.acknowledge(owner, typed, busy);
    const text = outcome.ok
      ? t.vocabulary.commands.ran(escapeWithin(name, 40), this.#posts.titleOf(owner))
      : outcome.gone
        ? html`⚠️ ${escapeHtml(t.talk.sessionGone)}`
        : t.vocabulary.failed(escapeWithin(outcome.error, 300));
    await this.#posts.post(owner, text, [], replyTo);
  }
}
