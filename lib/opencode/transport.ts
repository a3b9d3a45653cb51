// How Hermes reaches one OpenCode instance. Inside the plugin: the plugin client's own transport
// (in-process, carries the directory and auth). Outside (attach mode): HTTP to the server.

export interface HttpResult {
  status: number;
  data: unknown;
}

export interface OpencodeTransport {
  request(method: "GET" | "POST", url: string, options?: { path?: Record<string, string>; body?: unknown; signal?: AbortSignal }): Promise<HttpResult>;
}

/** The raw hey-api client behind `PluginInput.client` (`client._client`). */
export interface RawPluginClient {
  get(options: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response?: Response }>;
  post(options: Record<string, unknown>): Promise<{ data?: unknown; error?: unknown; response?: Response }>;
}

export function pluginClientTransport(client: unknown): OpencodeTransport | undefined {
  const raw = (client as { _client?: RawPluginClient } | undefined)?._client;
  if (!raw || typeof raw.get !== "function" || typeof raw.post !== "function") return undefined;
  return {
    async request(method, url, options = {}) {
      const call = method === "GET" ? raw.get.bind(raw) : raw.post.bind(raw);
      const result = await call({
        url,
        ...(options.path ? { path: options.path } : {}),
        ...(options.body !== undefined ? { body: options.body, headers: { "Content-Type": "application/json" } } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { status: result.response?.status ?? 0, data: result.error ?? result.data };
    },
  };
}
