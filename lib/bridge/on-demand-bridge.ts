// The bridge as the hub hands it out: bridge.ts' API, with bridge.ts and all it needs (prompts,
// runs, commands, renderers, the registry, the outbox: about 150 modules, their memory in OpenCode's
// Bun in docs/performance.md) loaded on first use (20–35 ms). An OpenCode that only waits does not pay it.
//
// The first OpenCode event Hermes understands (a run's first events, its session and the user's
// message, come well before its first prompt), the first Telegram update, or a call that needs the
// bridge starts the load. What arrives meanwhile is kept and given to the bridge before anything
// else reaches it: the instance links, then the events in the order they came. The process that
// polls has the bridge tell Telegram the bot's commands and learn its name (lib/bridge/bot/bot-profile.ts) once it
// loads; an update waits for the name (a "/status@bot" in a group is for this bot or another), so
// a waiting OpenCode makes no Bot API call but the long poll.
import { CATALOGS, type Strings } from "../i18n/catalog.ts";
import type { HermesEvent } from "../hermes-events.ts";
import type { Claim, UpdateHandler } from "../relay/update-handler.ts";
import { errorText } from "../util/error-text.ts";
import { waitAtMost } from "../util/with-timeout.ts";
import type { Bridge, BridgeOptions } from "./bridge.ts";
import type { InstanceLink } from "./core/desk.ts";
import type { AgentFileSent } from "./agent-tools/agent-files.ts";
import type { MessageOwner } from "../registry/registry.ts";
import type { OutgoingFile } from "../telegram/wire/api.ts";
import { escapeHtml, html, joinHtml, type Html } from "../text/html.ts";

/**
 * The bridge's options, but for its registry (made with the bridge); `servedChanged` hears when
 * the projects served change (the schedules' wake-up timer, lib/plugin/schedule-timer.ts, looks again).
 */
export type OnDemandBridgeOptions = Omit<BridgeOptions, "registry"> & { servedChanged?: () => void };

/**
 * How long an update waits for the bot's name after the load (getMe answers in one round trip). A
 * Telegram that does not answer holds up no tap: past this, updates go on, and only a command
 * addressed to a bot by name ("/status@bot") is left alone until the name is known, as before it.
 */
const NAME_WAIT_MS = 2_000;

/** How the bridge is made once needed; tests count the loads. */
export type MakeBridge = (options: Omit<BridgeOptions, "registry">) => Promise<Bridge>;

async function loadBridge(options: Omit<BridgeOptions, "registry">): Promise<Bridge> {
  const [{ Bridge }, { Registry }] = await Promise.all([import("./bridge.ts"), import("../registry/registry.ts")]);
  return new Bridge({ ...options, registry: new Registry() });
}

export class OnDemandBridge implements UpdateHandler {
  /** The configured chat; undefined before one is configured (then only /start is answered). */
  readonly chatId: number | undefined;
  readonly t: Strings;
  readonly #options: OnDemandBridgeOptions;
  readonly #make: MakeBridge;
  #bridge?: Bridge;
  #loading?: Promise<Bridge>;
  #stopped = false;
  /** What came before the bridge was loaded (events in order of arrival). */
  readonly #links = new Map<InstanceLink, boolean>();
  /** Every instance linked now, before and after the load: the projects scheduled runs may start in. */
  readonly #served = new Set<InstanceLink>();
  readonly #events: Array<{ directory: string; event: HermesEvent }> = [];
  /** This process started polling before the bridge loaded: the bridge announces the bot once it has. */
  #led = false;
  /** The bot's commands registered and its name learnt (bot-profile.ts), after a lead before the load. */
  #announced?: Promise<void>;

  constructor(options: OnDemandBridgeOptions, make: MakeBridge = loadBridge) {
    this.#options = options;
    this.#make = make;
    this.chatId = options.access.chatId;
    this.t = CATALOGS[options.language ?? "en"];
  }

