// Risk flags and "Allow in this session" on the phone (issue 42). Reads each permission request's
// flags before it is delivered (lib/bridge/prompts/prompt-life.ts asks, through PermissionJudge), keeps the session
// rules an Allow-in-this-session tap makes (in memory only, lib/approvals/session-rules.ts), shows
// every request a rule answered on its run's progress message and counts it for the Done notice,
// and lists this process' rules on /status, each with Revoke. A session's rules go with it.
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { judgePermission } from "../../approvals/permission-flags.ts";
import { commandOf, fileOf } from "../../approvals/permission-subject.ts";
import type { RiskFlag } from "../../approvals/risk.ts";
import { scopeOf, scopeWords, type ShownScope } from "../../approvals/rule-scope.ts";
import { SessionRules, type SessionRule } from "../../approvals/session-rules.ts";
import { ToolCommands } from "../../approvals/tool-commands.ts";
import { errorText } from "../../util/error-text.ts";
import type { HermesEvent, ToolStep } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { renderRules } from "../../telegram/render/render-approvals.ts";
import { headAndTail } from "../../telegram/render/render-permission.ts";
import { escapeWithin, type Html } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap } from "../core/gate.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { PermissionJudge } from "../prompts/permission-judge.ts";

export interface SessionAllowDeps {
  registry: Registry;
  chat: Pick<Chat, "send" | "answerCallback">;
  telegram: Pick<TelegramApi, "editMessage">;
  outbox: Pick<Outbox, "edit">;
  log: Logger;
  t: Strings;
  /** The run's progress message, where each auto-answer is shown (live-progress.ts); false (or nothing) when there is none. */
  progress: { note(sessionID: string, html: Html): boolean | undefined };
  /** Where a line goes when there is no progress message (HERMES_PROGRESS=off): the session's topic, if any. */
  topics: Pick<SessionTopics, "threadOf">;
  /** The user's home, for `~` in commands (the process' own by default). */
  home?: string;
}

/** How long a request that sends only its parts waits for its tool call's input (the whole line). */
const CALL_WAIT_MS = 1_500;
/** Escaped length of the command or file an auto-answer line shows. */
const SHOWN_LIMIT = 200;

export class SessionAllow implements PermissionJudge {
  readonly #deps: SessionAllowDeps;
  readonly #rules = new SessionRules();
  readonly #toolCommands = new ToolCommands();
  /** Requests each root session's current run had answered by a rule (for its Done notice). */
  readonly #answered = new Map<string, number>();

  constructor(deps: SessionAllowDeps) {
    this.#deps = deps;
  }

  /** A run's tool step: a shell call's command is kept for the permission it may ask (its whole line). */
  noteTool(step: ToolStep): void {
    this.#toolCommands.note(step);
  }

