import { CATALOGS, type Strings } from "../i18n/catalog.ts";
import type { Logger } from "../system/log.ts";
import { ActivityTracker } from "../notices/activity.ts";
import { DEFAULT_NOTICES } from "../notices/policy.ts";
import type { Registry } from "../registry/registry.ts";
import type { Claim, UpdateHandler } from "../relay/update-handler.ts";
import type { HermesEvent } from "../hermes-events.ts";
import type { Intent } from "../telegram/wire/updates.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import { errorText } from "../util/error-text.ts";
import { Outbox } from "../telegram/wire/outbox.ts";
import { labelMessages } from "../telegram/render/machine-label.ts";
import { Chat } from "./core/chat.ts";
import { waitAtMost } from "../util/with-timeout.ts";
import type { InstanceLink } from "./core/desk.ts";
import { announceBot } from "./bot/bot-profile.ts";
import { Gate, type IntentOf, type Route } from "./core/gate.ts";
import type { BridgeOptions } from "./bridge-options.ts";
import { Commands } from "./bot/commands.ts";
import { QueueControl, routeRuns } from "./runs/runs-routes.ts";
import { TalkBack } from "./runs/talk-back.ts";
import { PromptTaps } from "./prompts/prompt-taps.ts";
import { routeSteering } from "./steering/steering-routes.ts";
import { routeSchedules } from "./schedules/schedules-routes.ts";
import { InstanceLinks } from "./core/instance-links.ts";
import { LiveProgress } from "./runs/live-progress.ts";
import { PromptChoices } from "./core/prompt-choices.ts";
import { PhoneFiles } from "./input/phone-files.ts";
import { AgentFiles, type AgentFileSent } from "./agent-tools/agent-files.ts";
import type { MessageOwner } from "../registry/registry.ts";
import type { OutgoingFile } from "../telegram/wire/api.ts";
import { PromptLife } from "./prompts/prompt-life.ts";
import { PromptMessages } from "./prompts/prompt-messages.ts";
import { ReplyConfirmation } from "./prompts/reply-confirmation.ts";
import { RunCosts } from "./runs/run-costs.ts";
import { RunNotices } from "./runs/run-notices.ts";
import { GitButtons } from "./git/git-routes.ts";
import { routeMcp } from "./mcp/mcp-routes.ts";
import { routeShell } from "./shell/shell-routes.ts";
import { VocabularyButtons } from "./vocabulary/vocabulary-routes.ts";
import { flagTemplate } from "./shell/template-flags.ts";
import { SessionTopics } from "./core/topics.ts";
import { StopControl } from "./runs/stop-control.ts";
import { TypedText } from "./input/typed-text.ts";
import { VoiceNotes } from "./input/voice-notes.ts";
import { SpokenAnswers } from "./runs/spoken-answers.ts";
import type { Html } from "../text/html.ts";
import { Approvals } from "./approvals/approvals-routes.ts";
import { Walkaway } from "./walkaway/walkaway-routes.ts";
import { DigestFeed } from "./walkaway/digest-feed.ts";
import { EventObservers } from "./event-observers.ts";

export type { InstanceLink } from "./core/desk.ts";
export type { BridgeOptions } from "./bridge-options.ts";

const DONE_GRACE_MS = 1_000;

export class Bridge implements UpdateHandler {
  readonly telegram: TelegramApi;
  readonly registry: Registry;
  readonly log: Logger;
  /** The configured chat; undefined before one is configured (then only /start is answered). */
  readonly chatId: number | undefined;
  readonly t: Strings;
  readonly #outbox: Outbox;
  readonly #gate: Gate;
  readonly #now: () => number;
  /** What the phone chose for its prompts (/model, /agent): every link adds it to every prompt. */
  readonly #choices = new PromptChoices();
  readonly #links = new InstanceLinks(() => this.#choices.choice());
  readonly #chat: Chat;
  readonly #topics: SessionTopics;
  readonly #prompts: PromptLife;
  readonly #typed: TypedText;
  readonly #runs: RunNotices;
  readonly #commands: Commands;
  readonly #files: PhoneFiles;
  readonly #agentFiles: AgentFiles;
  readonly #progress: LiveProgress | undefined;
  readonly #walkaway: Walkaway;
  readonly #queue: QueueControl;
  /** Where each of OpenCode's events goes, in order (event-observers.ts). */
  readonly #events: EventObservers;
  #stopped = false;

