import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { pollUntil } from './wait.ts';
import { opencodeBinary, type OpencodeVersion } from './opencode/binary.ts';
import { spawnManaged, type ManagedChild } from './opencode/child-process.ts';
import { createHermeticEnv } from './opencode/hermetic-env.ts';
import { opencodeRequest } from './opencode/http-client.ts';
import { projectConfig, writeProject } from './opencode/project-config.ts';

/**
 * The real `opencode serve` on 127.0.0.1 in a hermetic temp world (see opencode/hermetic-env.ts),
 * driving the mock LLM. It can be killed and started again on the same port, home and data, and
 * put behind HTTP Basic auth. Set KEEP_TMP=1 to keep the temp dir (logs, data, projects) after stop().
 */
export { OPENCODE_VERSIONS, opencodeBinary, type OpencodeVersion } from './opencode/binary.ts';

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
  /** `auth: false` leaves out the Authorization header of a password-protected server. */
  request<T = any>(method: string, path: string, opts?: { body?: unknown; directory?: string; timeoutMs?: number; auth?: boolean }): Promise<{ status: number; body: T }>;
  createSession(opts?: { directory?: string; title?: string }): Promise<{ id: string }>;
  prompt(sessionID: string, text: string, opts?: { directory?: string }): Promise<void>;
  pendingQuestions(opts?: { directory?: string }): Promise<any[]>;
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
  /** Merged into the mock model's entry in opencode.json. */
  mockModel?: Record<string, unknown>;
  /** Limit for the "listening" line and the warm-up request (default 60 s). */
  startTimeoutMs?: number;
  /**
   * After "listening", GET /config for the project so its instance (and the plugins) exist
   * before startOpencode resolves; fails on a non-200 answer. Default true.
   */
  warmup?: boolean;
  /** OPENCODE_SERVER_PASSWORD (and _USERNAME): every route then needs HTTP Basic, which request() sends. */
  password?: string;
  username?: string;
}

const LISTENING = /opencode server listening on (http:\/\/[^\s]+)/;

export async function startOpencode(opts: StartOpencodeOptions): Promise<OpencodeServer> {
  const bin = opencodeBinary(opts.version);
  const serverEnv: Record<string, string> = { ...opts.env };
  if (opts.password) serverEnv.OPENCODE_SERVER_PASSWORD = opts.password;
  if (opts.username) serverEnv.OPENCODE_SERVER_USERNAME = opts.username;
  const world = createHermeticEnv(opts.version, serverEnv);
  const config = projectConfig(opts);
  const directory = writeProject(join(world.root, 'project'), config);
  const port = await freePort();
  const startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  const authorization = opts.password ? `Basic ${Buffer.from(`${opts.username ?? 'opencode'}:${opts.password}`).toString('base64')}` : undefined;
  let proc: ManagedChild | undefined;
  let runs = 0;
  let history = '';
  let projects = 0;
  let stopped: Promise<void> | undefined;
  const logTail = () => `--- last log lines (OpenCode ${opts.version}, pid ${proc?.pid}, ${world.root}) ---\n${proc?.tail(40) ?? ''}`;

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
    request(method, path, o = {}) {
      const { auth, ...rest } = o;
      return opencodeRequest(server.url, method, path, { ...rest, directory: o.directory ?? directory, ...(authorization && auth !== false ? { authorization } : {}) }, logTail);
    },
    async createSession(o = {}) {
      const res = await server.request<{ id: string }>('POST', '/session', {
        body: o.title !== undefined ? { title: o.title } : {},
        ...(o.directory !== undefined ? { directory: o.directory } : {}),
      });
      if (res.status !== 200 || typeof res.body?.id !== 'string') {
        throw new Error(`POST /session answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
      return res.body;
    },
    async prompt(sessionID, text, o = {}) {
      const res = await server.request('POST', `/session/${encodeURIComponent(sessionID)}/prompt_async`, {
        body: { parts: [{ type: 'text', text }] },
        ...(o.directory !== undefined ? { directory: o.directory } : {}),
      });
      if (res.status !== 204 && res.status !== 200) {
        throw new Error(`POST /session/${sessionID}/prompt_async answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
    },
    async pendingQuestions(o = {}) {
      const res = await server.request<any[]>('GET', '/question', o.directory !== undefined ? { directory: o.directory } : {});
      if (res.status !== 200 || !Array.isArray(res.body)) {
        throw new Error(`GET /question answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
      return res.body;
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
      proc = spawnManaged(bin, ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--print-logs', '--log-level', 'INFO'], {
        cwd: directory,
        env: world.env,
        logFile: join(world.root, runs === 1 ? 'opencode.log' : `opencode-${runs}.log`),
      });
      const listening = await proc.waitForOutput(LISTENING, startTimeoutMs, `"opencode server listening on" from OpenCode ${opts.version}`);
      const url = listening[1]!.replace(/\/$/, '');
      if (url !== server.url) throw new Error(`OpenCode listens on ${url}, not on ${server.url}\n${logTail()}`);
      if (opts.warmup ?? true) {
        const res = await server.request('GET', '/config', { timeoutMs: startTimeoutMs });
        if (res.status !== 200) throw new Error(`warm-up GET /config answered ${res.status}: ${JSON.stringify(res.body)}\n${logTail()}`);
      }
    },
    logs: () => history + (proc?.logs() ?? ''),
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