  async flag(prompt: PermissionPrompt): Promise<RiskFlag[]> {
    const place = { directory: prompt.directory, home: this.#deps.home ?? homedir() };
    await this.#toolCommands.awaitCall(prompt.request, CALL_WAIT_MS);
    const line = this.#toolCommands.lineOf(prompt.request);
    // The phone shows the whole line too (1.1.53 and 2.0.15 send only its parts).
    if (line?.whole && commandOf(prompt.request) !== line.text && ["bash", "shell"].includes(prompt.request.permission)) {
      const { partial: _parts, ...request } = prompt.request;
      prompt.request = { ...request, metadata: { ...request.metadata, command: line.text } };
    }
    try {
      const judged = await judgePermission(prompt.request, place, line);
      prompt.subject = judged.subject;
      const scope = scopeOf(judged.subject);
      if (scope) prompt.ruleScope = scope;
      return judged.flags;
    } catch (error) {
      this.#deps.log.warn({ err: errorText(error), requestID: prompt.requestID }, "could not read a permission request's risks");
      return [{ category: "unreadable", part: commandOf(prompt.request) ?? fileOf(prompt.request) ?? prompt.request.permission }];
    }
  }

  covering(prompt: PermissionPrompt): SessionRule | undefined {
    if (prompt.flags === undefined || prompt.flags.length > 0 || prompt.subject === undefined) return undefined;
    return this.#rules.covering(this.#rootOf(prompt.sessionID), prompt.request.permission, prompt.subject);
  }

  /** What a rule made of this request would cover, in words; undefined: none may be made. */
  scopeFor(prompt: PermissionPrompt): ShownScope[] | undefined {
    return prompt.ruleScope && (prompt.flags?.length ?? 1) === 0 ? scopeWords(prompt.ruleScope, prompt.directory) : undefined;
  }

  /** OpenCode took the "once" of an Allow-in-this-session tap: the rule is made (or the same one kept). */
  keep(prompt: PermissionPrompt): SessionRule | undefined {
    const cover = prompt.ruleScope;
    if (!cover || (prompt.flags?.length ?? 1) > 0) return undefined;
    const root = this.#rootOf(prompt.sessionID);
    const scope = scopeWords(cover, prompt.directory);
    const key = randomBytes(6).toString("hex");
    const rule = this.#rules.add({ key, sessionID: root, directory: prompt.directory, permission: prompt.request.permission, cover, scope });
    if (rule.key === key) this.#deps.log.info({ sessionID: root, permission: prompt.request.permission, scope }, "session rule made from the phone");
    return rule;
  }

  drop(rule: SessionRule): void {
    if (this.#rules.revoke(rule.key))
      this.#deps.log.info({ sessionID: rule.sessionID, permission: rule.permission }, "session rule dropped: its request ended as reject");
  }

  answered(prompt: PermissionPrompt, rule: SessionRule): void {
    rule.used += 1;
    const root = this.#rootOf(prompt.sessionID);
    this.#answered.set(root, (this.#answered.get(root) ?? 0) + 1);
    const { t } = this.#deps;
    const what = commandOf(prompt.request) ?? fileOf(prompt.request) ?? prompt.request.patterns.join(" ");
    // Its start and its end, as prompts show a long command: the end is where a payload hides.
    const line = t.approvals.autoAllowed(escapeWithin(reveal(prompt.request.permission, t), 40), headAndTail(reveal(what, t), SHOWN_LIMIT, " ", t).html);
    // Without a progress message (HERMES_PROGRESS=off) the line comes on its own, silently: an auto-answer is never unseen.
    if (!this.#deps.progress.note(root, line)) void this.#postSilently(root, prompt.directory, line);
  }

  async #postSilently(sessionID: string, directory: string, line: Html): Promise<void> {
    const threadId = await this.#deps.topics.threadOf(sessionID, directory).catch(() => undefined);
    await this.#deps.chat.send(
      line,
      { silent: true, ...(threadId !== undefined ? { threadId } : {}) },
      Priority.Progress,
      "could not show a request a session rule answered",
    );
  }

  /** How many requests rules answered in the session's run (the Done notice takes it: counting starts again). */
  takeAnswered(sessionID: string): number {
    const root = this.#rootOf(sessionID);
    const count = this.#answered.get(root) ?? 0;
    this.#answered.delete(root);
    return count;
  }

  observe(event: HermesEvent): void {
    if (event.type === "session.deleted") {
      this.#rules.forget((rule) => rule.sessionID === event.sessionID);
      this.#answered.delete(event.sessionID);
    }
  }

  /** /status: this process' rules, each with Revoke, in reply (nothing when it has none). */
  async offer(replyTo: number): Promise<void> {
    const rules = this.#rules.list();
    if (rules.length === 0) return;
    const rendered = renderRules(rules, (sessionID) => this.#deps.registry.sessions.title(sessionID), this.#deps.t);
    await this.#deps.chat.send(rendered.text, { keyboard: rendered.keyboard, replyTo }, Priority.Answer, "could not list the session rules");
  }

  /** A Revoke tap on a rule of this process. */
  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "revoke" || !this.#rules.list().some((rule) => rule.key === data.key)) return undefined;
    return async () => {
      const rule = this.#rules.revoke(data.key);
      this.#deps.log.info({ sessionID: rule?.sessionID, permission: rule?.permission }, "session rule revoked from the phone");
      await this.#deps.chat.answerCallback(intent.id, rule ? this.#deps.t.approvals.revoked : this.#deps.t.approvals.ruleGone);
      if (rule) await this.#refreshList(intent);
    };
  }

  /** A Revoke nobody claimed: the rule is gone (its process ended, or revoked already). */
  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    if (decodeCallback(intent.data)?.action !== "revoke") return undefined;
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.approvals.ruleGone);
  }

  /** The tapped list shows the rules left (another process' list is its own message). */
  async #refreshList(intent: ActingTap): Promise<void> {
    const { chatId } = intent.from;
    const messageId = intent.messageId;
    if (chatId === undefined || messageId === undefined) return;
    const { outbox, telegram, registry, t, log } = this.#deps;
    const rendered = renderRules(this.#rules.list(), (sessionID) => registry.sessions.title(sessionID), t);
    await outbox
      .edit(chatId, messageId, () => () => telegram.editMessage(chatId, messageId, rendered.text, rendered.keyboard))
      .catch((error) => log.warn({ err: errorText(error) }, "could not update the list of session rules"));
  }

  #rootOf(sessionID: string): string {
    return this.#deps.registry.sessions.rootOf(sessionID);
  }
}
