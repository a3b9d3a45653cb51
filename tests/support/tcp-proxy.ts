import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 (random port) in front of a server, to cut a client off without
 * touching the server. `freeze()` stops every byte both ways (open connections stay open but go
 * silent, new ones are accepted and held without an answer); `thaw()` closes what was frozen and
 * lets new connections through again. While the target is down, a connection is closed at once.
 */
export interface TcpProxy {
  url: string;
  port: number;
  frozen: boolean;
  freeze(): void;
  thaw(): void;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? "127.0.0.1";
  const live = new Set<Socket>();
  const held = new Set<Socket>();
  let frozen = false;
  let accepted = 0;

  const track = (socket: Socket) => {
    live.add(socket);
    socket.on("close", () => {
      live.delete(socket);
      held.delete(socket);
    });
    socket.on("error", () => socket.destroy());
  };

  const server: Server = createServer((client) => {
    accepted++;
    track(client);
    if (frozen) {
      client.pause();
      held.add(client);
      return;
    }
    const upstream = connect(target.port, host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get frozen() {
      return frozen;
    },
    freeze() {
      frozen = true;
      for (const socket of live) {
        socket.unpipe();
        socket.pause();
        held.add(socket);
      }
    },
    thaw() {
      frozen = false;
      for (const socket of held) socket.destroy();
      held.clear();
    },
    accepted: () => accepted,
    close() {
      for (const socket of live) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
