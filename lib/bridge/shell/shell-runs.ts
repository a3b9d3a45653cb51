// `!command` from the phone (issue 53, docs/phone.md): as a reply to a session's message (or in its
// topic) it runs in that session's directory through OpenCode's own shell route, so it lands in the
// session's history as a shell call typed at the desk does; never through a shell of Hermes' own.
// Before it runs, the permissions' risk flags read it: an unflagged command runs at once, a flagged
// one waits for Run (red) or Cancel. Refused while the session works, with HERMES_SHELL=off, and
// where the version has no shell route. The answer: the command as OpenCode ran it, its exit status,
// the last lines of its output, and the whole output as output.txt when they leave some out. A
// pending command's key lives in the process that asked: a tap elsewhere is not claimed.
import os from "node:os";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import { newPromptKey, type MessageOwner, type Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { bangCommand, flagShellCommand } from "../../shell/bang.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { renderShellAsk, renderShellCancelled, renderShellFailed, renderShellResult, renderShellRunning } from "../../telegram/render/render-shell.ts";
import type { Html } from "../../text/html.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { SessionPosts } from "../core/session-posts.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface ShellDeps {
  t: Strings;
  log: Logger;
  registry: Pick<Registry, "ownerOf" | "inputFor">;
  topics: Pick<SessionTopics, "ownerOf">;
  links: Pick<InstanceLinks, "linkFor">;
  chat: Pick<Chat, "answerCallback">;
  activity: Pick<ActivityTracker, "isBusy">;
  posts: SessionPosts;
  /** HERMES_SHELL: false refuses every `!command`. */
  enabled: boolean;
  /** After this long the running message says the command still runs. */
  longAfterMs?: number;
}

/** Commands waiting for Run or Cancel; the oldest go. */
const PENDING_LIMIT = 50;
const LONG_AFTER_MS = 60_000;

interface PendingCommand {
  owner: MessageOwner;
  command: string;
  message?: MessageRef;
}

export class ShellRuns {
  readonly #deps: ShellDeps;
  readonly #pending = new Map<string, PendingCommand>();
  /** Sessions with a command of the phone's running (one at a time each). */
  readonly #running = new Set<string>();
  /** Stop's key on a command running for over a minute → its session. */
  readonly #stoppable = new Map<string, MessageOwner>();

  constructor(deps: ShellDeps) {
    this.#deps = deps;
  }

  claimText(intent: ActingText): Claim | undefined {
    const command = bangCommand(intent.text);
    if (command === undefined || intent.from.chatId === undefined) return undefined;
    const replyTo = intent.replyTo === undefined ? undefined : { chatId: intent.from.chatId, messageId: intent.replyTo };
    if (replyTo && this.#deps.registry.inputFor(replyTo)) return undefined; // an awaited answer stays one
    const owner =
      (replyTo ? this.#deps.registry.ownerOf(replyTo) : undefined) ?? (intent.threadId !== undefined ? this.#deps.topics.ownerOf(intent.threadId) : undefined);
    if (!owner || !this.#deps.links.linkFor(owner.directory)) return undefined;
    return () => this.#ask(owner, command, intent.messageId);
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action === "shellStop") {
      const owner = this.#stoppable.get(data.key);
      if (!owner) return undefined;
      return async () => {
        const { chat, t, links, log } = this.#deps;
        await chat.answerCallback(intent.id, t.shell.stopping);
        const outcome = await links.linkFor(owner.directory)?.opencode.desk?.stopShell?.(owner.sessionID);
        log.info({ sessionID: owner.sessionID, outcome }, "a shell command from the phone stopped");
      };
    }
    if (data?.action !== "shellRun" && data?.action !== "shellCancel") return undefined;
    const pending = this.#pending.get(data.key);
    if (!pending) return undefined;
    return async () => {
      const { chat, t, posts } = this.#deps;
      if (!this.#pending.delete(data.key)) return chat.answerCallback(intent.id, t.shell.stale);
      if (data.action === "shellCancel") {
        await chat.answerCallback(intent.id, t.shell.cancelling);
        if (pending.message) await posts.edit(pending.message, renderShellCancelled(pending.command, t));
        return;
      }
      await chat.answerCallback(intent.id, t.shell.starting);
      await this.#run(pending.owner, pending.command, pending.message?.messageId ?? intent.messageId ?? 0, pending.message);
    };
  }

  async #ask(owner: MessageOwner, command: string, replyTo: number): Promise<void> {
    const { t, posts } = this.#deps;
    const refusal = this.#refusal(owner);
    if (refusal) return void (await posts.post({ text: refusal }, { owner, replyTo }));
    const flags = await flagShellCommand(command, { directory: owner.directory, home: os.homedir() });
    this.#deps.log.info({ sessionID: owner.sessionID, flags: flags.map((flag) => flag.category) }, "a shell command from the phone");
    if (flags.length === 0) return this.#run(owner, command, replyTo);
    const key = newPromptKey();
    const pending: PendingCommand = { owner, command };
    this.#pending.set(key, pending);
    if (this.#pending.size > PENDING_LIMIT) this.#pending.delete(this.#pending.keys().next().value!);
    const sent = await posts.post(renderShellAsk(command, flags, key, t), { owner, replyTo });
    if (sent) pending.message = { chatId: sent.chatId, messageId: sent.messageId };
  }

  /** Why a command is not run now, if it is not. */
  #refusal(owner: MessageOwner): Html | undefined {
    const { t, links, activity, enabled } = this.#deps;
    if (!enabled) return t.shell.off;
    if (!links.linkFor(owner.directory)?.opencode.desk?.shell) return t.shell.noRoute;
    if (activity.isBusy(owner.sessionID) || this.#running.has(owner.sessionID)) return t.shell.busy;
    return undefined;
  }

  /** Runs it, showing it run in `message` (the question it answers) or a new message replying to `replyTo`. */
  async #run(owner: MessageOwner, command: string, replyTo: number, message?: MessageRef): Promise<void> {
    const { t, posts, log, links } = this.#deps;
    const refusal = this.#refusal(owner);
    const desk = links.linkFor(owner.directory)?.opencode.desk;
    if (refusal || !desk?.shell) {
      const text = refusal ?? t.shell.noRoute;
      return void (message ? await posts.edit(message, { text }) : await posts.post({ text }, { owner, replyTo }));
    }
    this.#running.add(owner.sessionID);
    let shown = message;
    let long: ReturnType<typeof setTimeout> | undefined;
    let cleanup = () => undefined as unknown;
    try {
      const running = renderShellRunning(command, t);
      if (shown) await posts.edit(shown, running);
      else shown = await posts.post(running, { owner, replyTo });
      const stopKey = desk.stopShell ? newPromptKey() : undefined;
      long = setTimeout(() => {
        if (stopKey) this.#stoppable.set(stopKey, owner);
        if (shown) void posts.edit(shown, renderShellRunning(command, t, true, stopKey));
      }, this.#deps.longAfterMs ?? LONG_AFTER_MS);
      cleanup = () => stopKey && this.#stoppable.delete(stopKey);
      long.unref?.();
      const result = await desk.shell(owner.sessionID, command);
      clearTimeout(long);
      log.info({ sessionID: owner.sessionID, ok: result.ok, ...(result.ok ? { exit: result.exit } : {}) }, "a shell command from the phone ended");
      if (result.ok) {
        const { message: answer, file } = renderShellResult(result, t);
        const at = await this.#show(shown, answer, owner, replyTo);
        if (file && at) await posts.document("output.txt", result.output, t.shell.outputCaption, { owner, replyTo: at.messageId });
        return;
      }
      const text = result.busy ? t.shell.busy : result.gone ? t.shell.gone : renderShellFailed(command, result.error, t).text;
      await this.#show(shown, { text }, owner, replyTo);
    } finally {
      clearTimeout(long);
      cleanup();
      this.#running.delete(owner.sessionID);
    }
  }

  async #show(shown: MessageRef | undefined, answer: { text: Html }, owner: MessageOwner, replyTo: number): Promise<MessageRef | undefined> {
    if (shown) {
      await this.#deps.posts.edit(shown, answer);
      return shown;
    }
    return this.#deps.posts.post(answer, { owner, replyTo });
  }
}
