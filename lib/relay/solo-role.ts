// When the relay cannot run (its directory is not private, or its socket path is too long for a
// Unix socket), this process still polls Telegram, on its own: a leader without followers. Prompts
// keep working; if another process polls the same bot too, Telegram answers 409 Conflict and the
// poller says so and keeps retrying (the handling any second poller of a token gets).
import type { Logger } from "../system/log.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import { startPoller, type Poller } from "../telegram/wire/poller.ts";
import { errorText } from "../util/error-text.ts";
import { updateIdOf, type LocalClaims } from "./local-claims.ts";
import type { UpdateHandler } from "./update-handler.ts";
import { isUpdate } from "./wire.ts";

export interface SoloRoleOptions {
  telegram: TelegramApi;
  handler: UpdateHandler;
  local: LocalClaims;
  log: Logger;
  offset: number;
  onOffset(offset: number): void;
  onConflict?: () => void;
  pollTimeoutSeconds?: number;
  pollGraceMs?: number;
}

export class SoloRole {
  readonly #options: SoloRoleOptions;
  readonly #poller: Poller;

  constructor(options: SoloRoleOptions) {
    this.#options = options;
    options.handler.onLead?.();
    this.#poller = startPoller({
      api: options.telegram,
      logger: options.log,
      initialOffset: options.offset,
      onUpdate: (update) => this.#dispatch(update),
      onHandled: (offset) => options.onOffset(offset),
      ...(options.onConflict ? { onConflict: options.onConflict } : {}),
      ...(options.pollTimeoutSeconds !== undefined ? { timeoutSeconds: options.pollTimeoutSeconds } : {}),
      ...(options.pollGraceMs !== undefined ? { graceMs: options.pollGraceMs } : {}),
    });
  }

  close(): Promise<void> {
    return this.#poller.stop();
  }

  /** This process handles what it claims; it answers everything else itself (there is nobody to ask). */
  async #dispatch(raw: unknown): Promise<void> {
    const { local, handler, log } = this.#options;
    const claim = await local.decide(raw);
    if (claim) return local.run(updateIdOf(raw), claim);
    void (async () => {
      const parts = isUpdate(raw) && handler.gathers?.(raw) ? [await local.partFor(raw)].filter((part) => part !== undefined && part !== null) : undefined;
      await handler.handleUnclaimed(raw, parts, false);
    })().catch((error) => log.error({ err: errorText(error) }, "handling an update failed"));
  }
}
