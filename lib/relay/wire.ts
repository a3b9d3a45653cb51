// The relay's wire format: one JSON object per line, every frame checked against its exact shape
// (the socket is a trust boundary: a frame that doesn't fit closes the connection). Pure.
import { isRecord } from "../util/is-record.ts";
import { TOKEN_TEXT_LENGTH } from "./handshake.ts";

export type RelayMessage =
  /** leader → newcomer, first: a fresh nonce to prove itself against */
  | { t: "hello"; nonce: string }
  /** newcomer → leader: its own nonce and its proof */
  | { t: "auth"; nonce: string; proof: string }
  /** leader → follower: the leader's proof, and where polling stands */
  | { t: "welcome"; proof: string; offset: number }
  /** leader → follower: does this update concern you? */
  | { t: "offer"; id: number; update: Update }
  /** follower → leader: the answer to an offer (nothing is done yet) */
  | { t: "claim"; id: number; claimed: boolean }
  /** leader → follower: act on your claim (ok), or not: another process took it, or the answer came too late */
  | { t: "grant"; id: number; ok: boolean }
  /** leader → followers: every update below this id has been handled */
  | { t: "offset"; offset: number }
  /** leader → follower: a command answered once for all; what do you add to it? */
  | { t: "gather"; id: number; update: Update }
  /** follower → leader: that process' part of the answer (its shape is checked by whoever uses it) */
  | { t: "part"; id: number; part: unknown };

export interface Update {
  update_id: number;
  [key: string]: unknown;
}

/** Telegram's update ids are 32-bit; an offset beyond the next one is forged. */
const MAX_OFFSET = 2 ** 31;
/** Before the handshake only short frames are accepted. */
export const HANDSHAKE_LINE_LIMIT = 512;
/** After it: an update (a 4096-character message, its entities and the message it replies to) fits with room to spare. */
export const LINE_LIMIT = 1_000_000;

export function encode(message: RelayMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Splits a byte stream into frames. A malformed frame or an over-long line ends the stream:
 * `violation` says why, and the frames before it are still returned.
 */
export class LineDecoder {
  #buffer = "";
  limit: number;
  violation?: string;

  constructor(limit = LINE_LIMIT) {
    this.limit = limit;
  }

  push(chunk: string): RelayMessage[] {
    if (this.violation) return [];
    this.#buffer += chunk;
    const messages: RelayMessage[] = [];
    let newline = this.#buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.length > this.limit) return this.#broken(messages, `a frame of ${line.length} characters (limit ${this.limit})`);
      const message = decode(line);
      if (!message) return this.#broken(messages, "a malformed frame");
      messages.push(message);
      newline = this.#buffer.indexOf("\n");
    }
    if (this.#buffer.length > this.limit) return this.#broken(messages, `a line longer than ${this.limit} characters`);
    return messages;
  }

  #broken(messages: RelayMessage[], reason: string): RelayMessage[] {
    this.violation = reason;
    this.#buffer = "";
    return messages;
  }
}

export function decode(line: string): RelayMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const m = value;
  switch (m.t) {
    case "hello":
      return isSecret(m.nonce) ? { t: "hello", nonce: m.nonce } : undefined;
    case "auth":
      return isSecret(m.nonce) && isSecret(m.proof) ? { t: "auth", nonce: m.nonce, proof: m.proof } : undefined;
    case "welcome":
      return isSecret(m.proof) && isOffset(m.offset) ? { t: "welcome", proof: m.proof, offset: m.offset } : undefined;
    case "offer":
    case "gather":
      return isId(m.id) && isUpdate(m.update) ? { t: m.t, id: m.id, update: m.update } : undefined;
    case "claim":
      return isId(m.id) && typeof m.claimed === "boolean" ? { t: "claim", id: m.id, claimed: m.claimed } : undefined;
    case "grant":
      return isId(m.id) && typeof m.ok === "boolean" ? { t: "grant", id: m.id, ok: m.ok } : undefined;
    case "offset":
      return isOffset(m.offset) ? { t: "offset", offset: m.offset } : undefined;
    case "part":
      return isId(m.id) && "part" in m ? { t: "part", id: m.id, part: m.part } : undefined;
    default:
      return undefined;
  }
}

function isOffset(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_OFFSET;
}

/** What the leader may offer: a Telegram update, an object with a plausible update id. */
export function isUpdate(value: unknown): value is Update {
  return isRecord(value) && Number.isSafeInteger(value.update_id) && (value.update_id as number) >= 0 && (value.update_id as number) < MAX_OFFSET;
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function isSecret(value: unknown): value is string {
  return typeof value === "string" && value.length === TOKEN_TEXT_LENGTH && /^[A-Za-z0-9_-]+$/.test(value);
}
