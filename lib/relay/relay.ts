// Several OpenCode processes may share one bot token, but Telegram allows one getUpdates consumer.
// The relay elects one leader per machine (whoever binds the token's socket file, socket-file.ts),
// which polls. Each connection proves it holds the token before any update crosses it, both ways
// (handshake.ts). The leader decides who handles each update: itself first, else whichever
// follower claims it (all are asked at once; nobody waits on a follower that went silent), and
// answers what nobody claims itself. Deciding is all the poll loop waits for: the handling (taps
// answered, messages sent) runs outside it, so outgoing Telegram traffic never holds up polling.
// When the leader goes, a follower takes over from the last offset; for a moment after it takes
// over, what nobody claims is parked (parking.ts) and offered to each follower as it re-connects,
// so a tap on a live prompt is never declared stale because its process is still re-connecting.
import path from "node:path";
import type net from "node:net";
import type { Logger } from "../log.ts";
import type { TelegramApi } from "../telegram/api.ts";
import { startPoller, type Poller } from "../telegram/poller.ts";
import { errorText } from "../error-text.ts";
import { FollowerLink, offerToAll } from "./follower-link.ts";
import { connectToLeader, type LeaderFrame } from "./leader-link.ts";
import { ParkingLot } from "./parking.ts";
import { ensurePrivateDirectory } from "./private-dir.ts";
import { RecentIds } from "../recent-ids.ts";
import { sleep } from "../sleep.ts";
import { bindExclusive, holdsName, releaseName, type BoundSocket } from "./socket-file.ts";
import type { Claim, UpdateHandler } from "./update-handler.ts";
import { encode, isUpdate } from "./wire.ts";

export type { Claim, UpdateHandler } from "./update-handler.ts";

export interface RelayOptions {
  /** The socket file; its directory is created private (0700) and checked. */
  address: string;
  /** Derived from the bot token (handshake.ts relayKey): what both sides prove they hold. */
  key: Buffer;
  telegram: TelegramApi;
  handler: UpdateHandler;
  logger: Logger;
  onConflict?: () => void;
  /** The relay can't run (its directory is unsafe): told once, with the reason. */
  onUnavailable?: (reason: string) => void;
  pollTimeoutSeconds?: number;
  pollGraceMs?: number;
  /** How long the leader waits for a follower to answer an offer. */
  offerTimeoutMs?: number;
  /** How long either side of a new connection has to prove it holds the token. */
  handshakeMs?: number;
  /** After taking over from another leader: how long what nobody claims waits for followers re-connecting. */
  takeoverGraceMs?: number;
}

export type RelayRole = "electing" | "leader" | "follower" | "stopped";

const HANDSHAKE_MS = 1_000;
const OFFER_TIMEOUT_MS = 2_000;
/** How often the leader checks that the socket name is still its own. */
const NAME_CHECK_MS = 1_000;
/**
 * How long a new leader holds what nobody claims, for followers still re-connecting: long enough
 * for one re-connect attempt stuck on the dead leader (HANDSHAKE_MS) and a retry, short enough that
 * a tap's spinner stops soon (a claimed tap is answered as soon as its process is back).
 */
const TAKEOVER_GRACE_MS = 3_000;
/** What a new leader holds at most meanwhile (a Telegram batch is at most 100 updates). */
const MAX_PARKED = 100;
const MAX_PARKED_BYTES = 2_000_000;

