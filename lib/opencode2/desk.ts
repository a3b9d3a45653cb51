// OpenCode 2's desk controls (issue 53; measured on 2.0.15, docs/compatibility.md): `POST
// /api/session/:id/shell { command }` (204 when the command ends; the session's history then has a
// `{ type: "shell", command, status: "exited", exit, output: { output, truncated } }` message, and
// `GET /api/shell/:id/output` the whole output), `GET /api/mcp` (`{ data: [{ name, status: { status,
// error? } }] }`) and `POST /api/experimental/mcp/:server/connect|disconnect` (204), per location.
import { isRecord } from "../util/is-record.ts";
import { SHELL_TIMEOUT_MS, mcpState } from "../opencode/desk.ts";
import type { DeskControls, McpServerState, Outcome, ShellRun } from "../opencode/endpoint.ts";
import { describeBody } from "../opencode/send-outcome.ts";
import type { OwnServerClient } from "./server-client.ts";

/** Messages read to find the shell call (newest first: it is among the first). */
const MESSAGES_READ = "20";

export class Opencode2Desk implements DeskControls {
  readonly #directory: string;
  readonly #server: OwnServerClient;

  constructor(directory: string, server: OwnServerClient) {
    this.#directory = directory;
    this.#server = server;
  }

  async listMcp(): Promise<McpServerState[]> {
    const body = await this.#server.get("/api/mcp", this.#where());
    const data = isRecord(body) && Array.isArray(body.data) ? body.data : undefined;
    if (!data) throw new Error("OpenCode's MCP list has no data");
    return data.flatMap((entry) => (isRecord(entry) && typeof entry.name === "string" ? mcpState(entry.name, entry.status) : []));
  }

  setMcp(name: string, connected: boolean): Promise<Outcome> {
    const route = `/api/experimental/mcp/{server}/${connected ? "connect" : "disconnect"}?${new URLSearchParams(this.#where()).toString()}`;
    return this.#server.send("POST", route, { server: name });
  }

  /** Tried once (a retry would run the command twice); the command is sent as typed: 2.x records its exit status. */
  async shell(sessionID: string, command: string): Promise<ShellRun> {
    try {
      const result = await this.#server.create(`/api/session/${encodeURIComponent(sessionID)}/shell`, { command }, SHELL_TIMEOUT_MS);
      if (result.status === 404) return { ok: false, busy: false, gone: true };
      if (result.status < 200 || result.status >= 300)
        return { ok: false, busy: false, gone: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data)}` };
      const call = await this.#lastCall(sessionID, command);
      if (!call) return { ok: false, busy: false, gone: false, error: "the session's history has no such shell call" };
      const output = call.truncated ? await this.#wholeOutput(call.shellID).catch(() => call.output) : call.output;
      return { ok: true, command, output, ...(call.exit !== undefined ? { exit: call.exit } : {}) };
    } catch (error) {
      return { ok: false, busy: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * `GET /api/shell` lists the location's running commands (`metadata.sessionID` names the session);
   * `DELETE /api/shell/:id` kills one (its call then reads `status: "killed"`, no exit status).
   */
  async stopShell(sessionID: string): Promise<Outcome> {
    try {
      const body = await this.#server.get("/api/shell", this.#where());
      const shells = isRecord(body) && Array.isArray(body.data) ? body.data : [];
      const running = shells.flatMap((shell) =>
        isRecord(shell) && shell.status === "running" && typeof shell.id === "string" && isRecord(shell.metadata) && shell.metadata.sessionID === sessionID
          ? [shell.id]
          : [],
      );
      if (running.length === 0) return { ok: false, gone: true };
      const route = `/api/shell/{id}?${new URLSearchParams(this.#where()).toString()}`;
      const outcomes = await Promise.all(running.map((id) => this.#server.send("DELETE", route, { id })));
      return outcomes.find((outcome) => !outcome.ok) ?? { ok: true };
    } catch (error) {
      return { ok: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The newest finished shell call of this command in the session's history. */
  async #lastCall(sessionID: string, command: string): Promise<{ shellID: string; output: string; truncated: boolean; exit?: number } | undefined> {
    const body = await this.#server.get(`/api/session/${encodeURIComponent(sessionID)}/message`, { limit: MESSAGES_READ, ...this.#where() });
    const messages = isRecord(body) && Array.isArray(body.data) ? body.data : [];
    for (const message of messages) {
      if (!isRecord(message) || message.type !== "shell" || message.command !== command || message.status === "running") continue;
      const output = isRecord(message.output) ? message.output : {};
      return {
        shellID: typeof message.shellID === "string" ? message.shellID : "",
        output: typeof output.output === "string" ? output.output : "",
        truncated: output.truncated === true,
        ...(typeof message.exit === "number" ? { exit: message.exit } : {}),
      };
    }
    return undefined;
  }

  async #wholeOutput(shellID: string): Promise<string> {
    const body = await this.#server.get(`/api/shell/${encodeURIComponent(shellID)}/output`, this.#where());
    const output = isRecord(body) && isRecord(body.data) ? body.data.output : undefined;
    if (typeof output !== "string") throw new Error("no output");
    return output;
  }

  #where(): Record<string, string> {
    return { "location[directory]": this.#directory };
  }
}
