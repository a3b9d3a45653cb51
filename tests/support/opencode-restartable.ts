import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { opencodeBinary, type OpencodeVersion } from './opencode/binary.ts';
import { spawnManaged, type ManagedChild } from './opencode/child-process.ts';
import { createHermeticEnv } from './opencode/hermetic-env.ts';
import { projectConfig, writeProject } from './opencode/project-config.ts';
import type { StartOpencodeOptions } from './opencode.ts';
import { pollUntil } from './wait.ts';

/**
 * `opencode serve` that can be killed and started again on the same port, home and data (the
 * plain startOpencode removes its world on stop), optionally behind HTTP Basic auth
 * (OPENCODE_SERVER_PASSWORD in the server's env; every request here then carries the header).
 */
export interface RestartableOpencode {
  version: OpencodeVersion;
  url: string;
  port: number;
  directory: string;
  root: string;
  request<T = any>(method: string, path: string, opts?: { body?: unknown; directory?: string; timeoutMs?: number; auth?: boolean }): Promise<{ status: number; body: T }>;
  createSession(opts?: { directory?: string }): Promise<{ id: string }>;
  prompt(sessionID: string, text: string, opts?: { directory?: string }): Promise<void>;
  pendingQuestions(opts?: { directory?: string }): Promise<any[]>;
  waitForQuestion(opts?: { directory?: string; timeoutMs?: number; not?: string[] }): Promise<any>;
  addProject(name?: string): Promise<string>;
  /** Kills the process (SIGKILL: no goodbye events), keeping its world. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same world. */
  start(): Promise<void>;
  logs(): string;
  stop(): Promise<void>;
}

export interface RestartableOptions extends StartOpencodeOptions {
  password?: string;
  username?: string;
}

const LISTENING = /opencode server listening on (http:\/\/[^\s]+)/;

export async function startRestartableOpencode(opts: RestartableOptions): Promise<RestartableOpencode> {
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
  let projects = 0;
  let history = '';
  const tail = () => `--- last log lines (OpenCode ${opts.version}, ${world.root}) ---\n${proc?.tail(40) ?? ''}`;

  const server: RestartableOpencode = {
    version: opts.version,
    url: `http://127.0.0.1:${port}`,
    port,
    directory,
    root: world.root,
    async request(method, path, o = {}) {
      const url = new URL(path, server.url);
      if (!url.searchParams.has('directory')) url.searchParams.set('directory', o.directory ?? directory);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      if (authorization && o.auth !== false) headers.authorization = authorization;
      const timeoutMs = o.timeoutMs ?? 30_000;
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, { method, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}), signal: AbortSignal.timeout(timeoutMs) });
        text = await res.text();
      } catch (err) {
        throw new Error(`OpenCode ${method} ${url.pathname}: ${err instanceof Error ? err.message : String(err)}\n${tail()}`);
      }
      let body: unknown = text === '' ? undefined : text;
      if (text && (res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
      return { status: res.status, body: body as any };
    },
    async createSession(o = {}) {
      const res = await server.request<{ id: string }>('POST', '/session', { body: {}, ...(o.directory ? { directory: o.directory } : {}) });
      if (res.status !== 200 || typeof res.body?.id !== 'string') throw new Error(`POST /session answered ${res.status}: ${JSON.stringify(res.body)}\n${tail()}`);
      return res.body;
    },
    async prompt(sessionID, text, o = {}) {
      const res = await server.request('POST', `/session/${encodeURIComponent(sessionID)}/prompt_async`, { body: { parts: [{ type: 'text', text }] }, ...(o.directory ? { directory: o.directory } : {}) });
      if (res.status !== 204 && res.status !== 200) throw new Error(`prompt_async answered ${res.status}: ${JSON.stringify(res.body)}\n${tail()}`);
    },
    async pendingQuestions(o = {}) {
      const res = await server.request<any[]>('GET', '/question', o.directory ? { directory: o.directory } : {});
      if (res.status !== 200 || !Array.isArray(res.body)) throw new Error(`GET /question answered ${res.status}\n${tail()}`);
      return res.body;
    },
    waitForQuestion(o = {}) {
      return pollUntil(async () => (await server.pendingQuestions(o)).find((q) => !o.not?.includes(q.id)), {
        timeoutMs: o.timeoutMs ?? 30_000,
        intervalMs: 100,
        what: `a pending question in ${o.directory ?? directory}`,
        context: tail,
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
        logFile: join(world.root, `opencode-${runs}.log`),
      });
      const listening = await proc.waitForOutput(LISTENING, startTimeoutMs, `"opencode server listening on" from OpenCode ${opts.version}`);
      const url = listening[1]!.replace(/\/$/, '');
      if (url !== server.url) throw new Error(`OpenCode listens on ${url}, not on ${server.url}\n${tail()}`);
      if (opts.warmup ?? true) {
        const res = await server.request('GET', '/config', { timeoutMs: startTimeoutMs });
        if (res.status !== 200) throw new Error(`warm-up GET /config answered ${res.status}\n${tail()}`);
      }
    },
    logs: () => history + (proc?.logs() ?? ''),
    async stop() {
      await server.kill();
      if (process.env.KEEP_TMP) console.error(`[harness] KEEP_TMP: OpenCode ${opts.version} temp dir kept at ${world.root}`);
      else rmSync(world.root, { recursive: true, force: true });
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
