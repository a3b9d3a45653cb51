// OpenCode 1.x's desk controls (issue 53; measured on 1.18.33 and 1.1.53, docs/compatibility.md):
// `POST /session/:id/shell { agent, command }` (answered when the command ends with the assistant
// message: one `bash` tool part with the whole output, no exit status; 409 on 1.18.33 and 500 on
// 1.1.53 while the session works), `GET /mcp` (`{ name: { status, error? } }`) and `POST
// /mcp/:name/connect|disconnect`. 1.x runs a command as `eval "<JSON string>"` in bash or zsh, so
// the exit status is printed by a trailer whose `$` is made by a command substitution. Which shell
// runs it is OpenCode's `Shell.preferred()`: `SHELL`, else `bash` on PATH, else `/bin/sh` (read in
// the 1.1.53 and 1.18.33 binaries; a process started without `SHELL`, as a service or CI is, runs bash).
import { findExecutable } from "../system/find-executable.ts";
import { isRecord } from "../util/is-record.ts";
import type { DeskControls, McpServerState, Outcome, ShellRun } from "./endpoint.ts";
import { DEFAULT_RETRY, describeBody, sendForOutcome } from "./send-outcome.ts";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "./transport.ts";

/** The longest a shell command may run before the phone's request gives up (the command itself is OpenCode's). */
export const SHELL_TIMEOUT_MS = 30 * 60_000;
/** The agent a shell call names when the session has none yet (OpenCode's default primary agent). */
const DEFAULT_AGENT = "build";
/** What the trailer prints, and how the last such line is found. */
const TRAILER = `; echo "[exit $(printf %s '$')?]"`;
const TRAILER_LINE = /\[exit (\d{1,3})\]\n?$/;

/**
 * The command as 1.x is sent it: `(<command>)` and the status trailer, under bash or zsh; as typed
 * under another shell (fish and nu read `( … )` otherwise) or with a `#` (a comment would swallow
 * the trailer). `shell`: the `SHELL` OpenCode runs commands with.
 */
export function withExitTrailer(command: string, shell: string | undefined): string {
  const name = (shell ?? "").split("/").pop() ?? "";
  if (name !== "bash" && name !== "zsh") return command;
  if (command.includes("#") || command.includes("\n")) return command;
  return `(${command})${TRAILER}`;
}

/** The shell OpenCode 1.x runs a `!command` with, as its `Shell.preferred()` picks it from the environment. */
export function opencodeShell(env: NodeJS.ProcessEnv, find: (name: string, searchPath: string | undefined) => string | undefined = findExecutable): string {
  if (env.SHELL) return env.SHELL;
  return find("bash", env.PATH) ?? "/bin/sh";
}

/** The output without the trailer's line, and the status it printed; the output unchanged when the command was not wrapped. */
export function readExitTrailer(sent: string, output: string): { output: string; exit?: number } {
  if (!sent.endsWith(TRAILER)) return { output };
  const match = TRAILER_LINE.exec(output);
  if (!match) return { output };
  return { output: output.slice(0, match.index), exit: Number(match[1]) };
}

export class OpencodeDesk implements DeskControls {
  readonly #transport: OpencodeTransport;
  readonly #env: NodeJS.ProcessEnv;
  #shell: string | undefined;

  /** `env`: the environment of OpenCode's process (the plugin's own), whose shell decides whether the status trailer is added. */
  constructor(transport: OpencodeTransport, env: NodeJS.ProcessEnv) {
    this.#transport = transport;
    this.#env = env;
  }

  async listMcp(): Promise<McpServerState[]> {
    const result = await this.#transport.request("GET", "/mcp", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (result.status !== 200 || !isRecord(result.data)) throw new Error(`OpenCode answered ${result.status} to GET /mcp`);
    return Object.entries(result.data).flatMap(([name, state]) => mcpState(name, state));
  }

  setMcp(name: string, connected: boolean): Promise<Outcome> {
    const url = connected ? "/mcp/{name}/connect" : "/mcp/{name}/disconnect";
    return sendForOutcome(() => this.#transport.request("POST", url, { path: { name }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), DEFAULT_RETRY);
  }

  /** Tried once (a retry would run the command twice). */
  async shell(sessionID: string, command: string, options: { agent?: string; signal?: AbortSignal } = {}): Promise<ShellRun> {
    this.#shell ??= opencodeShell(this.#env);
    const sent = withExitTrailer(command, this.#shell);
    try {
      const agent = options.agent ?? (await this.#lastAgent(sessionID)) ?? DEFAULT_AGENT;
      const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(SHELL_TIMEOUT_MS)]) : AbortSignal.timeout(SHELL_TIMEOUT_MS);
      const result = await this.#transport.request("POST", "/session/{sessionID}/shell", { path: { sessionID }, body: { agent, command: sent }, signal });
      if (result.status === 200) {
        const output = toolOutput(result.data);
        if (output === undefined) return { ok: false, busy: false, gone: false, error: "OpenCode's answer has no bash part" };
        return { ok: true, command: sent, ...readExitTrailer(sent, output) };
      }
      if (result.status === 409 || (result.status === 500 && /is busy/i.test(describeBody(result.data)))) return { ok: false, busy: true };
      if (result.status === 404) return { ok: false, busy: false, gone: true };
      return { ok: false, busy: false, gone: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data).split("\n")[0]}` };
    } catch (error) {
      return { ok: false, busy: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** `POST /session/:id/abort`: the command is killed and the shell route answers at once ("User aborted the command"). */
  stopShell(sessionID: string): Promise<Outcome> {
    return sendForOutcome(
      () => this.#transport.request("POST", "/session/{sessionID}/abort", { path: { sessionID }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
      DEFAULT_RETRY,
    );
  }

  /** The agent of the session's newest message, as the desk's shell would use. */
  async #lastAgent(sessionID: string): Promise<string | undefined> {
    const result = await this.#transport.request("GET", "/session/{sessionID}/message", {
      path: { sessionID },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (result.status !== 200 || !Array.isArray(result.data)) return undefined;
    for (const message of [...result.data].reverse()) {
      const agent = isRecord(message) && isRecord(message.info) ? message.info.agent : undefined;
      if (typeof agent === "string" && agent !== "") return agent;
    }
    return undefined;
  }
}

/** One server of a list both versions answer alike (`{ status, error? }`); a malformed one is skipped. */
export function mcpState(name: string, state: unknown): McpServerState[] {
  if (name === "" || !isRecord(state) || typeof state.status !== "string") return [];
  return [{ name, status: state.status, ...(typeof state.error === "string" && state.error ? { error: state.error } : {}) }];
}

/** The `bash` part's whole output in the assistant message the shell route answers with. */
function toolOutput(data: unknown): string | undefined {
  const parts = isRecord(data) && Array.isArray(data.parts) ? data.parts : [];
  for (const part of parts) {
    if (!isRecord(part) || part.type !== "tool" || !isRecord(part.state)) continue;
    if (typeof part.state.output === "string") return part.state.output;
  }
  return undefined;
}
