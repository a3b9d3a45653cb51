// Hand-driven relay peers for tests: a raw client or server that speaks the wire format, with or
// without the key, to play strangers, silent followers and fake leaders.
import fs from "node:fs";
import net from "node:net";
import { newNonce, proofOf } from "../../lib/relay/handshake.ts";
import type { RelayMessage } from "../../lib/relay/wire.ts";

export interface RawPeer {
  socket: net.Socket;
  /** Every line received, raw. */
  lines: string[];
  frames(): Array<Record<string, any>>;
  send(frame: RelayMessage | Record<string, unknown>): void;
  closed: Promise<void>;
}

function wrap(socket: net.Socket, onFrame?: (frame: Record<string, any>, peer: RawPeer) => void): RawPeer {
  const lines: string[] = [];
  let buffer = "";
  const peer: RawPeer = {
    socket,
    lines,
    frames: () => lines.map((line) => JSON.parse(line)),
    send: (frame) => void (!socket.destroyed && socket.write(`${JSON.stringify(frame)}\n`)),
    closed: new Promise((resolve) => socket.once("close", () => resolve())),
  };
  socket.setEncoding("utf8");
  socket.on("error", () => undefined);
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      try {
        onFrame?.(JSON.parse(line), peer);
      } catch {
        // not JSON: recorded only
      }
    }
  });
  return peer;
}

/** Connects without doing anything (a silent or stranger connection). */
export async function connectRaw(address: string, onFrame?: (frame: Record<string, any>, peer: RawPeer) => void): Promise<RawPeer> {
  const socket = net.connect(address);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return wrap(socket, onFrame);
}

/** Connects and proves the key like a follower would, then hands every later frame to onFrame. */
export async function connectAuthenticated(address: string, key: Buffer, onFrame?: (frame: Record<string, any>, peer: RawPeer) => void): Promise<RawPeer> {
  const nonce = newNonce();
  let welcomed!: () => void;
  const ready = new Promise<void>((resolve) => (welcomed = resolve));
  const peer = await connectRaw(address, (frame, self) => {
    if (frame.t === "hello") return self.send({ t: "auth", nonce, proof: proofOf(key, "follower", frame.nonce, nonce) });
    if (frame.t === "welcome") return welcomed();
    onFrame?.(frame, self);
  });
  await ready;
  return peer;
}

/**
 * A server at `address` playing leader: with a key it passes the handshake honestly, without one
 * it sends a made-up proof. After that it runs `script` for each connection. While `greets()` is
 * false a connection is accepted and left silent (a leader being killed).
 */
export async function fakeLeader(
  address: string,
  key: Buffer | undefined,
  script: (peer: RawPeer) => void,
  greets: () => boolean = () => true,
): Promise<{ server: net.Server; peers: RawPeer[]; close(): Promise<void> }> {
  const peers: RawPeer[] = [];
  const server = net.createServer((socket) => {
    const nonce = newNonce();
    const peer = wrap(socket, (frame, self) => {
      if (frame.t !== "auth") return;
      const proof = key ? proofOf(key, "leader", nonce, frame.nonce) : newNonce();
      self.send({ t: "welcome", proof, offset: 0 });
      script(self);
    });
    peers.push(peer);
    if (greets()) peer.send({ t: "hello", nonce });
  });
  await new Promise<void>((resolve) => server.listen(address, resolve));
  return {
    server,
    peers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const peer of peers) peer.socket.destroy();
        server.close(() => resolve());
        fs.rmSync(address, { force: true });
      }),
  };
}
