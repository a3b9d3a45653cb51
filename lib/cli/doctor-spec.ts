// Two checks of `opencode-hermes doctor` on what OpenCode actually loads: whether the Hermes entry of
// the config resolves (a path that exists, or a package OpenCode has installed or can install from
// the registry), and whether an OpenCode running with this bot's token has Hermes polling (it did
// load it). A spec that resolves to nothing makes OpenCode start without Hermes and say nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_NAME } from "../config/package-info.ts";
import { ok, problem, skipped, type Check } from "./doctor-check.ts";
import { ownCommand, ownEntry, type OwnEntry } from "./plugin-spec.ts";
import { forTerminal } from "./terminal-text.ts";

type Env = Record<string, string | undefined>;

const REGISTRY_TIMEOUT_MS = 8_000;
const DEFAULT_REGISTRY = "https://registry.npmjs.org/";

/** The registry OpenCode's installer would ask: npm's own setting (environment, then ~/.npmrc). */
export function npmRegistry(env: Env, read: (file: string) => string | undefined = readText): string {
  const fromEnv = env.npm_config_registry?.trim() || env.NPM_CONFIG_REGISTRY?.trim();
  if (fromEnv) return withSlash(fromEnv);
  const npmrc = read(path.join(env.HOME?.trim() || os.homedir(), ".npmrc"));
  const line = npmrc
    ?.split("\n")
    .map((text) => /^\s*registry\s*=\s*(\S+)\s*$/.exec(text)?.[1])
    .find(Boolean);
  return withSlash(line ?? DEFAULT_REGISTRY);
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** A path entry as OpenCode reads it: relative to the config file, `~/` from HOME, or a file: URL. */
function entryPath(spec: string, configFile: string, env: Env): string | undefined {
  if (spec.startsWith("file:")) {
    try {
      return fileURLToPath(spec);
    } catch {
      return undefined;
    }
  }
  if (spec.startsWith("~/")) return path.join(env.HOME?.trim() || os.homedir(), spec.slice(2));
  if (/^(\/|\.{1,2}[\\/]|[A-Za-z]:[\\/])/.test(spec)) return path.resolve(path.dirname(configFile), spec);
  return undefined;
}

/** `opencode-hermes@0.2.0` → the version; undefined for a bare name (the registry's latest). */
function specVersion(spec: string): string | undefined {
  const at = spec.lastIndexOf("@");
  return at > 0 ? spec.slice(at + 1) || undefined : undefined;
}

function installedVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Where OpenCode installs a plugin named in its config: 1.18 per spec, 1.1 in one shared node_modules. */
function installedByOpencode(spec: string, env: Env): string | undefined {
  const cache = path.join(env.XDG_CACHE_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), ".cache"), "opencode");
  const wanted = specVersion(spec);
  for (const dir of [path.join(cache, "packages", spec, "node_modules", PACKAGE_NAME), path.join(cache, "node_modules", PACKAGE_NAME)]) {
    const version = installedVersion(dir);
    if (version !== undefined && (wanted === undefined || wanted === version)) return dir;
  }
  return undefined;
}

const fixEntry = (configFile: string, own: OwnEntry) =>
  `in ${configFile}, list ${JSON.stringify(own.spec)} instead (${own.why}); ${ownCommand()} setup writes it.`;

/** Whether the Hermes entry `spec` of `configFile` loads anything; `own`: the entry that would (plugin-spec.ts). */
export async function specCheck(
  spec: string,
  configFile: string,
  env: Env,
  fetchImpl: typeof fetch = fetch,
  own: OwnEntry = ownEntry(undefined),
): Promise<Check> {
  const shown = forTerminal(spec, 160);
  const file = entryPath(spec, configFile, env);
  if (file !== undefined) {
    return fs.existsSync(file)
      ? ok(`Its entry ${shown} is there (${forTerminal(file, 160)})`)
      : problem(`Its entry ${shown} names ${forTerminal(file, 160)}, which does not exist: OpenCode starts without Hermes`, fixEntry(configFile, own));
  }
  const installed = installedByOpencode(spec, env);
  if (installed) return ok(`Its entry ${shown} is installed where OpenCode looks (${forTerminal(installed, 160)})`);
  const registry = npmRegistry(env);
  const version = specVersion(spec);
  let known: boolean;
  try {
    const response = await fetchImpl(`${registry}${PACKAGE_NAME}`, {
      headers: { accept: "application/vnd.npm.install-v1+json" },
      signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS),
    });
    if (response.status === 404) known = false;
    else if (!response.ok) {
      await response.body?.cancel();
      return skipped(`Could not ask the registry ${forTerminal(registry, 80)} whether ${shown} exists (HTTP ${response.status})`);
    } else {
      const body = (await response.json()) as { versions?: Record<string, unknown> };
      known = version === undefined || Object.hasOwn(body.versions ?? {}, version);
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    return skipped(
      `Could not ask the registry ${forTerminal(registry, 80)} whether ${shown} exists (${forTerminal(typeof cause === "string" ? cause : (error as Error).message, 80)})`,
    );
  }
  return known
    ? ok(`Its entry ${shown} is on the registry: OpenCode installs it when it starts`)
    : problem(
        `Its entry ${shown} is neither on the registry ${forTerminal(registry, 80)} nor installed where OpenCode looks: OpenCode starts without Hermes`,
        fixEntry(configFile, own),
      );
}

/** A running OpenCode of this user, as the process table shows it. */
export interface RunningOpencode {
  pid: number;
  env: Env;
}

/** OpenCode processes of this user (Linux' /proc; elsewhere none are found and the check says nothing). */
export function runningOpencodes(proc = "/proc"): RunningOpencode[] {
  let pids: string[];
  try {
    pids = fs.readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const found: RunningOpencode[] = [];
  for (const pid of pids) {
    try {
      if (uid !== undefined && fs.statSync(path.join(proc, pid)).uid !== uid) continue;
      const argv = fs.readFileSync(path.join(proc, pid, "cmdline"), "utf8").split("\0");
      if (!/(^|[\\/])\.?opencode(\.exe)?$/.test(argv[0] ?? "")) continue;
      const env: Env = {};
      for (const pair of fs.readFileSync(path.join(proc, pid, "environ"), "utf8").split("\0")) {
        const at = pair.indexOf("=");
        if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
      }
      found.push({ pid: Number(pid), env });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** An OpenCode running with this bot's token while no Hermes polls the bot: it did not load Hermes, or Hermes stayed off. */
export function loadedCheck(seen: Array<{ pid: number; polled: boolean }>): Check | undefined {
  if (seen.length === 0) return undefined;
  const silent = seen.filter((p) => !p.polled);
  if (silent.length === 0) return ok(`OpenCode (pid ${seen.map((p) => p.pid).join(", ")}) runs with this bot's token and Hermes polls it`);
  return problem(
    `OpenCode (pid ${silent.map((p) => p.pid).join(", ")}) runs with this bot's token, but no Hermes polls the bot for it: that OpenCode did not load Hermes, or Hermes stayed off`,
    "check the entry above, then OpenCode's log (a plugin it could not load) and Hermes' log (why it stayed off), and restart OpenCode.",
  );
}
