// How Hermes reaches one OpenCode instance. Inside the plugin: the plugin client's own transport
// (in-process, carries the directory and auth). Outside (attach mode): HTTP to the server.

/** How long one request to OpenCode may take (a reply, a list, a config read), in either transport. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface HttpResult {
  status: number;
  data: unknown;
}

export interface OpencodeTransport {
  request(
    method: "GET" | "POST" | "PATCH",
    url: string,
    options?: { path?: Record<string, string>; body?: unknown; signal?: AbortSignal },
  ): Promise<HttpResult>;
}

/** The raw hey-api client behind `PluginInput.client` (`client._client`). */
export interface RawPluginClient {
  get(options: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response?: Response }>;
  post(options: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response?: Response }>;
  patch?(options: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response?: Response }>;
}

/**
 * `directory`: the instance's own directory, sent with every request. OpenCode 1.1.53's plugin
 * client does not carry it (measured 2026-11-22: with two projects in one `opencode serve`, a
 * prompt for the second one's session went to the first and got NotFoundError), so it is added
 * here, encoded as OpenCode's own SDK does (only when not ASCII).
 */
export function pluginClientTransport(client: unknown, directory?: string): OpencodeTransport | undefined {
  const raw = (client as { _client?: RawPluginClient } | undefined)?._client;
  if (!raw || typeof raw.get !== "function" || typeof raw.post !== "function") return undefined;
  // eslint-disable-next-line no-control-regex
  const where = directory ? { "x-opencode-directory": /[^\x00-\x7F]/.test(directory) ? encodeURIComponent(directory) : directory } : undefined;
  return {
    async request(method, url, options = {}) {
      if (method === "PATCH" && typeof raw.patch !== "function") return { status: 0, data: "this OpenCode's plugin client cannot PATCH" };
      const call = method === "GET" ? raw.get.bind(raw) : method === "PATCH" ? raw.patch!.bind(raw) : raw.post.bind(raw);
      const json = options.body !== undefined ? { "Content-Type": "application/json" } : undefined;
      const headers = where || json ? { ...where, ...json } : undefined;
      const result = await call({
        url,
        ...(options.path ? { path: options.path } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(headers ? { headers } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { status: result.response?.status ?? 0, data: result.error ?? result.data };
    },
  };
}
