// This process' own side of every update the relay sees, whether it leads or follows: its claim
// (an update it handled already, re-delivered after a failover, is claimed as done), the claimed work
// run outside the poll loop once granted, and its part of a command answered once for every process.
// The handler (the Bridge) must never take the relay down: what it throws is logged here.
import type { Logger } from "../system/log.ts";
import { errorText } from "../util/error-text.ts";
import { RecentIds } from "../util/recent-ids.ts";
import type { Claim, UpdateHandler } from "./update-handler.ts";

export class LocalClaims {
  readonly #handler: UpdateHandler;
  readonly #log: Logger;
  readonly #handled = new RecentIds<number>();

  constructor(handler: UpdateHandler, log: Logger) {
    this.#handler = handler;
    this.#log = log;
  }

  /** This process' claim, unless it handled the update already (re-delivered after a failover). */
  async decide(update: unknown): Promise<Claim | undefined> {
    const id = updateIdOf(update);
    if (id !== undefined && this.#handled.has(id)) return async () => undefined;
    try {
      return await this.#handler.claimUpdate(update);
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "claiming an update failed");
      return undefined;
    }
  }

  /** Runs a granted claim outside the poll loop. */
  run(updateId: number | undefined, claim: Claim): void {
    if (updateId !== undefined) this.#handled.add(updateId);
    void claim().catch((error) => this.#log.error({ err: errorText(error) }, "handling an update failed"));
  }

  /** This process' part of a command answered once for all (its sessions, its prompts). */
  async partFor(update: unknown): Promise<unknown> {
    try {
      return await this.#handler.partFor?.(update);
    } catch (error) {
      this.#log.warn({ err: errorText(error) }, "could not gather this process' part of a command");
      return undefined;
    }
  }
}

export function updateIdOf(update: unknown): number | undefined {
  const id = (update as { update_id?: unknown } | null)?.update_id;
  return typeof id === "number" ? id : undefined;
}
