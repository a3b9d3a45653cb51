// Walking away from a run (issue 51), as the bridge sees it: a run held by a usage limit
// (limit-notices.ts: the pause message, Resume now and Cancel, the resume at the reset, the messages
// held meanwhile). It reads the run's events (bridge.ts feeds them) and adds its taps to the gate.
import type { HermesEvent } from "../../hermes-events.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { Gate } from "../core/gate.ts";
import type { UserMessage } from "../runs/run-notices.ts";
import { LimitNotices, type LimitNoticeDeps } from "./limit-notices.ts";

export class Walkaway {
  readonly #limits: LimitNotices;

  constructor(deps: LimitNoticeDeps) {
    this.#limits = new LimitNotices(deps);
  }

  observe(directory: string, event: HermesEvent): void {
    this.#limits.observe(directory, event);
  }

  /** A message from the phone for a session: true when it is held until the run resumes. */
  hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean {
    return this.#limits.hold(owner, userMessage, text, byVoice);
  }

  route(gate: Gate): void {
    const limits = this.#limits;
    gate.route("callback", { claim: (tap) => limits.claimTap(tap), unclaimed: (tap) => limits.unclaimedTap(tap) });
  }

  stop(): void {
    this.#limits.stop();
  }
}
