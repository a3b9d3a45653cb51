// An OpencodeTransport over HTTP to a running `opencode serve` (attach mode), for one directory
// instance. The plugin uses the plugin client's own transport instead (transport.ts); OpencodeApi
// sits on either and knows the routes.
//
// - The instance is named with `?directory=` on every request. (OpenCode also reads the header
//   `x-opencode-directory`, but a header can't carry a non-ASCII path; a query parameter can.)
// - HTTP Basic auth when the server has a password (`OPENCODE_SERVER_PASSWORD`). Measured: with a
//   password every route answers 401 without it on 1.18.33 and 1.1.53; `?auth_token=` works on
//   1.18.33 only, so the header it is.
// - `{name}` placeholders in the route come from `options.path`, URL-encoded.
import { REQUEST_TIMEOUT_MS, type HttpResult, type OpencodeTransport } from "./transport.ts";

export interface ServerAuth {
  username: string;
  password: string;
}

export const DEFAULT_SERVER_USERNAME = "opencode";

type Env = Record<string, string | undefined>;

/** Flags win over `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`; no password means no auth. */
export function serverAuthFrom(env: Env, flags: { username?: string | undefined; password?: string | undefined } = {}): ServerAuth | undefined {
  const password = flags.password ?? env.OPENCODE_SERVER_PASSWORD;
  if (!password) return undefined;
  const username = flags.username || env.OPENCODE_SERVER_USERNAME || DEFAULT_SERVER_USERNAME;
  return { username, password };
}

export function authHeaders(auth: ServerAuth | undefined): Record<string, string> {
  if (!auth) return {};
  return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`, "utf8").toString("base64")}` };
}

/**
 * `base` + `route` (the base may carry a path prefix, e.g. behind a reverse proxy), plus the
 * route's own query string and `query`.
 */
export function serverUrl(base: string, route: string, query: Record<string, string | undefined> = {}): URL {
  const url = new URL(base);
  const at = route.indexOf("?");
  const pathname = at === -1 ? route : route.slice(0, at);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${pathname.replace(/^\/+/, "")}`;
  url.search = at === -1 ? "" : route.slice(at);
  url.hash = "";
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** Fills `{name}` placeholders from `path`; a missing one is a programming error. */
export function fillRoute(route: string, path: Record<string, string> = {}): string {
  return route.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = path[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${route}`);
    return encodeURIComponent(value);
  });
}

export interface HttpTransportOptions {
  baseUrl: string;
  /** The instance every request goes to; without it, the server's own working directory. */
  directory?: string;
  auth?: ServerAuth;
  /** When the caller passes no signal. Default 15 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function httpTransport(options: HttpTransportOptions): OpencodeTransport {
  const fetchImpl = options.fetch ?? fetch;
  const auth = authHeaders(options.auth);
  return {
    async request(method, route, request = {}) {
      const url = serverUrl(options.baseUrl, fillRoute(route, request.path), { directory: options.directory });
      const hasBody = request.body !== undefined;
      const response = await fetchImpl(url, {
        method,
        headers: { accept: "application/json", ...(hasBody ? { "content-type": "application/json" } : {}), ...auth },
        ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
        signal: request.signal ?? AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
      return { status: response.status, data: await readBody(response) } satisfies HttpResult;
    },
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  if (!(response.headers.get("content-type") ?? "").includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
