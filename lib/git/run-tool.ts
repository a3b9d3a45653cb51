// The one way Hermes runs the user's `git` and `gh`: spawned with an argument array (never a
// shell), in the session's directory, with a timeout, never prompting (no terminal to answer it),
// and with everything it prints scrubbed of credentials (scrub.ts) before anyone reads it.
import { spawn } from "node:child_process";
import { scrubCredentials } from "./scrub.ts";

/** How long one git call may take; a push or `gh pr create` talks to a server and gets longer. */
export const GIT_TIMEOUT_MS = 30_000;
export const NETWORK_TIMEOUT_MS = 120_000;
/** What is kept of a call's output (a diff is read whole up to this, then cut). */
const OUTPUT_LIMIT = 8_000_000;

export interface ToolResult {
  /** The exit code; -1 when it could not start or was killed at the timeout. */
  code: number;
  stdout: string;
  /** Scrubbed. */
  stderr: string;
  /** It could not be started: not on the PATH. */
  missing?: true;
  timedOut?: true;
}

export interface ToolCall {
  cwd: string;
  timeoutMs?: number;
  /** Added to the environment (GIT_INDEX_FILE for a commit of named files). */
  env?: Record<string, string>;
  /** Sent on stdin (a commit message). */
  input?: string;
}

/** Never ask: no terminal prompt for a password, no credential manager window. */
const NO_PROMPTS = { GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never", GH_PROMPT_DISABLED: "1", GIT_OPTIONAL_LOCKS: "0" };

export function runTool(command: "git" | "gh", args: readonly string[], call: ToolCall): Promise<ToolResult> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...NO_PROMPTS, ...call.env };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, { cwd: call.cwd, env, stdio: ["pipe", "pipe", "pipe"], shell: false });
    } catch (error) {
      resolve({ code: -1, stdout: "", stderr: scrubCredentials(String(error)), missing: true });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size <= OUTPUT_LIMIT) into.push(chunk);
    };
    child.stdout?.on("data", keep(out));
    child.stderr?.on("data", keep(err));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, call.timeoutMs ?? GIT_TIMEOUT_MS);
    timer.unref?.();
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout: "", stderr: scrubCredentials(error.message), ...(error.code === "ENOENT" ? { missing: true as const } : {}) });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = scrubCredentials(Buffer.concat(err).toString("utf8"));
      resolve({ code: timedOut ? -1 : (code ?? -1), stdout, stderr, ...(timedOut ? { timedOut: true as const } : {}) });
    });
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(call.input ?? "");
  });
}

/** Why a call failed, in git's own words (scrubbed), for the phone. */
export function failureText(result: ToolResult, what: string): string {
  if (result.missing) return `${what} is not on the PATH`;
  if (result.timedOut) return `${what} did not finish in time`;
  const text = scrubCredentials(`${result.stderr}\n${result.stdout}`).trim();
  return text === "" ? `${what} exited with code ${result.code}` : text;
}
