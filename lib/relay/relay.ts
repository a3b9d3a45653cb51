// Several OpenCode processes may share one bot token, but Telegram allows one getUpdates consumer.
// The relay elects one leader per machine (whoever binds the token's local socket), which polls
// and offers each update to every process in turn until one claims it; what nobody claims the
// leader handles itself. When the leader goes, a follower takes over from the last offset.
import net from "node:net";
import fs from "node:fs";
import type { Logger } from "../log.ts";
import type { TelegramApi } from "../telegram/api.ts";
import { describe, startPoller, type Poller } from "../telegram/poller.ts";
import { isAbstract } from "./address.ts";
import { RecentIds } from "./recent-ids.ts";
import { encode, LineDecoder, type RelayMessage } from "./wire.ts";

/** What one process does with updates: the Bridge. */
export interface UpdateHandler {
  claimUpdate(update: unknown): Promise<boolean>;
  /** Whether an unclaimed update is a command answered once with every process' part (/status). */
  gathers?(update: unknown): boolean;
  /** This process' part of such an answer (its sessions and prompts), JSON-serialisable. */
  partFor?(update: unknown): Promise<unknown>;
  /** Answers what nobody claimed, with the parts gathered from every process for a command. */
  handleUnclaimed(update: unknown, parts?: unknown[]): Promise<void>;
  /** This process became the one that polls (a good moment to register the bot's commands). */
  onLead?(): void;
}

export interface RelayOptions {
  address: string;
  telegram: TelegramApi;
  handler: UpdateHandler;
  logger: Logger;
  onConflict?: () => void;
  pollTimeoutSeconds?: number;
  pollGraceMs?: number;
  /** How long the leader waits for a follower to answer an offer. */
  offerTimeoutMs?: number;
}

export type RelayRole = "electing" | "leader" | "follower" | "stopped";

interface Follower {
  socket: net.Socket;
  /** Answers awaited from this follower (claims and command parts), by request id. */
  waiting: Map<number, (answer: unknown) => void>;
}

