// Which attach mode a server needs: OpenCode 2 answers `GET /api/info` with `{ version: "2.…" }`
// (measured on 2.0.15); OpenCode 1.x has no such route. 401/403 there means wrong credentials
// whatever the version. A server that cannot be reached yet is treated as 1.x, whose runner waits
// for it to come up.
import { startAttach2 } from "./opencode2-runner.ts";
import { authHeaders, serverUrl } from "../opencode/http-transport.ts";
import { AttachError, credentialsRefused, failedHandle, type AttachHandle, type AttachOptions } from "./attach-mode.ts";
import { listenerProblem, listenerRefusal, ownListenerFetch, systemOwnerCheck } from "../system/listener-owner.ts";
import { startAttach } from "./runner.ts";

const PROBE_TIMEOUT_MS = 5_000;

type ServerKind = { kind: "opencode2" } | { kind: "opencode1" } | { kind: "refused"; status: number };

export async function probeServer(options: Pick<AttachOptions, "url" | "auth" | "fetch">): Promise<ServerKind> {
  try {
    const response = await (options.fetch ?? fetch)(serverUrl(options.url, "/api/info"), {
      headers: { accept: "application/json", ...authHeaders(options.auth) },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    if (response.status === 401 || response.status === 403) return { kind: "refused", status: response.status };
    if (response.status !== 200) return { kind: "opencode1" };
    const version = ((await response.json()) as { version?: unknown } | null)?.version;
    return typeof version === "string" && /^2\./.test(version) ? { kind: "opencode2" } : { kind: "opencode1" };
  } catch {
    return { kind: "opencode1" };
  }
}

/**
 * startAttach for an OpenCode 1.x server, startAttach2 for an OpenCode 2 one. With credentials, every
 * request first checks that a loopback listener is this user's (lib/system/listener-owner.ts): at the start a
 * foreign one fails attach mode at once; later (a restart) the request fails and the stream retries.
 */
export function startAttachFor(given: AttachOptions): AttachHandle {
  const check = given.auth ? (given.ownerCheck ?? systemOwnerCheck()) : undefined;
  const options: AttachOptions = check ? { ...given, fetch: ownListenerFetch(given.fetch ?? fetch, check) } : given;
  let current: AttachHandle | undefined;
  const picked = (check ? listenerProblem(given.url, check) : Promise.resolve(undefined))
    .then((problem) => {
      if (!problem) return probeServer(options).then((server) => start(server, options));
      const error = new AttachError("auth", listenerRefusal(given.url, problem));
      given.report?.(error.message);
      return failedHandle(error);
    })
    .then((handle) => (current = handle));
  const ready = picked.then((handle) => handle.ready);
  const done = picked.then((handle) => handle.done);
  ready.catch(() => undefined);
  done.catch(() => undefined);
  return {
    ready,
    done,
    attached: () => current?.attached() ?? [],
    skipped: () => current?.skipped() ?? [],
    stop: async () => (await picked).stop(),
  };
}

function start(server: ServerKind, options: AttachOptions): AttachHandle {
  if (server.kind === "opencode2") return startAttach2(options);
  if (server.kind === "opencode1") return startAttach(options);
  const error = credentialsRefused(options.url, server.status);
  options.report?.(error.message);
  return failedHandle(error);
}
