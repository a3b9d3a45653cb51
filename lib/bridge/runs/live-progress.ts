// The live progress message of each run this process reports (one per root session; sub-agents'
// steps show in their root's message): sent silently for a run the phone started as soon as it has
// something to show (its first step or todo list) or after FIRST_SHOW_MS, whichever is first (never
// a message that says only "0 steps", and one edit less of a group's budget), and for any other run
// once it has worked longer than the Done threshold; edited in place as its todos and
// steps change; one last edit when the run ends (a short line, no Stop). The state is the pure
// reducer's (lib/progress/run-progress.ts), the text the renderer's (lib/telegram/render/render-progress.ts, loaded
// on first use); when a call goes out is the outbox's: spare budget only, the latest state wins.
// This file never waits or counts messages itself.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import { endProgress, hasSomethingToShow, reduceProgress, startProgress, type RunEnd, type RunProgress, type StepView } from "../../progress/run-progress.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { errorText } from "../../util/error-text.ts";
import { Priority, type Outbox, type UpdateOptions } from "../../telegram/wire/outbox.ts";
import type { Html } from "../../text/html.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { inThread } from "../core/chat.ts";
import type { StopControl } from "./stop-control.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { RunCosts } from "./run-costs.ts";

export interface LiveProgressDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured yet (nothing is posted). */
  chatId: number | undefined;
  now: () => number;
  stops: Pick<StopControl, "buttonFor">;
  /** Whether a run ending now was stopped (from the phone, before OpenCode reports the abort). */
  activity: Pick<ActivityTracker, "endsEarly">;
  /** A run not started from the phone gets its message once it has worked this long (HERMES_DONE_AFTER). */
  startAfterMs: number;
  /** How full each run's context is (shown beside the clock). */
  costs?: Pick<RunCosts, "context">;
  /** The run's budget beside its cost ("💰 $0.12 of $2.00", issue 42). */
  budget?: { line(sessionID: string): Html | undefined };
}

interface Run {
  /** Part of the outbox key: a new run of the session never replaces what an ended one still has queued. */
  seq: number;
  owner: MessageOwner;
  state: RunProgress;
  /** Lines about the run that are no step (a request a session rule answered), newest last. */
  notes?: Html[];
  /** Decided to be shown: sent, or queued to be. */
  shown: boolean;
  /** The phone started it: shown as soon as it has something to show (see FIRST_SHOW_MS). */
  fromPhone?: true;
  threadId?: number;
  replyTo?: number;
  message?: { chatId: number; messageId: number };
  /** The body (and buttons) the message has now. */
  showing?: string;
  /** The running calls the message has shown, with what they act on once known (`sightOf`; their first sight is awaited, not spare: issue 50). */
  seenRunning?: Set<string>;
  /** How the run is ending, from an error before its idle. */
  ending?: RunEnd;
  /** The answer's last lines as they are written (HTML, answer-stream.ts), when they show here. */
  answer?: Html;
  timer?: ReturnType<typeof setTimeout>;
}

type Renderer = typeof import("../../telegram/render/render-progress.ts");

const ABORTED = "MessageAbortedError";
/** A run the phone started and that shows nothing yet (no step, no todo list) gets its message after this long anyway. */
export const FIRST_SHOW_MS = 3_000;
/** Notes shown on a progress message (the newest). */
const NOTES_KEPT = 3;

export class LiveProgress {
  readonly #deps: LiveProgressDeps;
  readonly #runs = new Map<string, Run>();
  #seq = 0;
  #renderer?: Promise<Renderer>;

  constructor(deps: LiveProgressDeps) {
    this.#deps = deps;
  }

