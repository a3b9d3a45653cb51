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
  return { directory, opencode: new OpencodeApi(serverTransport(server, directory), undefined, (other) => serverTransport(server, other)) };
}

export function serverTransport(server: ServerTarget, directory?: string): OpencodeTransport {
  return httpTransport({
    baseUrl: server.url,
    ...(directory !== undefined ? { directory } : {}),
    ...(server.auth ? { auth: server.auth } : {}),
    ...(server.fetch ? { fetch: server.fetch } : {}),
  });
}
