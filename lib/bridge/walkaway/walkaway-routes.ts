// Walking away from a run (issue 51), as the bridge sees it: a run held by a usage limit
// (limit-notices.ts: the pause message, Resume now and Cancel, the resume at the reset, the messages
// held meanwhile) and a stalled run's alert (stall-alerts.ts: Stop, Keep waiting). They read the
// run's events (lib/bridge/bridge.ts feeds them) and add their taps to the gate.
import type { HermesEvent } from "../../hermes-events.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { Gate } from "../core/gate.ts";
import type { UserMessage } from "../runs/talk-back.ts";
import { LimitNotices, type LimitNoticeDeps } from "./limit-notices.ts";
import { StallAlerts, type StallAlertDeps } from "./stall-alerts.ts";

export { DEFAULT_STALL_AFTER_MS } from "../../walkaway/stall-detector.ts";

export type WalkawayDeps = LimitNoticeDeps & Omit<StallAlertDeps, "paused">;

export class Walkaway {
  readonly #limits: LimitNotices;
  readonly #stalls: StallAlerts;

  constructor(deps: WalkawayDeps) {
    this.#limits = new LimitNotices(deps);
    this.#stalls = new StallAlerts({ ...deps, paused: (sessionID) => this.#limits.isPaused(sessionID) });
  }

  observe(directory: string, event: HermesEvent): void {
    this.#limits.observe(directory, event);
    this.#stalls.observe(directory, event);
  }

  /** A message from the phone for a session: true when it is held until the run resumes. */
  hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean {
    return this.#limits.hold(owner, userMessage, text, byVoice);
  }

  route(gate: Gate): void {
    const limits = this.#limits;
    const stalls = this.#stalls;
    gate.route("callback", { claim: (tap) => limits.claimTap(tap), unclaimed: (tap) => limits.unclaimedTap(tap) });
    gate.route("callback", { claim: (tap) => stalls.claimTap(tap), unclaimed: (tap) => stalls.unclaimedTap(tap) });
  }

  stop(): void {
    this.#limits.stop();
    this.#stalls.stop();
  }
}