export class Relay {
  readonly #options: RelayOptions;
  readonly #log: Logger;
  readonly #handled = new RecentIds<number>();
  /** Proven followers; `#links` also holds connections still proving themselves. */
  readonly #followers = new Set<FollowerLink>();
  readonly #links = new Set<FollowerLink>();
  /** Follower side: claims sent to the leader, waiting for its grant. */
  readonly #claims = new Map<number, { updateId: number; claim: Claim }>();
  #role: RelayRole = "electing";
  #offset = 0;
  #bound?: BoundSocket;
  #nameCheck?: ReturnType<typeof setInterval>;
  #poller?: Poller;
  #leaderSocket?: net.Socket;
  #electing?: Promise<void>;
  /** This process followed another leader: when it leads next, it takes over (and parks). */
  #followed = false;
  readonly #parked = new ParkingLot({
    maxCount: MAX_PARKED,
    maxBytes: MAX_PARKED_BYTES,
    release: (update, unanswered) => void this.#handleUnclaimed(update, unanswered),
  });

  constructor(options: RelayOptions) {
    this.#options = options;
    this.#log = options.logger;
  }

  get role(): RelayRole {
    return this.#role;
  }

  start(): void {
    this.#electing = this.#elect();
  }

  async stop(): Promise<void> {
    if (this.#role === "stopped") return;
    this.#role = "stopped";
    this.#leaderSocket?.destroy();
    await Promise.all([this.#resign(), this.#electing]);
  }

  // ── Election ───────────────────────────────────────────────────────────────────────────────

  async #elect(): Promise<void> {
    const { address } = this.#options;
    try {
      ensurePrivateDirectory(path.dirname(address));
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "the relay's directory is not private; Hermes does not poll Telegram from this process");
      this.#options.onUnavailable?.(errorText(error));
      this.#role = "stopped";
      return;
    }
    let attempt = 0;
    while (!this.#isStopped()) {
      // Usually a leader is there already (right after a leader died, another survivor may have
      // taken over first): following it directly is the quickest way back, before trying to bind.
      if (await this.#followIfLed()) return;
      const bound = await bindExclusive(address, (socket) => this.#accept(socket)).catch((error) => {
        this.#log.warn({ err: errorText(error) }, "could not bind the relay socket");
        return undefined;
      });
      if (this.#isStopped()) {
        if (bound) {
          releaseName(address, bound);
          bound.server.close();
        }
        return;
      }
      if (bound) return this.#lead(bound);
      await sleep(Math.min(1_000, 25 * 2 ** attempt++));
    }
  }

  /** Connects to the leader on the socket name, if one answers and proves itself, and follows it. True: done electing. */
  async #followIfLed(): Promise<boolean> {
    if (this.#isStopped()) return true;
    const leader = await connectToLeader(this.#options.address, {
      key: this.#options.key,
      handshakeMs: this.#options.handshakeMs ?? HANDSHAKE_MS,
      onFrame: (frame, socket) => this.#onLeaderFrame(frame, socket),
      onViolation: (reason) => this.#log.warn({ reason }, "left a relay leader that broke the protocol"),
    });
    if (this.#isStopped()) {
      leader?.socket.destroy();
      return true;
    }
    if (!leader) return false;
    this.#follow(leader.socket, leader.offset);
    return true;
  }

  #isStopped(): boolean {
    return this.#role === "stopped";
  }

  #lead(bound: BoundSocket): void {
    this.#bound = bound;
    this.#role = "leader";
    this.#log.info({ offset: this.#offset }, "this process polls Telegram for the bot (relay leader)");
    // Someone may replace the name (a race with a third process, or a user deleting it): then this
    // process is unreachable and must not poll alongside the new leader.
    this.#nameCheck = setInterval(() => {
      if (this.#role === "leader" && !holdsName(this.#options.address, bound)) void this.#stepDown();
    }, NAME_CHECK_MS);
    this.#nameCheck.unref?.();
    // Followers of the leader that went are re-connecting now: give them a moment to claim theirs.
    if (this.#followed) this.#parked.open(this.#options.takeoverGraceMs ?? TAKEOVER_GRACE_MS);
    this.#followed = false;
    this.#options.handler.onLead?.();
    this.#poller = startPoller({
      api: this.#options.telegram,
      logger: this.#log,
      initialOffset: this.#offset,
      onUpdate: (update) => this.#dispatch(update),
      onHandled: (offset) => this.#broadcastOffset(offset),
      ...(this.#options.onConflict ? { onConflict: this.#options.onConflict } : {}),
      ...(this.#options.pollTimeoutSeconds !== undefined ? { timeoutSeconds: this.#options.pollTimeoutSeconds } : {}),
      ...(this.#options.pollGraceMs !== undefined ? { graceMs: this.#options.pollGraceMs } : {}),
    });
  }

  async #stepDown(): Promise<void> {
    this.#log.warn("another process took over the relay socket; electing again");
    this.#role = "electing";
    await this.#resign();
    if (this.#role === "electing") this.#electing = this.#elect();
  }

  /** Stops leading: polling ends, followers are let go, and the socket name is freed if still ours. */
  async #resign(): Promise<void> {
    clearInterval(this.#nameCheck);
    this.#parked.clear();
    const bound = this.#bound;
    this.#bound = undefined;
    if (bound) releaseName(this.#options.address, bound);
    for (const link of this.#links) link.close("the leader stops");
    this.#links.clear();
    this.#followers.clear();
    const poller = this.#poller;
    this.#poller = undefined;
    await Promise.all([poller?.stop(), new Promise<void>((resolve) => (bound ? bound.server.close(() => resolve()) : resolve()))]);
  }

  // ── Following ──────────────────────────────────────────────────────────────────────────────

  #follow(socket: net.Socket, offset: number): void {
    this.#role = "follower";
    this.#followed = true;
    this.#leaderSocket = socket;
    this.#offset = Math.max(this.#offset, offset);
    this.#log.info("another process polls Telegram for this bot; following it (relay follower)");
    socket.on("close", () => {
      this.#claims.clear();
      if (this.#role === "stopped" || this.#leaderSocket !== socket) return;
      this.#leaderSocket = undefined;
      this.#role = "electing";
      this.#log.info({ offset: this.#offset }, "the relay leader went away; electing a new one");
      this.#electing = this.#elect();
    });
  }

  #onLeaderFrame(frame: LeaderFrame, socket: net.Socket): void {
    const reply = (line: string) => !socket.destroyed && socket.write(line);
    switch (frame.t) {
      case "offset":
        // Only forward, within Telegram's id range (wire.ts): a lower one is stale, not an error.
        this.#offset = Math.max(this.#offset, frame.offset);
        return;
      case "gather":
        void this.#partFor(frame.update).then((part) => reply(encode({ t: "part", id: frame.id, part: part ?? null })));
        return;
      case "offer":
        void this.#decide(frame.update).then((claim) => {
          if (claim) this.#claims.set(frame.id, { updateId: frame.update.update_id, claim });
          reply(encode({ t: "claim", id: frame.id, claimed: claim !== undefined }));
        });
        return;
      case "grant": {
        const pending = this.#claims.get(frame.id);
        this.#claims.delete(frame.id);
        if (pending && frame.ok) this.#run(pending.updateId, pending.claim);
        return;
      }
    }
  }

  // ── Leading ────────────────────────────────────────────────────────────────────────────────

  #accept(socket: net.Socket): void {
    if (this.#role !== "leader") return void socket.destroy();
    const link = new FollowerLink(socket, {
      key: this.#options.key,
      log: this.#log,
      handshakeMs: this.#options.handshakeMs ?? HANDSHAKE_MS,
      answerMs: this.#options.offerTimeoutMs ?? OFFER_TIMEOUT_MS,
      offset: () => this.#offset,
      onReady: (ready) => {
        this.#followers.add(ready);
        this.#parked.offerAll(async (update, take) => {
          const taken = await ready.offer(update, take);
          if (taken) this.#log.info({ updateId: update.update_id }, "a follower that re-connected claimed an update held for it");
          return taken;
        });
      },
      onClose: (closed) => {
        this.#followers.delete(closed);
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
    const local = await this.#decide(raw);
    if (local) return this.#run(idOf(raw), local);
    let unanswered = [...this.#followers].some((follower) => follower.stalled);
    if (isUpdate(raw)) {
      const outcome = await offerToAll([...this.#followers], raw);
      if (outcome === "taken") return;
      unanswered ||= outcome === "unanswered";
      // Its process may be re-connecting: hold it for a moment (strangers' updates are not held).
      if (this.#options.handler.worthHolding?.(raw) !== false && this.#parked.park(raw, unanswered)) return;
    }
    void this.#handleUnclaimed(raw, unanswered);
  }

  async #handleUnclaimed(update: unknown, unanswered: boolean): Promise<void> {
    try {
      const { handler } = this.#options;
      if (!isUpdate(update) || !handler.gathers?.(update)) return await handler.handleUnclaimed(update, undefined, unanswered);
      // A command answered once for every process: each adds its part (its sessions, its prompts).
      const parts = await Promise.all([this.#partFor(update), ...[...this.#followers].map((follower) => follower.gather(update))]);
      await handler.handleUnclaimed(update, parts.filter((part) => part !== undefined && part !== null), unanswered);
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "handling an update failed");
    }
  }

  async #partFor(update: unknown): Promise<unknown> {
    try {
      return await this.#options.handler.partFor?.(update);
    } catch (error) {
      this.#log.warn({ err: errorText(error) }, "could not gather this process' part of a command");
      return undefined;
    }
  }

  #broadcastOffset(offset: number): void {
    this.#offset = offset;
    for (const follower of this.#followers) follower.send({ t: "offset", offset });
  }

  /** This process' claim, unless it handled the update already (re-delivered after a failover). */
  async #decide(update: unknown): Promise<Claim | undefined> {
    const id = idOf(update);
    if (id !== undefined && this.#handled.has(id)) return async () => undefined;
    try {
      return await this.#options.handler.claimUpdate(update);
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "claiming an update failed");
      return undefined;
    }
  }

  /** Runs a granted claim outside the poll loop. */
  #run(updateId: number | undefined, claim: Claim): void {
    if (updateId !== undefined) this.#handled.add(updateId);
    void claim().catch((error) => this.#log.error({ err: errorText(error) }, "handling an update failed"));
  }
}

function idOf(update: unknown): number | undefined {
  const id = (update as { update_id?: unknown } | null)?.update_id;
  return typeof id === "number" ? id : undefined;
}
