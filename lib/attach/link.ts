// The one thing attach mode builds differently from the plugin: how an InstanceLink reaches its
// OpenCode instance (HTTP to the server instead of the plugin client's in-process transport).
import { OpencodeApi } from "../opencode/api.ts";
import { httpTransport, type ServerAuth } from "../opencode/http-transport.ts";
import type { OpencodeTransport } from "../opencode/transport.ts";
import type { InstanceLink } from "../bridge/bridge.ts";

export interface ServerTarget {
  url: string;
  auth?: ServerAuth | undefined;
  fetch?: typeof fetch | undefined;
}

export function httpLink(server: ServerTarget, directory: string): InstanceLink {
  return { directory, opencode: new OpencodeApi(strictGets(serverTransport(server, directory))) };
}

export function serverTransport(server: ServerTarget, directory?: string): OpencodeTransport {
  return httpTransport({
    baseUrl: server.url,
    ...(directory !== undefined ? { directory } : {}),
    ...(server.auth ? { auth: server.auth } : {}),
    ...(server.fetch ? { fetch: server.fetch } : {}),
  });
}

/**
 * A GET that OpenCode does not answer with 200 throws. OpencodeApi reads any other answer to
 * `GET /question` as "nothing pending", which a resync would take as "everything was resolved";
 * the Bridge already catches a throwing list or session lookup.
 */
export function strictGets(transport: OpencodeTransport): OpencodeTransport {
  return {
    async request(method, url, options) {
      const result = await transport.request(method, url, options);
      if (method === "GET" && result.status !== 200) throw new Error(`OpenCode answered ${result.status} to GET ${url}`);
      return result;
    },
  };
}