  observe(directory: string, event: HermesEvent): void {
    const { registry } = this.#deps;
    switch (event.type) {
      case "todo.updated":
      case "tool.step": {
        const root = registry.sessions.rootOf(event.sessionID);
        const run = this.#runs.get(root);
        if (!run) return; // OpenCode says busy before a run's first step: a step without a run is a late one
        const next = reduceProgress(run.state, event, root !== event.sessionID);
        if (next === run.state) return;
        run.state = next;
        if (run.shown) void this.#flush(run, Priority.Progress);
        else if (run.fromPhone) {
          if (hasSomethingToShow(next)) void this.#show(run, Priority.Answer);
        } else if (this.#deps.now() - run.state.startedAt >= this.#deps.startAfterMs) void this.#show(run, Priority.Progress);
        return;
      }
      case "session.status":
        if (event.status === "idle") return void this.#end(event.sessionID);
        if (registry.sessions.rootOf(event.sessionID) === event.sessionID && !this.#runs.has(event.sessionID)) this.#begin(event.sessionID, directory);
        return;
      case "session.error": {
        const run = this.#runs.get(event.sessionID);
        if (run) run.ending = event.name === ABORTED ? "stopped" : event.limit ? "paused" : "failed";
        return;
      }
      case "session.idle":
        return void this.#end(event.sessionID);
      case "session.deleted": {
        const run = this.#runs.get(event.sessionID);
        if (run) this.#forget(run);
        return;
      }
      case "instance.disposed":
        for (const run of [...this.#runs.values()]) if (run.owner.directory === event.directory) this.#end(run.owner.sessionID, "stopped");
        return;
      default:
        return;
    }
  }

  /**
   * A message from the phone started a run: its progress message, replying to it, goes out as soon
   * as the run has something to show, or after FIRST_SHOW_MS. It is the answer to the user's own
   * message (what the Running notice was): it goes in the answers' lane, right after prompts.
   */
  startFromPhone(owner: MessageOwner, replyTo: number | undefined, threadId: number | undefined): Promise<void> {
    const root = this.#deps.registry.sessions.rootOf(owner.sessionID);
    const existing = this.#runs.get(root);
    const run = existing && !existing.state.ended ? existing : this.#begin(root, owner.directory);
    if (replyTo !== undefined) run.replyTo ??= replyTo;
    if (threadId !== undefined) run.threadId ??= threadId;
    if (run.shown) return Promise.resolve();
    run.fromPhone = true;
    if (hasSomethingToShow(run.state)) return this.#show(run, Priority.Answer);
    clearTimeout(run.timer);
    run.timer = setTimeout(() => {
      if (!run.shown && this.#runs.get(root) === run) void this.#show(run, Priority.Answer);
    }, FIRST_SHOW_MS);
    run.timer.unref?.();
    return Promise.resolve();
  }

  /** The session's run, if one is going and not shown yet, gets its message now (the phone queued a message behind it). */
  showNow(sessionID: string): Promise<void> {
    const run = this.#runs.get(this.#deps.registry.sessions.rootOf(sessionID));
    return run && !run.state.ended ? this.#show(run, Priority.Answer) : Promise.resolve();
  }

  /**
   * The answer's last lines (HTML) as it is written: a message already out shows them with spare
   * budget only, but may spend its key's last token (an answer is a run's last phase: no command's
   * first sight is expected to need it; a step's or a to-do tick's edit leaves it).
   */
  showAnswer(sessionID: string, html: Html): void {
    const run = this.#runs.get(this.#deps.registry.sessions.rootOf(sessionID));
    if (!run || run.state.ended || run.answer === html) return;
    run.answer = html;
    if (run.shown) void this.#flush(run, Priority.Progress, { lastToken: true });
  }

  /** A line about the session's run (already HTML): shown on its progress message, silently, the last few kept; false without a run to show it. */
  note(sessionID: string, html: Html): boolean {
    const run = this.#runs.get(this.#deps.registry.sessions.rootOf(sessionID));
    if (!run || run.state.ended) return false;
    run.notes = [...(run.notes ?? []), html].slice(-NOTES_KEPT);
    if (run.shown) void this.#flush(run, Priority.Progress);
    else void this.#show(run, Priority.Progress);
    return true;
  }

  /** Hermes is closing: every message still showing a run gets its last word (no Stop left behind). */
  closeAll(): Promise<void> {
    return Promise.all([...this.#runs.values()].map((run) => this.#end(run.owner.sessionID, "stopped"))).then(() => undefined);
  }

  stop(): void {
    for (const run of this.#runs.values()) clearTimeout(run.timer);
    this.#runs.clear();
  }

  #begin(root: string, directory: string): Run {
    const run: Run = { seq: ++this.#seq, owner: { sessionID: root, directory }, state: startProgress(this.#deps.now()), shown: false };
    this.#runs.set(root, run);
    this.#renderer ??= import("../../telegram/render/render-progress.ts");
    // A run that says nothing for a while (one long command) still gets its message.
    run.timer = setTimeout(() => {
      if (!run.shown && this.#runs.get(root) === run) void this.#show(run, Priority.Progress);
    }, this.#deps.startAfterMs);
    run.timer.unref?.();
    return run;
  }

  #end(sessionID: string, how?: RunEnd): Promise<void> {
    const run = this.#runs.get(sessionID);
    if (!run) return Promise.resolve();
    // OpenCode 1.1.53 reports a stop's abort only after the idle: the phone's stop is known before.
    const early = this.#deps.activity.endsEarly(sessionID) ? "stopped" : "done";
    run.state = endProgress(run.state, how ?? run.ending ?? early);
    this.#forget(run);
    // Only a message already out gets its last word; one still queued is not sent any more.
    return run.shown ? this.#flush(run, Priority.Edit) : Promise.resolve();
  }

  #forget(run: Run): void {
    clearTimeout(run.timer);
    if (this.#runs.get(run.owner.sessionID) === run) this.#runs.delete(run.owner.sessionID);
  }

  async #show(run: Run, priority: Priority): Promise<void> {
    if (run.shown || this.#deps.chatId === undefined) return;
    run.shown = true;
    clearTimeout(run.timer);
    try {
      run.threadId ??= await this.#deps.topics.threadOf(run.owner.sessionID, run.owner.directory);
    } catch (error) {
      this.#deps.log.warn({ err: errorText(error) }, "could not find the run's topic");
    }
    await this.#flush(run, priority);
  }

  /** Queues the run's latest state; what goes out is rendered when the outbox lets it go. */
  async #flush(run: Run, asked: Priority, options: UpdateOptions = {}): Promise<void> {
    const { outbox, telegram, chatId, log, registry } = this.#deps;
    if (chatId === undefined) return;
    // A command the message has not named yet is what its person looks for: ahead of spare traffic, with a notice's budget (still spaced).
    const priority = asked === Priority.Progress && this.#unseenRunning(run) ? Priority.Awaited : asked;
    const render = await this.#renderer!.catch((error) => {
      log.warn({ err: errorText(error) }, "could not load the progress renderer");
      return undefined;
    });
    if (!render) return;
    const rendered = () => {
      const context = { project: projectName(run.owner.directory), t: this.#deps.t, ...this.#title(run) };
      const stop = run.state.ended ? {} : { stop: this.#deps.stops.buttonFor(run.owner.sessionID, run.owner.directory) };
      const used = this.#deps.costs?.context(run.owner.sessionID);
      const budget = this.#deps.budget?.line(run.owner.sessionID);
      const extra = { ...(used ? { used } : {}), ...(budget ? { budget } : {}), ...(run.notes ? { notes: run.notes } : {}) };
      const answer = run.answer ? { answer: run.answer } : {};
      return render.renderProgress(run.state, this.#deps.now(), { ...context, ...stop, ...answer, ...extra });
    };
    await outbox
      .update(
        chatId,
        `progress:${run.seq}`,
        () => {
          const message = run.message;
          if (!message) {
            // Never a first message that is already the last: the Done notice says it.
            if (run.state.ended) return undefined;
            const { text, keyboard, body } = rendered();
            const options = { keyboard, silent: true, ...(run.replyTo !== undefined ? { replyTo: run.replyTo } : {}), ...inThread(run.threadId) };
            const running = run.state.running.map(sightOf);
            return async () => {
              const sent = await telegram.sendMessage(chatId, text, options);
              run.message = { chatId, messageId: sent.messageId };
              run.showing = signature(body, keyboard.length);
              this.#saw(run, running);
              // A reply to it reaches the session, as with any Hermes message.
              registry.noteMessage(run.message, run.owner);
            };
          }
          const { text, keyboard, body } = rendered();
          const next = signature(body, keyboard.length);
          if (next === run.showing) return undefined;
          const running = run.state.running.map(sightOf);
          return async () => {
            await telegram.editMessage(message.chatId, message.messageId, text, keyboard);
            run.showing = next;
            this.#saw(run, running);
          };
        },
        priority,
        options,
      )
      .catch((error) => log.warn({ err: errorText(error) }, "could not update a progress message"));
  }

  /**
   * Whether a running call's command is known and not shown yet. A call still pending (what it acts
   * on unknown) is spare: shown early it would spend its key's token that the sight of its command needs.
   */
  #unseenRunning(run: Run): boolean {
    return run.state.running.some((view) => view.target !== undefined && !run.seenRunning?.has(sightOf(view)));
  }

  /** The message now shows `running` (of them, only the calls still running are remembered). */
  #saw(run: Run, running: readonly string[]): void {
    const seen = new Set([...(run.seenRunning ?? []), ...running]);
    run.seenRunning = new Set(run.state.running.map(sightOf).filter((id) => seen.has(id)));
  }

  #title(run: Run): { sessionTitle?: string } {
    const title = this.#deps.registry.sessions.title(run.owner.sessionID);
    return title ? { sessionTitle: title } : {};
  }
}

/** A running call as the message shows it: a call shown before its command was known (pending) is not seen yet. */
function sightOf(view: StepView): string {
  return view.target ? `${view.callID}\n${JSON.stringify(view.target)}` : view.callID;
}

function signature(body: string, buttons: number): string {
  return `${buttons}\n${body}`;
}
