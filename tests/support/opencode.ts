import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { pollUntil } from "./wait.ts";
import { isOpencode2, opencodeBinary, REPO_ROOT, type OpencodeVersion } from "./opencode/binary.ts";
import { spawnManaged, type ManagedChild } from "./opencode/child-process.ts";
import { createHermeticEnv } from "./opencode/hermetic-env.ts";
import { opencodeRequest } from "./opencode/http-client.ts";
import { projectConfig, writeProject } from "./opencode/project-config.ts";
import { routesFor } from "./opencode/routes.ts";

/**
 * The real `opencode serve` on 127.0.0.1 in a hermetic temp world (see opencode/hermetic-env.ts),
 * driving the mock LLM. It can be killed and started again on the same port, home and data, and
 * put behind HTTP Basic auth. Set KEEP_TMP=1 to keep the temp dir (logs, data, projects) after stop().
 */
export { OPENCODE_VERSIONS, OPENCODE2_VERSION, isOpencode2, opencodeBinary, type OpencodeVersion } from "./opencode/binary.ts";

export interface OpencodeServer {
  version: OpencodeVersion;
  url: string;
  port: number;
  directory: string;
  home: string;
  /** The temp world: HOME, XDG dirs, projects, logs. */
  root: string;
  /** The running process' pid (changes with start()). */
  readonly pid: number;
  /**
   * When the last start() spawned the process, saw "listening", and had the project instance's
   * warm-up answered (performance.now() of this process, as the fake Telegram's `hrAt`); `answered`
   * is undefined with `warmup: false`. bench/start-cost.ts times OpenCode's start with them.
   */
  readonly startTimes: { spawned: number; listening: number; answered?: number };
  /** `auth: false` leaves out the Authorization header of a password-protected server. */
  request<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; directory?: string; timeoutMs?: number; auth?: boolean },
  ): Promise<{ status: number; body: T }>;
  createSession(opts?: { directory?: string; title?: string }): Promise<{ id: string }>;
  prompt(sessionID: string, text: string, opts?: { directory?: string }): Promise<void>;
  pendingQuestions(opts?: { directory?: string }): Promise<any[]>;
  /** Answers a pending question as the terminal does (labels per question); resolves with the HTTP status. */
  answerQuestion(question: any, answers: string[][], opts?: { directory?: string }): Promise<number>;
  pendingPermissions(opts?: { directory?: string }): Promise<any[]>;
  /** Answers a pending permission request as the terminal does; resolves with the HTTP status. */
  answerPermission(request: any, reply: "once" | "always" | "reject", opts?: { directory?: string }): Promise<number>;
  /** Ends the project's instance (1.x dispose; 2.x location removal, which runs plugin cleanups); resolves with the HTTP status. */
  dispose(opts?: { directory?: string }): Promise<number>;
  /** Stops the session's run as Esc does; resolves with the HTTP status. */
  abort(sessionID: string, opts?: { directory?: string }): Promise<number>;
  /** Whether the session is working (its turn has not ended). */
  isBusy(sessionID: string, opts?: { directory?: string }): Promise<boolean>;
  /** The first pending question whose id is not in `not`. */
  waitForQuestion(opts?: { directory?: string; timeoutMs?: number; not?: string[] }): Promise<any>;
  addProject(name?: string): Promise<string>;
  /** Kills the process (SIGKILL: no goodbye events), keeping its world. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same world. */
  start(): Promise<void>;
  logs(): string;
  stop(): Promise<void>;
}

export interface StartOpencodeOptions {
  version: OpencodeVersion;
  llmBaseURL: string;
  /** Absolute paths, file:// URLs or ./repo-relative paths (all become file:// URLs). */
  plugins?: string[];
  env?: Record<string, string>;
  permission?: unknown;
  extraConfig?: Record<string, unknown>;
  /** The user's global config ($XDG_CONFIG_HOME/opencode/opencode.json), as opposed to the project's. */
  globalConfig?: Record<string, unknown>;
  /** Merged into the mock model's entry in opencode.json. */
  mockModel?: Record<string, unknown>;
  /** More files in the project directory (OpenCode's working directory), by name, written before it starts: a `.env`. */
  projectFiles?: Record<string, string>;
  /** More models of the mock provider, by id. */
  extraModels?: string[];
  /** Limit for the "listening" line and the warm-up request (default 60 s). */
  startTimeoutMs?: number;
  /**
   * After "listening", GET /config for the project so its instance (and the plugins) exist
   * before startOpencode resolves; fails on a non-200 answer. Default true.
   */
  warmup?: boolean;
  /**
   * OPENCODE_SERVER_PASSWORD (and _USERNAME): every route then needs HTTP Basic, which request() sends.
   * OpenCode 2 always has a password: without this option it makes one up and prints it, and the
   * harness reads it from the output.
   */
  password?: string;
  username?: string;
  /**
   * OpenCode 2 only: run as the background service (`serve --service`, what the TUI starts), on
   * this world's port (its service config) instead of 49374; the password is read from the
   * service.json it writes under XDG_STATE_HOME.
   */
  service?: boolean;
}

