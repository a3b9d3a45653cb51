// A tiny "OpenCode" for the benchmark: a loopback HTTP server that answers the routes Hermes uses
// (replies are 200 `true`, lists are empty) and tells the bench when a reply arrives, plus an
// OpencodeTransport that reaches it with fetch, as the plugin's client does.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpResult, OpencodeTransport } from "../lib/opencode/transport.ts";
import { listenLoopback, readBody, sendJson } from "../tests/support/loopback-server.ts";

export interface ReplyArrival {
  requestID: string;
  /** `question` or `permission`, and `reply` or `reject`. */
  kind: string;
  action: string;
  body: unknown;
  /** performance.now() when the request reached the handler. */
  at: number;
}

export interface FakeOpencodeServer {
  origin: string;
  /** Called for every POST /question|permission/:id/reply|reject, before it is answered. */
  onReply: (arrival: ReplyArrival) => void;
  replies: number;
  close(): Promise<void>;
}

export async function startFakeOpencodeServer(): Promise<FakeOpencodeServer> {
  const server: FakeOpencodeServer = {
    origin: "",
    onReply: () => undefined,
    replies: 0,
    close: () => Promise.resolve(),
  };
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = performance.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = /^\/(question|permission)\/([^/]+)\/(reply|reject)$/.exec(url.pathname);
    if (req.method === "POST" && route) {
      const raw = await readBody(req);
      const body: unknown = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
      server.replies++;
      server.onReply({ kind: route[1]!, requestID: decodeURIComponent(route[2]!), action: route[3]!, body, at });
      return sendJson(res, 200, true);
    }
    await readBody(req);
    if (req.method === "GET" && (url.pathname === "/question" || url.pathname === "/permission")) return sendJson(res, 200, []);
    return sendJson(res, 404, { name: "NotFoundError", data: { message: `no route ${req.method} ${url.pathname}` } });
  }
  const loopback = await listenLoopback(handle);
  server.origin = loopback.origin;
  server.close = () => loopback.close();
  return server;
}

/** OpenCode's HTTP API over fetch (JSON in and out), with `{name}` placeholders filled from `path`. */
export function fetchTransport(origin: string): OpencodeTransport {
  return {
    async request(method, url, options = {}): Promise<HttpResult> {
      const route = url.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(options.path?.[name] ?? ""));
      const hasBody = options.body !== undefined;
      const response = await fetch(`${origin}${route}`, {
        method,
        headers: hasBody ? { "content-type": "application/json" } : {},
        ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const text = await response.text();
      let data: unknown = text;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, data };
    },
  };
}
