// The leader's side of one connection: a newcomer must prove it holds the bot token within a short
// deadline (else it is closed, having seen nothing but a nonce); then it is a follower that gets
// offers and gather requests. Every frame is checked, and a frame that doesn't fit closes the link.
// A follower that lets an offer go unanswered is "stalled": it gets no offers (nobody waits for it)
// until it answers again. A claim that arrives after the leader stopped waiting is refused, so the
// follower never acts on an update the leader has already answered itself.
import type net from "node:net";
import type { Logger } from "../system/log.ts";
import { isProof, newNonce, proofOf } from "./handshake.ts";
import { encode, HANDSHAKE_LINE_LIMIT, LineDecoder, LINE_LIMIT, type RelayMessage, type Update } from "./wire.ts";

export interface FollowerLinkOptions {
  key: Buffer;
  log: Logger;
  /** How long a newcomer has to prove itself. */
  handshakeMs: number;
  /** How long an offer or gather waits for the answer. */
  answerMs: number;
  /** Where polling stands, told to a follower once it proved itself. */
  offset(): number;
  onReady(link: FollowerLink): void;
  onClose(link: FollowerLink): void;
}

interface Waiter {
  kind: "offer" | "gather";
  resolve(answer: unknown): void;
}

/** Unread data a follower may leave queued before it is dropped. */
const MAX_BACKLOG = 8 * 1024 * 1024;

export class FollowerLink {
  readonly #socket: net.Socket;
  readonly #options: FollowerLinkOptions;
  readonly #nonce = newNonce();
  readonly #decoder = new LineDecoder(HANDSHAKE_LINE_LIMIT);
  readonly #waiting = new Map<number, Waiter>();
  #state: "proving" | "ready" | "closed" = "proving";
  readonly #deadline: ReturnType<typeof setTimeout>;
  #nextId = 1;
  /** Let an offer or gather go unanswered; not asked again until it answers something. */
  stalled = false;

  constructor(socket: net.Socket, options: FollowerLinkOptions) {
    this.#socket = socket;
    this.#options = options;
    const deadline = setTimeout(() => this.close("no token proof in time"), options.handshakeMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.#onData(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(deadline);
      this.#state = "closed";
      for (const waiter of this.#waiting.values()) waiter.resolve(undefined);
      this.#waiting.clear();
      options.onClose(this);
    });
    this.#deadline = deadline;
    this.#send({ t: "hello", nonce: this.#nonce });
  }

  get ready(): boolean {
    return this.#state === "ready";
  }

  /**
   * Offers an update. True: the follower claimed it and `take()` let it have it (it acts now).
   * False: declined, or claimed after another process took it. Undefined: no answer in time.
   */
  offer(update: Update, take: () => boolean): Promise<boolean | undefined> {
    return this.#ask("offer", update, (claimed, id) => {
      if (claimed !== true) return false;
      const ok = take();
      this.#send({ t: "grant", id, ok });
      return ok;
    }) as Promise<boolean | undefined>;
  }

  /** This follower's part of a command answered once for all (undefined: none, or no answer in time). */
  gather(update: Update): Promise<unknown> {
    return this.#ask("gather", update, (part) => part);
  }

  send(message: RelayMessage): void {
    if (this.#state === "ready") this.#send(message);
  }

  close(reason: string): void {
    if (this.#state === "closed" || this.#socket.destroyed) return;
    this.#options.log.warn({ reason }, "closed a relay connection");
    this.#socket.destroy();
  }

  #ask(kind: Waiter["kind"], update: Update, onAnswer: (answer: unknown, id: number) => unknown): Promise<unknown> {
    if (this.#state !== "ready" || this.stalled) return Promise.resolve(undefined);
    const id = this.#nextId++;
    const line = encode({ t: kind, id, update });
    if (line.length > LINE_LIMIT) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        this.stalled = true;
        this.#options.log.warn({ kind }, "a relay follower did not answer in time; not waiting for it until it answers again");
        resolve(undefined);
      }, this.#options.answerMs);
      this.#waiting.set(id, {
        kind,
        resolve: (answer) => {
          clearTimeout(timer);
          this.#waiting.delete(id);
          resolve(answer === undefined ? undefined : onAnswer(answer, id));
        },
      });
      this.#write(line);
    });
  }

  #send(message: RelayMessage): void {
    this.#write(encode(message));
  }

  #write(line: string): void {
    if (this.#socket.destroyed) return;
    if (this.#socket.writableLength > MAX_BACKLOG) {
      this.close("a follower that stopped reading");
      return;
    }
    this.#socket.write(line);
  }

  #onData(chunk: string): void {
    for (const frame of this.#decoder.push(chunk)) {
      if (this.#state === "closed") return;
      if (this.#state === "proving") this.#onProof(frame);
      else this.#onAnswer(frame);
    }
    if (this.#decoder.violation) this.close(this.#decoder.violation);
  }

  #onProof(frame: RelayMessage): void {
    if (frame.t !== "auth" || !isProof(this.#options.key, "follower", this.#nonce, frame.nonce, frame.proof)) {
      this.close("failed the token proof");
      return;
    }
    clearTimeout(this.#deadline);
    this.#state = "ready";
    this.#decoder.limit = LINE_LIMIT;
    this.#send({ t: "welcome", proof: proofOf(this.#options.key, "leader", this.#nonce, frame.nonce), offset: this.#options.offset() });
    this.#options.onReady(this);
  }

  #onAnswer(frame: RelayMessage): void {
    if (frame.t !== "claim" && frame.t !== "part") {
      this.close(`an unexpected "${frame.t}" frame from a follower`);
      return;
    }
    this.stalled = false;
    const waiter = this.#waiting.get(frame.id);
    if (frame.t === "claim") {
      if (waiter?.kind === "offer") {
        waiter.resolve(frame.claimed);
        return;
      }
      // Too late: the leader has decided without it. Tell it not to act.
      if (frame.claimed) this.#send({ t: "grant", id: frame.id, ok: false });
      return;
    }
    if (waiter?.kind === "gather") waiter.resolve(frame.part ?? null);
  }
}

/**
 * Offers an update to every follower that answers at once; the first claim wins and later ones are
 * refused. "unanswered": some follower let the offer time out (the update may be its own).
 */
export function offerToAll(links: FollowerLink[], update: Update): Promise<"taken" | "declined" | "unanswered"> {
  const followers = links.filter((follower) => follower.ready && !follower.stalled);
  if (followers.length === 0) return Promise.resolve("declined");
  return new Promise((resolve) => {
    let taken = false;
    let silent = false;
    let waiting = followers.length;
    /** The first caller takes the update; every later one is told no. */
    const take = () => {
      if (taken) return false;
      taken = true;
      return true;
    };
    for (const follower of followers) {
      void follower.offer(update, take).then((answer) => {
        if (answer === true) return resolve("taken");
        silent ||= answer === undefined;
        if (--waiting === 0) resolve(taken ? "taken" : silent ? "unanswered" : "declined");
      });
    }
  });
}