export class Relay {
  readonly #options: RelayOptions;
  readonly #log: Logger;
  readonly #handled = new RecentIds();
  readonly #followers = new Set<Follower>();
  #role: RelayRole = "electing";
  #offset = 0;
  #nextRequestId = 1;
  #server?: net.Server;
  #poller?: Poller;
  #leaderSocket?: net.Socket;
  #electing?: Promise<void>;

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
    for (const follower of this.#followers) follower.socket.destroy();
    this.#followers.clear();
    await Promise.all([
      this.#poller?.stop(),
      new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve())),
      this.#electing,
    ]);
  }

  // ── Election ───────────────────────────────────────────────────────────────────────────────

  async #elect(): Promise<void> {
    let attempt = 0;
    while (!this.#isStopped()) {
      if (await this.#tryLead()) return;
      if (this.#isStopped()) return;
      const leader = await connect(this.#options.address).catch(() => undefined);
      if (leader) return this.#follow(leader);
      // Nobody answers on a socket file left by a dead leader (non-Linux): clear it and retry.
      if (!isAbstract(this.#options.address)) fs.rmSync(this.#options.address, { force: true });
      await sleep(Math.min(1_000, 25 * 2 ** attempt++));
    }
  }

  #isStopped(): boolean {
    return this.#role === "stopped";
  }

  #tryLead(): Promise<boolean> {
    return new Promise((resolve) => {
      const server = net.createServer((socket) => this.#acceptFollower(socket));
      server.once("error", () => resolve(false));
      server.listen(this.#options.address, () => {
        if (this.#role === "stopped") {
          server.close();
          return resolve(false);
        }
        this.#server = server;
        this.#becomeLeader();
        resolve(true);
      });
    });
  }

  #becomeLeader(): void {
    this.#role = "leader";
    this.#log.info({ offset: this.#offset }, "this process polls Telegram for the bot (relay leader)");
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

  #follow(socket: net.Socket): void {
    this.#role = "follower";
    this.#leaderSocket = socket;
    this.#log.info("another process polls Telegram for this bot; following it (relay follower)");
    const decoder = new LineDecoder();
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      for (const message of decoder.push(chunk)) void this.#onLeaderMessage(socket, message);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (this.#role === "stopped") return;
      this.#leaderSocket = undefined;
      this.#role = "electing";
      this.#log.info({ offset: this.#offset }, "the relay leader went away; electing a new one");
      this.#electing = this.#elect();
    });
  }

  async #onLeaderMessage(socket: net.Socket, message: RelayMessage): Promise<void> {
    if (message.t === "offset") {
      this.#offset = Math.max(this.#offset, message.offset);
      return;
    }
    if (message.t === "gather") {
      const part = await this.#partFor(message.update);
      if (!socket.destroyed) socket.write(encode({ t: "part", id: message.id, part: part ?? null }));
      return;
    }
    if (message.t !== "offer") return;
    const claimed = await this.#claimOnce(message.update);
    if (!socket.destroyed) socket.write(encode({ t: "claim", id: message.id, claimed }));
  }

  // ── Leading ────────────────────────────────────────────────────────────────────────────────

  #acceptFollower(socket: net.Socket): void {
    const follower: Follower = { socket, waiting: new Map() };
    this.#followers.add(follower);
    const decoder = new LineDecoder();
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      for (const message of decoder.push(chunk)) {
        if (message.t === "claim") follower.waiting.get(message.id)?.(message.claimed);
        if (message.t === "part") follower.waiting.get(message.id)?.(message.part);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.#followers.delete(follower);
      for (const answer of follower.waiting.values()) answer(undefined);
    });
    // A newcomer learns where polling stands, in case it has to take over.
    socket.write(encode({ t: "offset", offset: this.#offset }));
  }

  /** Offers the update here, then to each follower in turn; the leader handles what nobody claims. */
  async #dispatch(update: unknown): Promise<void> {
    if (await this.#claimOnce(update)) return;
    for (const follower of [...this.#followers]) {
      if (await this.#offer(follower, update)) return;
    }
    if (!this.#options.handler.gathers?.(update)) return this.#options.handler.handleUnclaimed(update);
    // A command answered once for every process: each adds its part (its sessions, its prompts).
    const parts = await Promise.all([this.#partFor(update), ...[...this.#followers].map((follower) => this.#gather(follower, update))]);
    await this.#options.handler.handleUnclaimed(update, parts.filter((part) => part !== undefined && part !== null));
  }

  async #partFor(update: unknown): Promise<unknown> {
    try {
      return await this.#options.handler.partFor?.(update);
    } catch (error) {
      this.#log.warn({ err: describe(error) }, "could not gather this process' part of a command");
      return undefined;
    }
  }

  #gather(follower: Follower, update: unknown): Promise<unknown> {
    return this.#ask(follower, (id) => ({ t: "gather", id, update }));
  }

  async #offer(follower: Follower, update: unknown): Promise<boolean> {
    return (await this.#ask(follower, (id) => ({ t: "offer", id, update }))) === true;
  }

  /** Sends a request to a follower and waits for its answer; a silent or gone follower answers undefined. */
  #ask(follower: Follower, request: (id: number) => RelayMessage): Promise<unknown> {
    const id = this.#nextRequestId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(undefined), this.#options.offerTimeoutMs ?? 2_000);
      const answer = (value: unknown) => {
        clearTimeout(timer);
        follower.waiting.delete(id);
        resolve(value);
      };
      follower.waiting.set(id, answer);
      follower.socket.write(encode(request(id)), (error) => error && answer(undefined));
    });
  }

  #broadcastOffset(offset: number): void {
    this.#offset = offset;
    for (const follower of this.#followers) follower.socket.write(encode({ t: "offset", offset }));
  }

  /** Claims an update unless this process handled it already (re-delivered after a failover). */
  async #claimOnce(update: unknown): Promise<boolean> {
    const id = (update as { update_id?: unknown } | null)?.update_id;
    if (typeof id === "number" && this.#handled.has(id)) return true;
    try {
      const claimed = await this.#options.handler.claimUpdate(update);
      if (claimed && typeof id === "number") this.#handled.add(id);
      return claimed;
    } catch (error) {
      this.#log.error({ err: describe(error) }, "claiming an update failed");
      return false;
    }
  }
}

function connect(address: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