  constructor(options: BridgeOptions) {
    this.telegram = options.machine ? labelMessages(options.telegram, options.machine) : options.telegram;
    this.registry = options.registry;
    this.log = options.logger;
    this.chatId = options.access.chatId;
    this.t = CATALOGS[options.language ?? "en"];
    this.#now = options.now ?? Date.now;
    const { telegram, registry, log, chatId, t } = this;
    const now = this.#now;
    const links = this.#links;
    const outbox = new Outbox({
      logger: log,
      ...(options.pacing !== undefined ? { limits: options.pacing } : {}),
      ...(telegram.reachability ? { reachability: telegram.reachability } : {}),
    });
    this.#outbox = outbox;
    const chat = new Chat(chatId, { telegram, outbox, log });
    this.#chat = chat;
    const topics = new SessionTopics(options.topics ?? false, { telegram, outbox, registry, chatId, log });
    this.#topics = topics;
    const activity = new ActivityTracker(options.notices ?? DEFAULT_NOTICES);
    const replies = new ReplyConfirmation({ timeoutMs: options.confirmTimeoutMs ?? 3_000, now, links });
    // Two circles are real, and each is closed by one forwarder: Stop closes a run's prompts while
    // every prompt's message carries Stop; the budget stops a run while the progress message
    // shows what the budget's rules answered.
    const closing = { closeRun: (sessionID: string) => this.#prompts.closeRun(sessionID) };
    const stopDeps = { telegram, outbox, registry, activity, topics, log, t, chatId, links, prompts: closing };
    const stops = new StopControl(stopDeps);
    const messages = new PromptMessages({ telegram, outbox, chat, registry, topics, stops, log, t });
    const ttl = { question: options.questionTtlMs, permission: options.permissionTtlMs ?? 0 };
    const costs = new RunCosts({ registry, links, activity, log });
    // What ran and who decided what (lib/bridge/walkaway/digest-feed.ts): every settled prompt, budget stop and phone prompt.
    const digest = new DigestFeed({ registry, activity, costs, log, t, now, deskDelayMs: options.deskDelayMs });
    links.watchPrompts(digest);
    const approvals = new Approvals({ ...stopDeps, chat, costs, digest }, options, () => this.#progress);
    const prompts = new PromptLife({ registry, messages, replies, links, chat, log, t, ttl, judge: approvals.allow, digest });
    this.#prompts = prompts;
    const shared = { telegram, outbox, registry, topics, log, t, chatId, now, activity, stops, costs, budget: approvals.budget, digest };
    const progress = options.progress ? new LiveProgress({ ...shared, startAfterMs: (options.notices ?? DEFAULT_NOTICES).doneAfterMs }) : undefined;
    this.#progress = progress;
    const spoken = new SpokenAnswers({ ...shared, chat, settings: options.speech });
    // What the phone sends a run held by a usage limit (lib/bridge/walkaway/) or a busy one (the queue) waits, then goes through TalkBack.
    this.#queue = new QueueControl({ ...shared, links, chat, progress, prompts: closing, talk: { send: (...args) => talk.send(...args) } });
    const talk = new TalkBack({ ...shared, links, chat, spoken, held: { hold: (...args) => this.#walkaway.hold(...args) }, queue: this.#queue, progress });
    this.#walkaway = new Walkaway({ ...shared, links, chat, talk, prompts: closing, afterMs: options.stallAfterMs });
    // The Done notice's buttons from other capabilities (git's, ⑂ Fork): they work once their routes are added below.
    const git = new GitButtons();
    const vocabulary = new VocabularyButtons();
    const runDeps = { ...shared, links, chat, spoken, stream: options.stream, doneButtons: [vocabulary, git], approvals, ...(progress ? { progress } : {}) };
    const runs = new RunNotices(runDeps, options.doneGraceMs ?? DONE_GRACE_MS);
    this.#runs = runs;
    const taps = new PromptTaps({ registry, prompts, chat, log, t });
    let ownsRunTap: (tap: IntentOf<"callback">) => boolean = () => false;
    const answers = {
      ownsTap: (tap: IntentOf<"callback">) => taps.ownsTap(tap) || ownsRunTap(tap),
      refuseTap: taps.refuse.bind(taps),
      start: (command: IntentOf<"command">) => this.#commands.start(command),
    };
    const gate = new Gate(options.access, answers, log);
    this.#gate = gate;
    const quietMs = options.textQuietMs ?? 700;
    const typed = new TypedText({ registry, topics, quietMs, inputs: taps, talk, undos: runs.undos, digests: this.#walkaway });
    this.#typed = typed;
    const load = options.loadTranscriber ? { load: options.loadTranscriber } : {};
    const timeout = options.transcribeTimeoutMs !== undefined ? { timeoutMs: options.transcribeTimeoutMs } : {};
    const voice = new VoiceNotes({ telegram, registry, topics, log, t, chat, inputs: taps, talk, settings: options.transcription, ...load, ...timeout });
    const files = new PhoneFiles({ telegram, registry, topics, log, t, links, activity, talk, chat, voice, quietMs });
    this.#files = files;
    this.#agentFiles = new AgentFiles({ telegram, outbox, registry, topics, log, t, chatId });

    // The routes, listed once, in the order the gate asks them (lib/bridge/core/gate.ts: the first answer wins).
    // The catch-alls come last: a tap nobody claimed is stale (PromptTaps), a command nobody knows
    // gets /help (Commands), a reply is the session's next message (TypedText), a file its next
    // prompt (PhoneFiles). So every capability's routes go above them, and /new --worktree (git)
    // above steering's plain /new; /mcp and `!command` above the vocabulary (a reply `/mcp` would be an OpenCode command).
    const deps = { telegram, outbox, registry, topics, log, t, chatId, links, chat, runs, talk, activity, now };
    routeMcp(gate, deps);
    routeShell(gate, { ...deps, enabled: options.shell !== false });
    git.route(gate, deps);
    const steering = routeSteering(gate, { ...deps, choices: this.#choices });
    routeSchedules(gate, { ...deps, schedules: options.schedules });
    vocabulary.route(gate, { ...deps, costs, flagTemplate });
    const rules = approvals.route(gate);
    ownsRunTap = routeRuns(gate, { stops, undos: runs.undos, queue: this.#queue, chat, log, t });
    gate.route("callback", { claim: (tap) => taps.claimTap(tap), unclaimed: (tap, after) => taps.unclaimedTap(tap, after.unanswered) });
    spoken.route(gate);
    this.#walkaway.route(gate);
    const commands = new Commands({ telegram, outbox, registry, activity, log, t, chatId, prompts, stops, steering, costs, rules });
    this.#commands = commands;
    commands.route(gate);
    gate.route("text", { claim: (text) => typed.claim(text) });
    // Voice notes (and an audio document answering a prompt) before every other file.
    gate.route("attachment", { claim: (file) => voice.claim(file) });
    gate.route("attachment", { claim: (file) => files.claim(file), unclaimed: (file) => files.unclaimed(file) });
    const observers = { registry, now, walkaway: this.#walkaway, queue: this.#queue, prompts, replies, runs, stops, progress, topics };
    this.#events = new EventObservers({ ...observers, toolCalls: approvals.allow });
  }

  // ── OpenCode side ──────────────────────────────────────────────────────────────────────────

  /**
   * Links an OpenCode instance; its already-pending prompts are picked up in the background, unless
   * `listPending` is false: the caller knows there can be none (see lib/plugin/plugin-instance.ts).
   */
  attach(link: InstanceLink, { listPending = true }: { listPending?: boolean } = {}): void {
    this.#links.add(link);
    if (!listPending) return;
    const directory = link.directory;
    void Promise.all([link.opencode.listQuestions(), link.opencode.listPermissions()])
      .then(([questions, permissions]) => {
        for (const request of questions) this.handleEvent(directory, { type: "question.asked", request });
        for (const request of permissions) this.handleEvent(directory, { type: "permission.asked", request });
      })
      .catch((error) => this.log.warn({ err: errorText(error), directory }, "could not list pending prompts"));
  }

  /**
   * After a gap in the event stream: prompts raised meanwhile are delivered, and prompts OpenCode no
   * longer has are closed ("No longer pending": how they ended can't be known).
   */
  async resync(link: InstanceLink): Promise<{ pending: number; closed: number }> {
    const directory = link.directory;
    // Only prompts known before asking can be judged by the answer: a newer one is not on the lists yet.
    const before = this.registry.pendingIn(directory);
    const [questions, permissions] = await Promise.all([link.opencode.listQuestions(), link.opencode.listPermissions()]);
    for (const request of questions) this.handleEvent(directory, { type: "question.asked", request });
    for (const request of permissions) this.handleEvent(directory, { type: "permission.asked", request });
    const live = new Set<string>([...questions, ...permissions].map((request) => request.id));
    const gone = await this.#prompts.closeUnlisted(before, live);
    if (gone.length > 0) this.log.info({ directory, closed: gone.length }, "closed prompts resolved while the event stream was down");
    return { pending: live.size, closed: gone.length };
  }

  /** Unlinks an instance. When it was the last one for its directory, that directory's prompts are dropped. */
  detach(link: InstanceLink): Promise<void> {
    this.#links.delete(link);
    if (this.#links.linkFor(link.directory)) return Promise.resolve();
    return this.#prompts.closeDirectory(link.directory);
  }

  handleEvent(directory: string, event: HermesEvent): void {
    if (this.#stopped) return;
    this.#events.observe(directory, event);
  }

  // ── Telegram side ──────────────────────────────────────────────────────────────────────────

  /**
   * Whether an update concerns this process (one of its prompts or awaited texts): the work it
   * means, which the caller runs once the claim is granted (lib/relay/relay.ts). Deciding does nothing
   * visible: the tap is acknowledged only when the work runs, so a claim the leader refused (it came
   * too late) leaves no trace. Never waits for OpenCode or for outgoing Telegram traffic.
   */
  async claimUpdate(update: unknown): Promise<Claim | undefined> {
    if (this.#stopped) return undefined;
    return this.#gate.claimUpdate(update);
  }

  /**
   * What nobody claimed: taps on stale messages, strangers' taps, and commands (answered once).
   * `unanswered`: a process sharing the bot did not answer, so a tap may be for its prompt: the
   * buttons stay and the user is asked to tap again.
   */
  async handleUnclaimed(update: unknown, parts?: unknown[], unanswered = false): Promise<void> {
    if (this.#stopped) return;
    return this.#gate.handleUnclaimed(update, parts, unanswered);
  }

  /** One process on its own: claim, else handle as unclaimed. */
  async handleUpdate(update: unknown): Promise<void> {
    const claim = await this.claimUpdate(update);
    if (claim) return claim();
    await this.handleUnclaimed(update, this.gathers(update) ? [await this.partFor(update)] : undefined);
  }

  /** Part of /status and /pending, which every process sharing the bot answers together. */
  gathers(update: unknown): boolean {
    return this.#gate.gathers(update);
  }

  partFor(update: unknown): Promise<unknown> {
    return this.#gate.partFor(update);
  }

  /** Whether an unclaimed update may be for a process still re-connecting to the relay (so held a moment): not a stranger's. */
  worthHolding(update: unknown): boolean {
    return this.#gate.worthHolding(update);
  }

  /** Adds a handler for one kind of update, after the bridge's own; it sees only updates from those who may act (gate.ts). */
  route<K extends Intent["kind"]>(kind: K, route: Route<IntentOf<K>>): void {
    this.#gate.route(kind, route);
  }

  /** This process polls now: register the bot's commands, and learn its name (for "/status@bot" in groups); resolves once it has. */
  onLead(): Promise<void> {
    return announceBot(this.telegram, this.t, this.log).then((name) => this.#gate.learnBotName(name));
  }

  /** A file the agent sends (telegram_send_file) as a message of its session: agent-tools/agent-files.ts. */
  sendAgentFile(owner: MessageOwner, file: OutgoingFile, caption: string | undefined): Promise<AgentFileSent> {
    return this.#agentFiles.send(owner, file, caption);
  }

  /** A short message in the chat, in reply to `replyTo`. */
  reply(text: Html, replyTo: number, threadId?: number): Promise<void> {
    return this.#chat.reply(text, replyTo, threadId);
  }

  /** Settles every pending prompt as no longer pending (their buttons go) and stops all timers. */
  async stop(graceMs = 3_000): Promise<void> {
    if (this.#stopped) return;
    // The closing edits are the last word: they may spend what pacing keeps for prompts.
    this.#outbox.finishing();
    // Telegram may be unreachable: don't wait forever, the outbox gives up below.
    await waitAtMost(Promise.all([this.#prompts.closeAll(), this.#progress?.closeAll()]), graceMs);
    this.#stopped = true;
    this.#typed.clear();
    this.#files.clear();
    await this.#outbox.stop();
    this.#prompts.stop();
    this.#runs.stop();
    this.#progress?.stop();
    this.#walkaway.stop();
  }
}

/** Where the compiler checks that every event type is routed: a new HermesEvent type fails to compile here until it has a case. */
