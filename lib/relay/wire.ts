// The relay's wire format: one JSON object per line. Pure.

export type RelayMessage =
  /** leader → follower: does this update concern you? */
  | { t: "offer"; id: number; update: unknown }
  /** follower → leader: the answer to an offer */
  | { t: "claim"; id: number; claimed: boolean }
  /** leader → followers: every update below this id has been handled */
  | { t: "offset"; offset: number }
  /** leader → follower: a command answered once for all; what do you add to it? */
  | { t: "gather"; id: number; update: unknown }
  /** follower → leader: that process' part of the answer */
  | { t: "part"; id: number; part: unknown };

const MAX_LINE = 1_000_000;

export function encode(message: RelayMessage): string {
  return JSON.stringify(message) + "\n";
}

/** Splits a byte stream into messages; malformed lines are dropped, and an endless line is cut off. */
export class LineDecoder {
  #buffer = "";

  push(chunk: string): RelayMessage[] {
    this.#buffer += chunk;
    const messages: RelayMessage[] = [];
    let newline = this.#buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      const message = decode(line);
      if (message) messages.push(message);
      newline = this.#buffer.indexOf("\n");
    }
    if (this.#buffer.length > MAX_LINE) this.#buffer = "";
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
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.t === "offer" && Number.isSafeInteger(message.id) && "update" in message) return { t: "offer", id: message.id as number, update: message.update };
  if (message.t === "claim" && Number.isSafeInteger(message.id) && typeof message.claimed === "boolean") return { t: "claim", id: message.id as number, claimed: message.claimed };
  if (message.t === "offset" && Number.isSafeInteger(message.offset)) return { t: "offset", offset: message.offset as number };
  if (message.t === "gather" && Number.isSafeInteger(message.id) && "update" in message) return { t: "gather", id: message.id as number, update: message.update };
  if (message.t === "part" && Number.isSafeInteger(message.id)) return { t: "part", id: message.id as number, part: message.part };
  return undefined;
}