const PRINTED_PASSWORD = /server password (\S+)/;
/** What OpenCode says when its port was taken between freePort() and its own bind (another test's server got it). */
const PORT_TAKEN = /Failed to start server on port|EADDRINUSE/;
/**
 * OpenCode's own binary dying before it listens: 1.1.53's Bun once trapped inside the TUI library's
 * WebAssembly start-up ("RuntimeError: access to a null reference" in @opentui/core) under CI's load.
 * Nothing of Hermes runs by then (1.x creates a plugin on the first request for a directory), so
 * such a crash is OpenCode's, not ours, unless its trace names a file of this repository.
 */
const CRASHED_BEFORE_LISTENING = /exited before "server listening on"/;
const START_ATTEMPTS = 3;

/** Whether a failed start is the machine's luck (a port taken meanwhile, OpenCode crashing in its own start-up) rather than Hermes. */
export function startIsWorthRetrying(error: unknown, repoRoot: string): boolean {
  const text = String(error);
  if (PORT_TAKEN.test(text)) return true;
  return CRASHED_BEFORE_LISTENING.test(text) && !text.includes(repoRoot);
}

/** Starts OpenCode in a world of its own; a port taken by another test meanwhile, or OpenCode's own start-up crash, means a new world on a new port. */
export async function startOpencode(opts: StartOpencodeOptions): Promise<OpencodeServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOpencodeOnce(opts);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !startIsWorthRetrying(error, REPO_ROOT)) throw error;
      console.error(`[harness] OpenCode ${opts.version} did not start (attempt ${attempt}), starting it again: ${String(error).split("\n")[0]}`);
    }
  }
}

