// The project directories (OpenCode 2: locations) attach mode bridges, one state each. A directory is
// checked first (is the Hermes plugin loaded there?), then linked to the bridge or left to the
// plugin; its events wait in order while it is checked; its checks and resyncs run one after the
// other. Shared by attach mode for OpenCode 1.x (lib/attach/runner.ts) and 2 (lib/attach/opencode2-runner.ts).
import type { Bridge } from "../bridge/bridge.ts";
import type { InstanceLink } from "../bridge/core/desk.ts";
import { errorText } from "../util/error-text.ts";
import type { Logger } from "../system/log.ts";
import type { HermesEvent } from "../hermes-events.ts";

export type LinkStatus = "checking" | "attached" | "skipped";

interface DirectoryState {
  status: LinkStatus;
  link?: InstanceLink;
  /** Events that arrived while the directory was being checked, in order. */
  queue: HermesEvent[];
  /** Checks and resyncs of this directory run one after the other. */
  work: Promise<void>;
}

export interface DirectoryLinksOptions {
  bridge: Pick<Bridge, "attach" | "detach" | "resync" | "handleEvent">;
  log: Logger;
  /** What the server calls a project directory, in log lines and reports. */
  noun: "directory" | "location";
  /** Whether the Hermes plugin is loaded there (`what`: how, for the report). Unsure means no: bridge it. */
  pluginLoaded(directory: string): Promise<{ loaded: boolean; what?: string }>;
  link(directory: string): InstanceLink;
  /** A line for the user about a directory that changed after start-up. */
  report(line: string): void;
  /** Whether start-up is over (until then the summary line says it all). */
  started(): boolean;
  /** Whether a directory already decided is checked again at each visit (a 1.x directory's config can change). */
  recheck: boolean;
}

export class DirectoryLinks {
  readonly #options: DirectoryLinksOptions;
  readonly #states = new Map<string, DirectoryState>();
  #closed = false;

  constructor(options: DirectoryLinksOptions) {
    this.#options = options;
  }

  directories(): string[] {
    return [...this.#states.keys()];
  }

  status(directory: string): LinkStatus | undefined {
    return this.#states.get(directory)?.status;
  }

  list(status: LinkStatus): string[] {
    return [...this.#states].filter(([, state]) => state.status === status).map(([directory]) => directory);
  }

  /** Hands the events to the bridge, or keeps them while the directory is checked (a new directory is checked now). */
  deliver(directory: string, events: readonly HermesEvent[]): void {
    if (this.#closed) return;
    const state = this.#states.get(directory) ?? this.#stateOf(directory, false);
    if (state.status === "checking") state.queue.push(...events);
    else if (state.status === "attached") for (const event of events) this.#feed(directory, event);
  }

  /** Checks the directory, then links it, or resyncs it after a reconnect; resolves when that is done. */
  visit(directory: string, reconnect: boolean): Promise<void> {
    return this.#stateOf(directory, reconnect).work;
  }

  /** Waits for the checks under way, then unlinks every directory. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#states.values()].map((state) => state.work));
    for (const state of this.#states.values()) if (state.link) await this.#options.bridge.detach(state.link).catch(() => undefined);
  }

  #stateOf(directory: string, reconnect: boolean): DirectoryState {
    let state = this.#states.get(directory);
    if (!state) {
      state = { status: "checking", queue: [], work: Promise.resolve() };
      this.#states.set(directory, state);
    }
    const current = state;
    current.work = current.work
      .then(() => this.#check(directory, current, reconnect))
      .catch((error: unknown) => this.#options.log.error({ err: errorText(error), directory }, `could not link the ${this.#options.noun}`));
    return current;
  }

  async #check(directory: string, state: DirectoryState, reconnect: boolean): Promise<void> {
    const { bridge, log, noun } = this.#options;
    if (this.#closed) return;
    const check = this.#options.recheck || state.status === "checking" ? await this.#options.pluginLoaded(directory) : { loaded: state.status === "skipped" };
    if (this.#closed) return;
    if (check.loaded) {
      const link = state.link;
      state.link = undefined;
      state.queue = [];
      const news = state.status !== "skipped";
      if (news) log.info({ directory, spec: check.what }, `the Hermes plugin is loaded there; leaving the ${noun} to it`);
      if (news && this.#options.started())
        this.#options.report(
          `Hermes: the Hermes plugin is loaded in OpenCode for ${directory}${check.what ? ` (${check.what})` : ""}; leaving that ${noun} to it`,
        );
      state.status = "skipped";
      if (link) await bridge.detach(link);
      return;
    }
    if (!state.link) {
      const wasSkipped = state.status === "skipped";
      state.link = this.#options.link(directory);
      bridge.attach(state.link); // lists what is already pending, in the background
      state.status = "attached";
      for (const event of state.queue.splice(0)) this.#feed(directory, event);
      log.info({ directory }, `${noun} linked`);
      if (this.#options.started() || wasSkipped) this.#options.report(`Hermes: now bridging ${directory}`);
      return;
    }
    if (reconnect) {
      const { pending, closed } = await bridge.resync(state.link);
      log.info({ directory, pending, closed }, `${noun} resynced`);
    }
  }

  #feed(directory: string, event: HermesEvent): void {
    try {
      this.#options.bridge.handleEvent(directory, event);
    } catch (error) {
      this.#options.log.error({ err: errorText(error), directory }, "event handling failed");
    }
  }
}
