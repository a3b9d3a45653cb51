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
//
// When the relay cannot run at all (an unsafe directory, a socket path too long), this process polls
// on its own (solo-role.ts) rather than go deaf.
//
// This file owns the election and the role this process plays; what a leader runs is leader-role.ts,
// what a follower does with its leader's frames is follower-role.ts, and this process' own claims (as
// either) are local-claims.ts.
import path from "node:path";
import type net from "node:net";
import type { Logger } from "../system/log.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import { errorText } from "../util/error-text.ts";
import { FollowerRole } from "./follower-role.ts";
import { LeaderRole } from "./leader-role.ts";
import { connectToLeader } from "./leader-link.ts";
import { LocalClaims } from "./local-claims.ts";
import { sleep } from "../util/sleep.ts";
import { ensurePrivateDirectory } from "../system/private-dir.ts";
import type { SoloRole } from "./solo-role.ts";
import { bindExclusive, releaseName, type BoundSocket } from "./socket-file.ts";
import type { UpdateHandler } from "./update-handler.ts";

export interface RelayOptions {
  /** The socket file; its directory is created private (0700) and checked. */
  address: string;
  /** Derived from the bot token (handshake.ts relayKey): what both sides prove they hold. */
  key: Buffer;
  telegram: TelegramApi;
  handler: UpdateHandler;
  logger: Logger;
  onConflict?: () => void;
  /** The relay can't run (its directory is unsafe, its path too long): told once, with the reason; this process then polls alone. */
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

/** `solo`: the relay could not run, and this process polls on its own. */
export type RelayRole = "electing" | "leader" | "follower" | "solo" | "stopped";

const HANDSHAKE_MS = 1_000;
/** The longest path a Unix socket takes on Linux (sun_path is 108 bytes, with its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
/** What bindExclusive adds to the socket's name for its temporary name (".", 12 hex digits). */
const TEMPORARY_SUFFIX_BYTES = 13;
const OFFER_TIMEOUT_MS = 2_000;
/**
 * How long a new leader holds what nobody claims, for followers still re-connecting: long enough
 * for one re-connect attempt stuck on the dead leader (HANDSHAKE_MS) and a retry, short enough that
 * a tap's spinner stops soon (a claimed tap is answered as soon as its process is back).
 */
const TAKEOVER_GRACE_MS = 3_000;

export class Relay {
  readonly #options: RelayOptions;
  readonly #log: Logger;
  readonly #local: LocalClaims;
  readonly #follower: FollowerRole;
  #role: RelayRole = "electing";
  #offset = 0;
  #leader?: LeaderRole;
  #solo?: SoloRole;
  #leaderSocket?: net.Socket;
  #electing?: Promise<void>;
  /** This process followed another leader: when it leads next, it takes over (and parks). */
  #followed = false;

