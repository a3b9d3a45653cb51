// Where the OpenCode 2 server that runs this plugin listens, and its password. The 2.x plugin
// context cannot answer a form (a question), so Hermes calls its own server over HTTP; nothing in
// the context says where that is. Measured on 2.0.15:
// - the background service (`serve --service`, what the TUI, `run` and `api` start) writes
//   `$XDG_STATE_HOME/opencode/service.json` `{ url, pid, password }`: used when `pid` is ours;
// - `serve --port N [--hostname H]` listens there, with `OPENCODE_SERVER_PASSWORD` as password when
//   set; without it the server makes up a password and only prints it, so a plugin cannot know it;
// - other modes (`--standalone`, `serve --stdio`, `acp`) give a plugin nothing to go on.
// Pure: the caller passes argv, env, pid and a file reader; the answer is checked later against
// `GET /api/info` (its `pid` must be ours) before Hermes trusts it.
import path from "node:path";
import { DEFAULT_SERVER_USERNAME, type ServerAuth } from "../opencode/http-transport.ts";

export interface OwnServer {
  url: string;
  auth?: ServerAuth;
  /** How it was found, for the log. */
  source: "service.json" | "serve --port" | "attach";
}

export type OwnServerResult = { ok: true; server: OwnServer } | { ok: false; reason: string };

export interface ProcessFacts {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  pid: number;
  home: string;
  /** The file's text, or undefined when it cannot be read. */
  readFile(file: string): string | undefined;
}

const ANY_ADDRESS = new Set(["0.0.0.0", "::", "[::]", ""]);

export function findOwnServer(facts: ProcessFacts): OwnServerResult {
  const fromService = fromServiceFile(facts);
  if (fromService) return { ok: true, server: fromService };
  const args = facts.argv;
  if (!args.includes("serve")) return { ok: false, reason: "this OpenCode runs without a server Hermes can reach (not `serve` nor the background service)" };
  if (args.includes("--stdio")) return { ok: false, reason: "`opencode serve --stdio` has no HTTP address" };
  const port = flag(args, "--port");
  if (!port || !/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535)
    return { ok: false, reason: "`opencode serve` was started without --port, so Hermes cannot tell where it listens" };
  const password = facts.env.OPENCODE_SERVER_PASSWORD;
  if (!password)
    return {
      ok: false,
      reason: "`opencode serve` was started without OPENCODE_SERVER_PASSWORD: the password it made up is only printed, a plugin cannot read it",
    };
  const hostname = flag(args, "--hostname") ?? "127.0.0.1";
  const host = ANY_ADDRESS.has(hostname) ? "127.0.0.1" : hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  const username = facts.env.OPENCODE_SERVER_USERNAME || DEFAULT_SERVER_USERNAME;
  return { ok: true, server: { url: `http://${host}:${port}`, auth: { username, password }, source: "serve --port" } };
}

/** `$XDG_STATE_HOME/opencode/service.json`, else `~/.local/state/opencode/service.json`. */
export function serviceFile(env: ProcessFacts["env"], home: string): string {
  const state = env.XDG_STATE_HOME || path.join(home, ".local", "state");
  return path.join(state, "opencode", "service.json");
}

function fromServiceFile(facts: ProcessFacts): OwnServer | undefined {
  const text = facts.readFile(serviceFile(facts.env, facts.home));
  if (text === undefined) return undefined;
  let info: unknown;
  try {
    info = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof info !== "object" || info === null) return undefined;
  const { url, pid, password } = info as { url?: unknown; pid?: unknown; password?: unknown };
  if (pid !== facts.pid || typeof url !== "string" || !/^https?:\/\//.test(url)) return undefined;
  const server: OwnServer = { url: url.replace(/\/+$/, ""), source: "service.json" };
  if (typeof password === "string" && password) server.auth = { username: DEFAULT_SERVER_USERNAME, password };
  return server;
}

/** `--name value` or `--name=value`. */
function flag(args: readonly string[], name: string): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === name) return args[index + 1];
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}
