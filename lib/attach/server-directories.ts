// Which directories of a running `opencode serve` attach mode bridges at each (re)connect: the
// server's own (`GET /path`), those given with --directory, and those of sessions updated lately
// (`GET /session?start=…`). A list that fails is logged and left out; the others still count.
import type { Logger } from "../system/log.ts";
import { errorText } from "../util/error-text.ts";
import { REQUEST_TIMEOUT_MS } from "../opencode/transport.ts";
import type { AttachOptions } from "./attach-mode.ts";
import { serverTransport, type ServerTarget } from "./link.ts";

const DEFAULT_RECENT_SESSIONS_MS = 30 * 60_000;

/** The server's own directory, the configured ones, and those of recently active sessions. */
export async function discoverDirectories(
  server: ServerTarget,
  options: Pick<AttachOptions, "directories" | "recentSessionsMs">,
  log: Logger,
): Promise<string[]> {
  const found = new Set(options.directories ?? []);
  const transport = serverTransport(server);
  try {
    const path = await transport.request("GET", "/path", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const directory = (path.data as { directory?: unknown } | undefined)?.directory;
    if (path.status === 200 && typeof directory === "string" && directory) found.add(directory);
  } catch (error) {
    log.warn({ err: errorText(error) }, "GET /path failed");
  }
  const recentMs = options.recentSessionsMs ?? DEFAULT_RECENT_SESSIONS_MS;
  if (recentMs > 0) {
    try {
      const sessions = await transport.request("GET", `/session?start=${Date.now() - recentMs}&limit=100`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (sessions.status === 200 && Array.isArray(sessions.data)) {
        for (const session of sessions.data as Array<{ directory?: unknown }>) {
          if (typeof session?.directory === "string" && session.directory) found.add(session.directory);
        }
      }
    } catch (error) {
      log.warn({ err: errorText(error) }, "GET /session failed");
    }
  }
  return [...found];
}