  constructor(options: RelayOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#local = new LocalClaims(options.handler, options.logger);
    this.#follower = new FollowerRole(this.#local, (offset) => {
      this.#offset = Math.max(this.#offset, offset);
      // The leader's poll got through: Telegram answers, and this process' outbox sends what waits.
      options.telegram.reachability?.answered();
    });
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
    await Promise.all([this.#resign(), this.#electing, this.#solo?.close()]);
  }

  // ── Election ───────────────────────────────────────────────────────────────────────────────

  async #elect(): Promise<void> {
    const { address } = this.#options;
    try {
      const length = Buffer.byteLength(address) + TEMPORARY_SUFFIX_BYTES;
      if (length > MAX_SOCKET_PATH_BYTES)
        throw new Error(`the relay's socket path ${address} is too long for a Unix socket (${length} of ${MAX_SOCKET_PATH_BYTES} bytes)`);
      ensurePrivateDirectory(path.dirname(address));
    } catch (error) {
      if (this.#isStopped()) return;
      this.#log.error({ err: errorText(error) }, "the relay cannot run; this process polls Telegram on its own (a second one would get 409 Conflict)");
      this.#options.onUnavailable?.(errorText(error));
      await this.#goSolo();
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
      onFrame: (frame, socket) => this.#follower.onFrame(frame, socket),
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

  /**
   * Polls without the relay: nobody else to ask about an update. Rare, so its code loads only then;
   * a broken install that cannot load it gets one error line (never a rejection inside OpenCode).
   */
  async #goSolo(): Promise<void> {
    this.#role = "solo";
    const loaded = await import("./solo-role.ts").catch((error: unknown) => {
      this.#log.error({ err: errorText(error) }, "could not load the solo poller; this process does not poll Telegram");
      return undefined;
    });
    if (!loaded || this.#isStopped()) return;
    const { SoloRole } = loaded;
    const options = this.#options;
    this.#solo = new SoloRole({
      telegram: options.telegram,
      handler: options.handler,
      local: this.#local,
      log: this.#log,
      offset: this.#offset,
      onOffset: (offset) => (this.#offset = offset),
      ...(options.onConflict ? { onConflict: options.onConflict } : {}),
      ...(options.pollTimeoutSeconds !== undefined ? { pollTimeoutSeconds: options.pollTimeoutSeconds } : {}),
      ...(options.pollGraceMs !== undefined ? { pollGraceMs: options.pollGraceMs } : {}),
    });
  }

  // ── Leading ────────────────────────────────────────────────────────────────────────────────

  #lead(bound: BoundSocket): void {
    const options = this.#options;
    this.#role = "leader";
    this.#log.debug({ offset: this.#offset }, "this process polls Telegram for the bot (relay leader)");
    const takeover = this.#followed;
    this.#followed = false;
    this.#leader = new LeaderRole(bound, {
      address: options.address,
      key: options.key,
      telegram: options.telegram,
      handler: options.handler,
      local: this.#local,
      log: this.#log,
      handshakeMs: options.handshakeMs ?? HANDSHAKE_MS,
      offerTimeoutMs: options.offerTimeoutMs ?? OFFER_TIMEOUT_MS,
      ...(takeover ? { takeoverGraceMs: options.takeoverGraceMs ?? TAKEOVER_GRACE_MS } : {}),
      offset: () => this.#offset,
      onOffset: (offset) => (this.#offset = offset),
      onNameLost: () => {
        if (this.#role === "leader") void this.#stepDown();
      },
      ...(options.onConflict ? { onConflict: options.onConflict } : {}),
      ...(options.pollTimeoutSeconds !== undefined ? { pollTimeoutSeconds: options.pollTimeoutSeconds } : {}),
      ...(options.pollGraceMs !== undefined ? { pollGraceMs: options.pollGraceMs } : {}),
    });
  }

  #accept(socket: net.Socket): void {
    if (this.#role !== "leader" || !this.#leader) return void socket.destroy();
    this.#leader.accept(socket);
  }

  async #stepDown(): Promise<void> {
    this.#log.warn("another process took over the relay socket; electing again");
    this.#role = "electing";
    await this.#resign();
    if (this.#role === "electing") this.#electing = this.#elect();
  }

  /** Stops leading, if it does: polling ends, followers are let go, and the socket name is freed if still ours. */
  async #resign(): Promise<void> {
    const leader = this.#leader;
    this.#leader = undefined;
    await leader?.close();
  }

  // ── Following ──────────────────────────────────────────────────────────────────────────────

  #follow(socket: net.Socket, offset: number): void {
    this.#role = "follower";
    this.#followed = true;
    this.#leaderSocket = socket;
    this.#offset = Math.max(this.#offset, offset);
    this.#log.debug("another process polls Telegram for this bot; following it (relay follower)");
    socket.on("close", () => {
      this.#follower.leaderGone();
      if (this.#role === "stopped" || this.#leaderSocket !== socket) return;
      this.#leaderSocket = undefined;
      this.#role = "electing";
      this.#log.info({ offset: this.#offset }, "the relay leader went away; electing a new one");
      this.#electing = this.#elect();
    });
  }
}