async function startOpencodeOnce(opts: StartOpencodeOptions): Promise<OpencodeServer> {
  const bin = opencodeBinary(opts.version);
  const serverEnv: Record<string, string> = { ...opts.env };
  if (opts.password) serverEnv.OPENCODE_SERVER_PASSWORD = opts.password;
  if (opts.username) serverEnv.OPENCODE_SERVER_USERNAME = opts.username;
  const world = createHermeticEnv(opts.version, serverEnv);
  if (opts.globalConfig) {
    mkdirSync(world.configDir, { recursive: true });
    writeFileSync(join(world.configDir, "opencode.json"), `${JSON.stringify(opts.globalConfig, null, 2)}\n`);
  }
  const config = projectConfig(opts);
  const routes = routesFor(opts.version);
  const directory = writeProject(join(world.root, "project"), config);
  for (const [name, text] of Object.entries(opts.projectFiles ?? {})) writeFileSync(join(directory, name), text);
  const port = await freePort();
  const startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  const basic = (password: string) => `Basic ${Buffer.from(`${opts.username ?? "opencode"}:${password}`).toString("base64")}`;
  let authorization = opts.password ? basic(opts.password) : undefined;
  let proc: ManagedChild | undefined;
  let runs = 0;
  let history = "";
  let projects = 0;
  let stopped: Promise<void> | undefined;
  let startTimes: OpencodeServer["startTimes"] = { spawned: Number.NaN, listening: Number.NaN };
  const logTail = () => `--- last log lines (OpenCode ${opts.version}, pid ${proc?.pid}, ${world.root}) ---\n${proc?.tail(40) ?? ""}`;

  const server: OpencodeServer = {
    version: opts.version,
    url: `http://127.0.0.1:${port}`,
    port,
    directory,
    home: world.home,
    root: world.root,
    get pid() {
      return proc?.pid ?? -1;
    },
    get startTimes() {
      return startTimes;
    },
    request(method, path, o = {}) {
      const { auth, ...rest } = o;
      return opencodeRequest(
        server.url,
        method,
        path,
        { ...rest, directory: o.directory ?? directory, ...(authorization && auth !== false ? { authorization } : {}) },
        logTail,
      );
    },
    async createSession(o = {}) {
      const route = routes.createSession(o.directory ?? directory, o.title);
      const res = await server.request("POST", route.path, {
        body: route.body,
        ...(o.directory !== undefined ? { directory: o.directory } : {}),
      });
      const id = route.id(res.body);
      if (res.status !== 200 || typeof id !== "string") {
        throw new Error(`POST ${route.path} answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
      return { id };
    },
    async prompt(sessionID, text, o = {}) {
      const route = routes.prompt(sessionID, text);
      const res = await server.request("POST", route.path, {
        body: route.body,
        ...(o.directory !== undefined ? { directory: o.directory } : {}),
      });
      if (res.status !== 204 && res.status !== 200) {
        throw new Error(`POST ${route.path} answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
    },
    async pendingQuestions(o = {}) {
      const route = routes.pendingQuestions(o.directory ?? directory);
      const res = await server.request("GET", route.path, o.directory !== undefined ? { directory: o.directory } : {});
      const list = res.status === 200 ? route.list(res.body) : undefined;
      if (!list) throw new Error(`GET ${route.path} answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      return list;
    },
    async answerQuestion(question, answers, o = {}) {
      const route = routes.answerQuestion(question, answers);
      return (await server.request("POST", route.path, { body: route.body, ...(o.directory !== undefined ? { directory: o.directory } : {}) })).status;
    },
    async pendingPermissions(o = {}) {
      const route = routes.pendingPermissions(o.directory ?? directory);
      const res = await server.request("GET", route.path, o.directory !== undefined ? { directory: o.directory } : {});
      const list = res.status === 200 ? route.list(res.body) : undefined;
      if (!list) throw new Error(`GET ${route.path} answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      return list;
    },
    async answerPermission(request, reply, o = {}) {
      const route = routes.answerPermission(request, reply);
      return (await server.request("POST", route.path, { body: route.body, ...(o.directory !== undefined ? { directory: o.directory } : {}) })).status;
    },
    async dispose(o = {}) {
      const route = routes.dispose(o.directory ?? directory);
      return (await server.request(route.method, route.path, o.directory !== undefined ? { directory: o.directory } : {})).status;
    },
    async abort(sessionID, o = {}) {
      const route = routes.abort(sessionID);
      return (
        await server.request("POST", route.path, {
          ...(route.body !== undefined ? { body: route.body } : {}),
          ...(o.directory !== undefined ? { directory: o.directory } : {}),
        })
      ).status;
    },
    async isBusy(sessionID, o = {}) {
      const route = routes.busySessions(o.directory ?? directory);
      const res = await server.request("GET", route.path, o.directory !== undefined ? { directory: o.directory } : {});
      if (res.status !== 200) throw new Error(`GET ${route.path} answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      return route.busy(res.body, sessionID);
    },
    waitForQuestion(o = {}) {
      return pollUntil(async () => (await server.pendingQuestions(o)).find((question) => !o.not?.includes(question.id)), {
        timeoutMs: o.timeoutMs ?? 30_000,
        intervalMs: 100,
        what: `a pending question in ${o.directory ?? directory}`,
        context: logTail,
      });
    },
    async addProject(name) {
      projects++;
      return writeProject(join(world.root, name ?? `project-${projects + 1}`), config);
    },
    async kill() {
      if (!proc) return;
      history += proc.logs();
      await proc.stop(0);
      proc = undefined;
    },
    async start() {
      if (proc) return;
      runs++;
      if (opts.service) mkdirSync(world.configDir, { recursive: true });
      if (opts.service) writeFileSync(join(world.configDir, "service.json"), `${JSON.stringify({ hostname: "127.0.0.1", port })}\n`);
      const spawned = performance.now();
      proc = spawnManaged(bin, opts.service ? ["serve", "--service", "--print-logs", "--log-level", "info"] : routes.serveArgs(port), {
        cwd: directory,
        env: world.env,
        logFile: join(world.root, runs === 1 ? "opencode.log" : `opencode-${runs}.log`),
      });
      const listening = await proc.waitForOutput(routes.listening, startTimeoutMs, `"server listening on" from OpenCode ${opts.version}`);
      const url = listening[1]!.replace(/\/$/, "");
      startTimes = { spawned, listening: performance.now() };
      if (url !== server.url) throw new Error(`OpenCode listens on ${url}, not on ${server.url}\n${logTail()}`);
      if (opts.service) {
        const registration = await pollUntil(() => readJson(join(world.env.XDG_STATE_HOME!, "opencode", "service.json")), {
          timeoutMs: startTimeoutMs,
          what: "service.json from the background service",
        });
        authorization = basic(registration.password);
      } else if (!opts.password && isOpencode2(opts.version)) {
        authorization = basic((await proc.waitForOutput(PRINTED_PASSWORD, startTimeoutMs, `the password OpenCode ${opts.version} made up`))[1]!);
      }
      if (opts.warmup ?? true) {
        const res = await server.request("GET", routes.warmup(directory), { timeoutMs: startTimeoutMs });
        if (res.status !== 200) throw new Error(`warm-up GET /config answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
        startTimes = { ...startTimes, answered: performance.now() };
      }
    },
    logs: () => history + (proc?.logs() ?? ""),
    stop() {
      stopped ??= (async () => {
        if (proc) await proc.stop();
        proc = undefined;
        if (process.env.KEEP_TMP) console.error(`[harness] KEEP_TMP: OpenCode ${opts.version} temp dir kept at ${world.root}`);
        else rmSync(world.root, { recursive: true, force: true });
      })();
      return stopped;
    },
  };

  try {
    await server.start();
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

function readJson(file: string): any {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
