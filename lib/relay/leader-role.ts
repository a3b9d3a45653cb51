// What the leader runs while it leads: the poller, the connections of followers (each proves it holds
// the token first, follower-link.ts), a check that the socket name is still its own, and who handles
// each polled update: this process first, else whichever follower claims it (all are asked at once;
// nobody waits on a follower that went silent), else nobody, and then the leader answers it itself.
// Deciding is all the poll loop waits for: the handling (taps answered, messages sent) runs outside
// it, so outgoing Telegram traffic never holds up polling. After a takeover, what nobody claims is
// parked for a moment (parking.ts) and offered to each follower as it re-connects.
import type net from "node:net";
import type { Logger } from "../system/log.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import { startPoller, type Poller } from "../telegram/wire/poller.ts";
import { errorText } from "../util/error-text.ts";
import { FollowerLink, offerToAll } from "./follower-link.ts";
import { updateIdOf, type LocalClaims } from "./local-claims.ts";
import { ParkingLot } from "./parking.ts";
import { holdsName, releaseName, type BoundSocket } from "./socket-file.ts";
import type { UpdateHandler } from "./update-handler.ts";
import { isUpdate } from "./wire.ts";

export interface LeaderRoleOptions {
  address: string;
  key: Buffer;
  telegram: TelegramApi;
  handler: UpdateHandler;
  local: LocalClaims;
  log: Logger;
  handshakeMs: number;
  offerTimeoutMs: number;
  /** Set after taking over from another leader: how long what nobody claims waits for followers re-connecting. */
  takeoverGraceMs?: number;
  /** Where polling stands: read when polling starts and when a follower joins. */
  offset(): number;
  /** Polling moved on: the offset to resume from. */
  onOffset(offset: number): void;
  /** Someone else holds the socket name now: this process must stop leading. */
  onNameLost(): void;
  onConflict?: () => void;
  pollTimeoutSeconds?: number;
  pollGraceMs?: number;
}

/** How often the leader checks that the socket name is still its own. */
const NAME_CHECK_MS = 1_000;
/** What a new leader holds at most meanwhile (a Telegram batch is at most 100 updates). */
const MAX_PARKED = 100;
const MAX_PARKED_BYTES = 2_000_000;

export class LeaderRole {
  readonly #options: LeaderRoleOptions;
  readonly #bound: BoundSocket;
  readonly #log: Logger;
  /** Every connection: proven followers, and connections still proving themselves. */
  readonly #links = new Set<FollowerLink>();
  readonly #nameCheck: ReturnType<typeof setInterval>;
  readonly #poller: Poller;
  readonly #unsubscribeBack?: () => void;
  readonly #parked = new ParkingLot({
    maxCount: MAX_PARKED,
    maxBytes: MAX_PARKED_BYTES,
    release: (update, unanswered) => void this.#handleUnclaimed(update, unanswered),
  });

  /** Starts leading on a socket this process bound: checks the name, then polls. */
  constructor(bound: BoundSocket, options: LeaderRoleOptions) {
    this.#bound = bound;
    this.#options = options;
    this.#log = options.log;
    // Someone may replace the name (a race with a third process, or a user deleting it): then this
    // process is unreachable and must not poll alongside the new leader.
    this.#nameCheck = setInterval(() => {
      if (!holdsName(options.address, bound)) options.onNameLost();
    }, NAME_CHECK_MS);
    this.#nameCheck.unref?.();
    // Followers of the leader that went are re-connecting now: give them a moment to claim theirs.
    if (options.takeoverGraceMs !== undefined) this.#parked.open(options.takeoverGraceMs);
    options.handler.onLead?.();
    // Telegram back after trouble (the poll got through): followers hear it too, as an offset frame
    // (each takes an offset from its leader as a sign that Telegram answers), so their outboxes send
    // what waits at once. An offset frame, not a new kind: a follower of an older Hermes takes it too.
    this.#unsubscribeBack = options.telegram.reachability?.onBack(() => this.#broadcastOffset(options.offset()));
    this.#poller = startPoller({
      api: options.telegram,
      logger: this.#log,
      initialOffset: options.offset(),
      onUpdate: (update) => this.#dispatch(update),
      onHandled: (offset) => this.#broadcastOffset(offset),
      ...(options.onConflict ? { onConflict: options.onConflict } : {}),
      ...(options.pollTimeoutSeconds !== undefined ? { timeoutSeconds: options.pollTimeoutSeconds } : {}),
      ...(options.pollGraceMs !== undefined ? { graceMs: options.pollGraceMs } : {}),
    });
  }

  /** Stops leading: polling ends, followers are let go, and the socket name is freed if still ours. */
  async close(): Promise<void> {
    clearInterval(this.#nameCheck);
    this.#unsubscribeBack?.();
    this.#parked.clear();
    const bound = this.#bound;
    releaseName(this.#options.address, bound);
    for (const link of this.#links) link.close("the leader stops");
    this.#links.clear();
    await Promise.all([this.#poller.stop(), new Promise<void>((resolve) => bound.server.close(() => resolve()))]);
  }

  /** The connections that proved they hold the token. */
  #followers(): FollowerLink[] {
    return [...this.#links].filter((link) => link.ready);
  }

  /** A new connection on the socket: a follower once it proves it holds the token. */
  accept(socket: net.Socket): void {
    const link = new FollowerLink(socket, {
      key: this.#options.key,
      log: this.#log,
      handshakeMs: this.#options.handshakeMs,
      answerMs: this.#options.offerTimeoutMs,
      offset: () => this.#options.offset(),
      onReady: (ready) => {
        this.#parked.offerAll(async (update, take) => {
          const taken = await ready.offer(update, take);
          if (taken) this.#log.info({ updateId: update.update_id }, "a follower that re-connected claimed an update held for it");
          return taken;
        });
      },
      onClose: (closed) => {
        this.#links.delete(closed);
      },
    });
    this.#links.add(link);
  }

  /**
   * Decides who handles an update (what the poll loop waits for), then lets the handling run
   * outside the loop: this process first, else the first follower to claim it, else nobody.
   */
  async #dispatch(raw: unknown): Promise<void> {
    const { local } = this.#options;
    const claim = await local.decide(raw);
    if (claim) return local.run(updateIdOf(raw), claim);
    let unanswered = this.#followers().some((follower) => follower.stalled);
    if (isUpdate(raw)) {
      const outcome = await offerToAll(this.#followers(), raw);
      if (outcome === "taken") return;
      unanswered ||= outcome === "unanswered";
      // Its process may be re-connecting: hold it for a moment (strangers' updates are not held).
      if (this.#options.handler.worthHolding?.(raw) !== false && this.#parked.park(raw, unanswered)) return;
    }
    void this.#handleUnclaimed(raw, unanswered);
  }

  async #handleUnclaimed(update: unknown, unanswered: boolean): Promise<void> {
    try {
      const { handler, local } = this.#options;
      if (!isUpdate(update) || !handler.gathers?.(update)) return await handler.handleUnclaimed(update, undefined, unanswered);
      // A command answered once for every process: each adds its part (its sessions, its prompts).
      const parts = await Promise.all([local.partFor(update), ...this.#followers().map((follower) => follower.gather(update))]);
      await handler.handleUnclaimed(
        update,
        parts.filter((part) => part !== undefined && part !== null),
        unanswered,
      );
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "handling an update failed");
    }
  }

  #broadcastOffset(offset: number): void {
    this.#options.onOffset(offset);
    for (const follower of this.#followers()) follower.send({ t: "offset", offset });
  }
}
