// HTTP from the plugin to the OpenCode 2 server it runs in (own-server.ts says where that is):
// the one way a 2.x plugin can answer or dismiss a form. The address is checked once against
// `GET /api/info` (its `pid` must be this process) and then kept; a failed check is retried on the
// next call. Writes retry network errors and 5xx with backoff, never a 4xx (as lib/opencode/api.ts).
import { DEFAULT_RETRY, sendForOutcome, type RetryPolicy } from "../opencode/send-outcome.ts";
import { REQUEST_TIMEOUT_MS } from "../opencode/transport.ts";
import type { Outcome } from "../opencode/endpoint.ts";
import { authHeaders, fillRoute, serverUrl } from "../opencode/http-transport.ts";
import type { OwnServer, OwnServerResult } from "./own-server.ts";

export interface OwnServerClientOptions {
  find: () => OwnServerResult;
  /** The process the server must be (the plugin's own); attach mode checks only that it is OpenCode 2. */
  pid?: number;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
}

export class OwnServerClient {
  readonly #options: OwnServerClientOptions;
  #verified: OwnServer | undefined;

  constructor(options: OwnServerClientOptions) {
    this.#options = options;
  }

  /** The server, checked; or why Hermes cannot reach it. */
  async reach(): Promise<OwnServerResult> {
    if (this.#verified) return { ok: true, server: this.#verified };
    const found = this.#options.find();
    if (!found.ok) return found;
    try {
      const info = await this.#fetch(found.server, "GET", "/api/info");
      const pid = (info.data as { pid?: unknown } | undefined)?.pid;
      if (info.status !== 200) return { ok: false, reason: `${found.server.url}/api/info answered ${info.status}` };
      if (this.#options.pid !== undefined && pid !== this.#options.pid)
        return { ok: false, reason: `${found.server.url} is another OpenCode process (pid ${String(pid)}, not ${this.#options.pid})` };
    } catch (error) {
      return { ok: false, reason: `${found.server.url} cannot be reached: ${error instanceof Error ? error.message : String(error)}` };
    }
    this.#verified = found.server;
    return found;
  }

  /** A POST or DELETE that changes something: 2xx is done, 404 is gone. */
  async send(method: "POST" | "DELETE" | "PATCH", route: string, path: Record<string, string>, body?: unknown): Promise<Outcome> {
    const reached = await this.reach();
    if (!reached.ok) return { ok: false, gone: false, error: reached.reason };
    return sendForOutcome(() => this.#fetch(reached.server, method, fillRoute(route, path), body), this.#retry);
  }

  /**
   * A POST that makes something (a session) or runs something (a shell command): what the server
   * answered, tried once (a retry could make two); throws when unreachable. `timeoutMs`: how long it
   * may take (15 s unless said).
   */
  async create(route: string, body: unknown, timeoutMs: number = REQUEST_TIMEOUT_MS): Promise<{ status: number; data: unknown }> {
    const reached = await this.reach();
    if (!reached.ok) throw new Error(reached.reason);
    return this.#fetch(reached.server, "POST", route, body, timeoutMs);
  }

  /** A read; throws unless the server answered 200. */
  async get(route: string, query: Record<string, string> = {}): Promise<unknown> {
    const reached = await this.reach();
    if (!reached.ok) throw new Error(reached.reason);
    const search = new URLSearchParams(query).toString();
    const result = await this.#fetch(reached.server, "GET", search ? `${route}?${search}` : route);
    if (result.status !== 200) throw new Error(`OpenCode answered ${result.status} to GET ${route}`);
    return result.data;
  }

  get #retry(): RetryPolicy {
    return this.#options.retry ?? DEFAULT_RETRY;
  }

  async #fetch(server: OwnServer, method: string, route: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<{ status: number; data: unknown }> {
    const fetchImpl = this.#options.fetch ?? fetch;
    const hasBody = body !== undefined;
    const response = await fetchImpl(serverUrl(server.url, route), {
      method,
      headers: { accept: "application/json", ...(hasBody ? { "content-type": "application/json" } : {}), ...authHeaders(server.auth) },
      ...(hasBody ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let data: unknown = text === "" ? undefined : text;
    if (text && (response.headers.get("content-type") ?? "").includes("json")) {
      try {
        data = JSON.parse(text) as unknown;
      } catch {
        /* keep the text */
      }
    }
    return { status: response.status, data };
  }
}
