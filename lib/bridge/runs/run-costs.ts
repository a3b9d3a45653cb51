// What each run of this process' sessions used (tokens, dollars) and how full its context is, for
// the Done notice, the progress message and /status. The counting is the pure RunUsage's
// (lib/progress/run-usage.ts); this adds when a run starts (a root session turning busy) and the
// model's context window, asked of OpenCode's provider list (the same list /model reads) once
// per model, of the location where the model first answered. Nothing when OpenCode reports nothing.
import type { HermesEvent, ModelRef } from "../../hermes-events.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import { RunUsage } from "../../progress/run-usage.ts";
import type { Registry } from "../../registry/registry.ts";
import type { ContextView, SpentView } from "../../telegram/render/render-usage.ts";
import { errorText } from "../../util/error-text.ts";
import type { InstanceLinks } from "../core/instance-links.ts";

export interface RunCostDeps {
  registry: Registry;
  links: Pick<InstanceLinks, "linkFor">;
  /** Whether a session is busy already (read before the event is counted there). */
  activity: Pick<ActivityTracker, "isBusy">;
  log: Logger;
}

/** Models whose window is remembered; the oldest is asked again when needed. */
export const WINDOWS_KEPT = 100;

export class RunCosts {
  readonly #deps: RunCostDeps;
  readonly #usage = new RunUsage();
  /** `provider/model` → the window in tokens, or undefined when OpenCode does not say (or is being asked). */
  readonly #windows = new Map<string, number | undefined>();
  /** Root → the fill a compaction from the phone left its context at, until its next run (issue 43). */
  readonly #compacted = new Map<string, ContextView>();

  constructor(deps: RunCostDeps) {
    this.#deps = deps;
  }

  /** Feeds an event; call it before the activity tracker sees the same event. */
  observe(directory: string, event: HermesEvent): void {
    const { registry, activity } = this.#deps;
    switch (event.type) {
      case "session.status": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (event.status !== "idle" && root === event.sessionID && !activity.isBusy(root)) {
          this.#usage.start(root);
          this.#compacted.delete(root);
        }
        return;
      }
      case "message.role": {
        if (!event.usage) return;
        const root = registry.sessions.rootOf(event.sessionID);
        this.#usage.note(root, event.messageID, event.usage, root === event.sessionID, event.model);
        if (event.model) this.#learnWindow(directory, event.model);
        return;
      }
      case "session.deleted":
        this.#usage.forget(event.sessionID);
        this.#compacted.delete(event.sessionID);
        return;
      default:
        return;
    }
  }

  /** The run's use so far (the Done notice takes it: the run is forgotten then). */
  take(sessionID: string): SpentView | undefined {
    const root = this.#deps.registry.sessions.rootOf(sessionID);
    const spent = this.#usage.spent(root);
    this.#usage.forget(root);
    return spent ? { tokens: Math.round(spent.tokens), cost: spent.cost } : undefined;
  }

  /** The run's use so far, kept (the run budget reads it as it grows). */
  spent(sessionID: string): SpentView | undefined {
    const spent = this.#usage.spent(this.#deps.registry.sessions.rootOf(sessionID));
    return spent ? { tokens: Math.round(spent.tokens), cost: spent.cost } : undefined;
  }

  /** How full the session's context is, as its run's last answer left it (with the model's window when known). */
  context(sessionID: string): ContextView | undefined {
    const context = this.#usage.spent(this.#deps.registry.sessions.rootOf(sessionID))?.context;
    if (!context) return undefined;
    const window = context.model ? this.#windows.get(keyOf(context.model)) : undefined;
    return { tokens: Math.round(context.tokens), ...(window ? { window } : {}) };
  }

  /** A compaction left the session's context at `context` (the summary's tokens): /status shows it while the session rests. */
  compacted(sessionID: string, context: ContextView): void {
    const root = this.#deps.registry.sessions.rootOf(sessionID);
    // The summary's own counts (its input is the whole old context) are no run of the session's.
    this.#usage.forget(root);
    this.#compacted.delete(root);
    this.#compacted.set(root, context);
    while (this.#compacted.size > WINDOWS_KEPT) this.#compacted.delete(this.#compacted.keys().next().value!);
  }

  /** The fill a compaction left, while no run has started since. */
  lastContext(sessionID: string): ContextView | undefined {
    return this.#compacted.get(this.#deps.registry.sessions.rootOf(sessionID));
  }

  #learnWindow(directory: string, model: ModelRef): void {
    const key = keyOf(model);
    if (this.#windows.has(key)) return;
    const opencode = this.#deps.links.linkFor(directory)?.opencode;
    if (!opencode) return;
    this.#windows.set(key, undefined);
    while (this.#windows.size > WINDOWS_KEPT) this.#windows.delete(this.#windows.keys().next().value!);
    opencode
      .listModels()
      .then((models) => {
        const found = models.find((entry) => entry.providerID === model.providerID && entry.modelID === model.modelID);
        if (found?.contextLimit && this.#windows.has(key)) this.#windows.set(key, found.contextLimit);
      })
      .catch((error) => this.#deps.log.debug({ err: errorText(error) }, "could not read the model's context window"));
  }

  /** How many models' windows are remembered. */
  get windows(): number {
    return this.#windows.size;
  }
}

function keyOf(model: ModelRef): string {
  return `${model.providerID}/${model.modelID}`;
}