  /** The projects this process serves (its instance links, before and after the load). */
  directories(): string[] {
    return [...new Set([...this.#served].map((link) => link.directory))];
  }

  /** Whether Hermes stopped here (or could not load): nothing more will be handled. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Loads the bridge now, if it has not loaded (a scheduled run fell due). */
  async load(): Promise<void> {
    await this.#load();
  }

  /** Whether the bridge has been loaded. */
  get loaded(): boolean {
    return this.#bridge !== undefined;
  }

  // ── OpenCode side ──────────────────────────────────────────────────────────────────────────

  /**
   * Links an instance; one whose pending prompts must be listed needs the bridge now, or
   * `listAfterMs` later (an event or update meanwhile loads it at once): a start that lists them
   * does not hold up the first long poll with the bridge's load (docs/performance.md).
   */
  attach(link: InstanceLink, options: { listPending?: boolean; listAfterMs?: number } = {}): void {
    this.#served.add(link);
    if (this.#bridge) {
      this.#bridge.attach(link, { listPending: options.listPending ?? true });
      this.#options.servedChanged?.();
      return;
    }
    queueMicrotask(() => this.#options.servedChanged?.());
    const listPending = options.listPending ?? true;
    this.#links.set(link, listPending);
    if (!listPending) return;
    if (options.listAfterMs === undefined) this.#startLoading();
    else setTimeout(() => this.#stopped || this.#startLoading(), options.listAfterMs).unref?.();
  }

  /** Unlinks an instance; before the bridge was ever needed there is nothing to close. */
  async detach(link: InstanceLink): Promise<void> {
    this.#served.delete(link);
    queueMicrotask(() => this.#options.servedChanged?.());
    if (this.#bridge) return this.#bridge.detach(link);
    const bridge = await this.#loading?.catch(() => undefined);
    if (bridge) return bridge.detach(link);
    this.#links.delete(link);
  }

  async resync(link: InstanceLink): Promise<{ pending: number; closed: number }> {
    return (await this.#load()).resync(link);
  }

  handleEvent(directory: string, event: HermesEvent): void {
    if (this.#bridge) {
      this.#bridge.handleEvent(directory, event);
      return;
    }
    if (this.#stopped) return;
    this.#events.push({ directory, event });
    this.#startLoading();
  }

  // ── Telegram side ──────────────────────────────────────────────────────────────────────────

  async claimUpdate(update: unknown): Promise<Claim | undefined> {
    return (await this.#forUpdates())?.claimUpdate(update);
  }

  async handleUnclaimed(update: unknown, parts?: unknown[], unanswered = false): Promise<void> {
    return (await this.#forUpdates())?.handleUnclaimed(update, parts, unanswered);
  }

  async handleUpdate(update: unknown): Promise<void> {
    return (await this.#forUpdates())?.handleUpdate(update);
  }

  /** The relay asks only after `claimUpdate`, which loaded the bridge; before that, nothing is gathered. */
  gathers(update: unknown): boolean {
    return this.#bridge?.gathers(update) ?? false;
  }

  async partFor(update: unknown): Promise<unknown> {
    return (await this.#forUpdates())?.partFor(update);
  }

  /** Asked after `claimUpdate` too; before the bridge, the relay's default (hold). */
  worthHolding(update: unknown): boolean {
    return this.#bridge?.worthHolding(update) ?? true;
  }

  /** This process polls now: the bridge announces the bot, now or once it loads (nothing to tell Telegram before). */
  onLead(): void {
    if (this.#bridge) this.#bridge.onLead();
    else this.#led = true;
  }

  /** A file the agent sends (telegram_send_file): the bridge loads for it if it has not yet. */
  async sendAgentFile(owner: MessageOwner, file: OutgoingFile, caption: string | undefined): Promise<AgentFileSent> {
    return (await this.#load()).sendAgentFile(owner, file, caption);
  }

  /**
   * The settings Hermes ignored (a bad optional value, an unknown HERMES_* variable; lib/config/config.ts): one
   * message in the chat at start, straight through the Bot API without the bridge's load, so a typo
   * is not silent. Start-up does not wait for it.
   */
  sayIgnored(ignored: readonly string[]): void {
    if (this.chatId === undefined || ignored.length === 0) return;
    const text = joinHtml([html`⚠️ ${escapeHtml(this.t.note.settingsIgnored)}`, ...ignored.map((line) => html`• ${escapeHtml(line)}`)], "\n");
    this.#options.telegram
      .sendMessage(this.chatId, text)
      .catch((error: unknown) => this.#options.logger.warn({ err: errorText(error) }, "could not send the ignored settings to the chat"));
  }

  async reply(text: Html, replyTo: number, threadId?: number): Promise<void> {
    return (await this.#load()).reply(text, replyTo, threadId);
  }

  /** Settles what the bridge holds; a bridge never loaded holds nothing, and never will now. */
  async stop(graceMs?: number): Promise<void> {
    this.#stopped = true;
    this.#events.length = 0;
    const bridge = this.#bridge ?? (await this.#loading?.catch(() => undefined));
    await bridge?.stop(graceMs);
  }

  // ── Loading ────────────────────────────────────────────────────────────────────────────────

  /**
   * The bridge for an update, loaded if need be, once it knows the bot's name; none once Hermes
   * stopped without it (nothing to claim or answer).
   */
  async #forUpdates(): Promise<Bridge | undefined> {
    if (this.#stopped && !this.#bridge) return undefined;
    const bridge = await this.#load();
    if (this.#announced) await waitAtMost(this.#announced, NAME_WAIT_MS);
    return bridge;
  }

  #startLoading(): void {
    this.#load().catch(() => undefined);
  }

  #load(): Promise<Bridge> {
    if (this.#bridge) return Promise.resolve(this.#bridge);
    if (this.#loading) return this.#loading;
    if (this.#stopped) return Promise.reject(new Error("Hermes has stopped"));
    const started = performance.now();
    const { servedChanged: _heard, ...options } = this.#options;
    this.#loading = this.#make(options).then(
      (bridge) => {
        this.#options.logger.debug({ ms: Math.round(performance.now() - started) }, "the bridge loaded (on first use)");
        // Everything kept goes in before anyone else can reach the bridge.
        for (const [link, listPending] of this.#links) bridge.attach(link, { listPending });
        this.#links.clear();
        if (this.#led) this.#announced = bridge.onLead();
        for (const { directory, event } of this.#events.splice(0)) bridge.handleEvent(directory, event);
        this.#bridge = bridge;
        return bridge;
      },
      (error: unknown) => {
        // A broken install: one line, and Hermes stays inert rather than retry with every event.
        this.#options.logger.error({ err: errorText(error) }, "could not load Hermes' prompt handling; Hermes is off");
        this.#stopped = true;
        this.#events.length = 0;
        throw error;
      },
    );
    return this.#loading;
  }
}
