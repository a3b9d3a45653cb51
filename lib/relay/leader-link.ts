// A follower's side of its connection to the leader: the leader must prove it holds the bot token
// (so a process that merely got hold of the socket name can't feed forged updates), and after that
// only the frames a leader sends are accepted, each checked. Anything else closes the connection.
import net from "node:net";
import { isProof, newNonce, proofOf } from "./handshake.ts";
import { encode, HANDSHAKE_LINE_LIMIT, LineDecoder, LINE_LIMIT, type RelayMessage } from "./wire.ts";

export type LeaderFrame = Extract<RelayMessage, { t: "offer" | "grant" | "offset" | "gather" }>;

export interface LeaderLinkOptions {
  key: Buffer;
  handshakeMs: number;
  onFrame(frame: LeaderFrame, socket: net.Socket): void;
  /** A frame that broke the rules (the connection is closed right after). */
  onViolation(reason: string): void;
}

/**
 * Connects and runs the handshake. Resolves with the link and the leader's offset once the leader
 * proved itself; undefined when nothing listens, or the other side failed or stalled the proof.
 */
export function connectToLeader(address: string, options: LeaderLinkOptions): Promise<{ socket: net.Socket; offset: number } | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    const decoder = new LineDecoder(HANDSHAKE_LINE_LIMIT);
    const nonce = newNonce();
    let leaderNonce: string | undefined;
    let ready = false;
    const fail = (reason?: string) => {
      clearTimeout(deadline);
      if (reason) options.onViolation(reason);
      socket.destroy();
      if (!ready) resolve(undefined);
    };
    const deadline = setTimeout(() => fail("the relay leader did not prove itself in time"), options.handshakeMs);
    socket.setEncoding("utf8");
    socket.on("error", () => fail());
    socket.on("close", () => fail());
    socket.on("data", (chunk: string) => {
      for (const frame of decoder.push(chunk)) {
        if (socket.destroyed) return;
        if (ready) {
          if (frame.t === "offer" || frame.t === "grant" || frame.t === "offset" || frame.t === "gather") options.onFrame(frame, socket);
          else fail(`an unexpected "${frame.t}" frame from the relay leader`);
        } else if (frame.t === "hello" && leaderNonce === undefined) {
          leaderNonce = frame.nonce;
          socket.write(encode({ t: "auth", nonce, proof: proofOf(options.key, "follower", leaderNonce, nonce) }));
        } else if (frame.t === "welcome" && leaderNonce !== undefined && isProof(options.key, "leader", leaderNonce, nonce, frame.proof)) {
          ready = true;
          clearTimeout(deadline);
          decoder.limit = LINE_LIMIT;
          resolve({ socket, offset: frame.offset });
        } else {
          fail("the relay leader failed the token proof");
        }
      }
      if (decoder.violation && !socket.destroyed) fail(`${decoder.violation} from the relay leader`);
    });
  });
}
