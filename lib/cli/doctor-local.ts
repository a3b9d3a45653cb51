// The checks of `opencode-hermes doctor` that stay on this machine: Node and OpenCode versions,
// Hermes in the global and the project's opencode.json, the log file, and the transcription service
// (reachable, and a loopback one owned by this user). The Telegram checks are doctor-telegram.ts.
import fs from "node:fs";
import path from "node:path";
import { parse } from "jsonc-parser";
import { listenerProblem, systemOwnerCheck, type OwnerCheck } from "../system/listener-owner.ts";
import { isHttpUrl, readLogSettings } from "../config/config.ts";
import { basicAuthorization, withoutCredentials } from "../config/process-secrets.ts";
import { globalConfigDirectory, globalConfigFile, hermesEntryOptions } from "../config/global-config.ts";
import { ok, problem, skipped, type Check } from "./doctor-check.ts";
import type { PluginKey } from "./opencode-config.ts";
import { hermesEntryIn, namesPluginFile, ownCommand, type OwnEntry } from "./plugin-spec.ts";
import { isOpencode2, type FoundOpencode } from "./opencode-version.ts";
import { forTerminal } from "./terminal-text.ts";

type Env = Record<string, string | undefined>;

const MIN_NODE_MAJOR = 20;
const TESTED_OPENCODE = ["1.1.53", "1.18.33", "2.0.15"];
const PROBE_TIMEOUT_MS = 5_000;

export function nodeCheck(version: string = process.versions.node): Check {
  const major = Number(version.split(".")[0]);
  return major >= MIN_NODE_MAJOR
    ? ok(`Node ${version}`)
    : problem(`Node ${version} is too old: the command line needs Node ${MIN_NODE_MAJOR} or later`, `install Node ${MIN_NODE_MAJOR}+ (https://nodejs.org).`);
}

/** The OpenCode on the PATH (opencode-version.ts). */
export function opencodeCheck(found: FoundOpencode): Check {
  if (!("version" in found)) {
    return problem(
      found.missing ? "OpenCode is not on the PATH" : `\`opencode --version\` failed (${forTerminal(found.reason)})`,
      "install OpenCode (npm i -g opencode-ai, or see https://opencode.ai), then run doctor again.",
    );
  }
  const tested = TESTED_OPENCODE.includes(found.version) ? "" : ` (Hermes is tested on ${TESTED_OPENCODE.join(", ")})`;
  return ok(`OpenCode ${found.version}${tested}`);
}

/**
 * Whether the entry's form is one the OpenCode on the PATH loads: OpenCode 2 skips a 1.x entry that
 * names a file (a local plugin must be a folder), and OpenCode 1.x reads only `plugin`. Undefined
 * when it does, or the version is not known.
 */
export function entryFormCheck(entry: { file: string; spec: string; key: PluginKey }, version: string | undefined, own: OwnEntry): Check | undefined {
  if (version === undefined) return undefined;
  const shown = forTerminal(entry.spec, 160);
  const instead = `in ${entry.file}, list ${JSON.stringify(own.spec)} in "${own.key}" instead.`;
  if (isOpencode2(version) && namesPluginFile(entry.spec)) {
    return problem(
      `Its entry ${shown} names a file, which OpenCode ${version} skips (a local plugin must be a folder): OpenCode starts without Hermes`,
      instead,
    );
  }
  if (!isOpencode2(version) && entry.key === "plugins") {
    return problem(`Its entry ${shown} is in "plugins", which OpenCode ${version} does not read: OpenCode starts without Hermes`, instead);
  }
  return undefined;
}

/** What one opencode.json says about Hermes. */
type EntryState = { kind: "listed"; spec: string; key: PluginKey } | { kind: "absent" } | { kind: "unreadable"; reason: string };

function entryIn(file: string): EntryState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { kind: "unreadable", reason: (error as Error).message };
  }
  const errors: Parameters<typeof parse>[1] = [];
  const config: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return { kind: "unreadable", reason: "it is not valid JSON(C)" };
  const entry = hermesEntryOptions(config) !== undefined ? hermesEntryIn(config) : undefined;
  return entry !== undefined ? { kind: "listed", ...entry } : { kind: "absent" };
}

/** The config files a project's OpenCode reads, from `directory` up to its git root (or /). */
export function projectConfigFiles(directory: string): string[] {
  const files: string[] = [];
  for (let dir = path.resolve(directory); ; dir = path.dirname(dir)) {
    for (const name of ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"]) files.push(path.join(dir, name));
    if (fs.existsSync(path.join(dir, ".git")) || path.dirname(dir) === dir) return files;
  }
}

function globalFiles(env: Env): string[] {
  const dir = globalConfigDirectory(env);
  const explicit = env.OPENCODE_CONFIG?.trim();
  return [path.join(dir, "config.json"), path.join(dir, "opencode.json"), path.join(dir, "opencode.jsonc"), ...(explicit ? [explicit] : [])];
}

/** The Hermes entry OpenCode would load in `directory`: the project's nearest, else the global one's. */
export function effectiveEntry(env: Env, directory: string): { file: string; spec: string; key: PluginKey } | undefined {
  for (const files of [projectConfigFiles(directory), globalFiles(env).reverse()]) {
    for (const file of files) {
      const state = entryIn(file);
      if (state?.kind === "listed") return { file, spec: state.spec, key: state.key };
    }
  }
  return undefined;
}

/**
 * Two lines: the global config, and the project in `directory`. A missing entry is a problem only
 * when neither loads Hermes; `own`: the entry to add (plugin-spec.ts).
 */
export function pluginEntryChecks(env: Env, directory: string, own: OwnEntry): Check[] {
  const scan = (files: string[]) => {
    const found = files.map((file) => ({ file, state: entryIn(file) })).filter((entry) => entry.state !== undefined);
    return {
      listed: found.find((entry) => entry.state?.kind === "listed")?.file,
      broken: found.find((entry) => entry.state?.kind === "unreadable"),
    };
  };
  const global = scan(globalFiles(env));
  const project = scan(projectConfigFiles(directory));
  const checks: Check[] = [];
  // With the version unknown the entry is 1.x's: say what OpenCode 2 reads instead.
  const add = `add ${JSON.stringify(own.spec)} to its "${own.key}" list${own.key === "plugin" ? ' (OpenCode 2: "plugins")' : ""}, or run ${ownCommand()} setup.`;
  const brokenCheck = (where: { file: string; state?: EntryState }) =>
    problem(`Could not read ${where.file}: ${where.state?.kind === "unreadable" ? where.state.reason : "?"}`, "fix the file: OpenCode can't read it either.");
  if (global.broken) checks.push(brokenCheck(global.broken));
  else if (global.listed) checks.push(ok(`The global config ${global.listed} loads Hermes`));
  else if (project.listed) checks.push(ok(`The global config ${globalConfigFile(env)} does not load Hermes; this project does (other projects won't)`));
  else checks.push(problem(`Neither the global config ${globalConfigFile(env)} nor this project loads Hermes`, `in ${globalConfigFile(env)}, ${add}`));
  if (project.broken) checks.push(brokenCheck(project.broken));
  else if (project.listed) checks.push(ok(`This project's ${project.listed} loads Hermes (its options replace the global entry's)`));
  else if (global.listed) checks.push(ok(`This project (${path.resolve(directory)}) has no Hermes entry of its own: the global one applies`));
  else checks.push(skipped(`This project (${path.resolve(directory)}) has no Hermes entry either`));
  return checks;
}

/** The log file: where it is, whether Hermes can write it, and the last warning or error in it. */
export function logCheck(env: Env): Check {
  const file = readLogSettings(env).file;
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    const dir = nearestExisting(path.dirname(file));
    try {
      fs.accessSync(dir, fs.constants.W_OK);
    } catch {
      return problem(`The log file ${file} does not exist and ${dir} is not writable`, "set HERMES_LOG_FILE to a file in a directory you own.");
    }
    return ok(`The log file ${file} does not exist yet (Hermes creates it when it first writes)`);
  }
  if (stat.isSymbolicLink())
    return problem(`The log file ${file} is a symlink: Hermes does not follow it and logs nothing`, "remove the link, or set HERMES_LOG_FILE.");
  try {
    fs.accessSync(file, fs.constants.W_OK);
  } catch {
    return problem(`The log file ${file} is not writable`, "fix its owner or mode, or set HERMES_LOG_FILE.");
  }
  const last = lastTrouble(file);
  return ok(`The log file is ${file}${last ? `; its last warning: ${last}` : ""}`);
}

function nearestExisting(dir: string): string {
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** The last line at warn level or above (pino: 40+) in the log's last 64 KB, as "time msg". */
function lastTrouble(file: string): string | undefined {
  try {
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      for (const line of buffer.toString("utf8").split("\n").reverse()) {
        try {
          const entry = JSON.parse(line) as { level?: unknown; time?: unknown; msg?: unknown };
          if (typeof entry.level !== "number" || entry.level < 40 || typeof entry.msg !== "string") continue;
          const time = typeof entry.time === "number" ? `${new Date(entry.time).toISOString()} ` : "";
          return forTerminal(`${time}${entry.msg}`, 160);
        } catch {
          // a partial first line or not JSON: keep looking
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** An outside service Hermes calls (HERMES_TRANSCRIBE_URL, HERMES_SPEECH_URL): how the check names it and what is sent there. */
interface Service {
  variable: "HERMES_TRANSCRIBE_URL" | "HERMES_SPEECH_URL";
  name: string;
  /** What another user listening there would get. */
  sent: string;
  /** What the check says when none is set. */
  unset: string;
}

const TRANSCRIPTION: Service = {
  variable: "HERMES_TRANSCRIBE_URL",
  name: "transcription service",
  sent: "your voice",
  unset: "No transcription service set (HERMES_TRANSCRIBE_URL): voice notes are refused, naming it",
};
const SPEECH: Service = {
  variable: "HERMES_SPEECH_URL",
  name: "speech service",
  sent: "the agent's answers",
  unset: "No speech service set (HERMES_SPEECH_URL): answers are not spoken",
};

/** The transcription service, if one is set: a URL, a loopback listener of this user, and an answer to HTTP. */
export function transcriptionCheck(env: Env, owner: OwnerCheck | undefined = systemOwnerCheck(), fetchImpl: typeof fetch = fetch): Promise<Check> {
  return serviceCheck(TRANSCRIPTION, env, owner, fetchImpl);
}

/** The speech service (spoken answers, docs/speech.md), checked as the transcription service is. */
export function speechCheck(env: Env, owner: OwnerCheck | undefined = systemOwnerCheck(), fetchImpl: typeof fetch = fetch): Promise<Check> {
  return serviceCheck(SPEECH, env, owner, fetchImpl);
}

async function serviceCheck(service: Service, env: Env, owner: OwnerCheck | undefined, fetchImpl: typeof fetch): Promise<Check> {
  const { variable, name } = service;
  const url = env[variable]?.trim();
  if (!url) return skipped(service.unset);
  if (!isHttpUrl(url)) return problem(`${variable} is not an http(s) URL`, "set it to the service's base URL, such as https://api.openai.com/v1.");
  // As the plugin does (lib/config/config.ts): the credentials leave the URL and go as HTTP Basic; only the bare URL is shown.
  const bare = withoutCredentials(url);
  const shown = forTerminal(bare, 120);
  const found = owner ? await listenerProblem(url, owner) : undefined;
  if (found && "unclassified" in found) return problem(`The ${name}'s host ${forTerminal(found.unclassified, 80)} does not resolve`, `fix ${variable}.`);
  if (found) {
    return problem(
      `The ${name} at ${shown} listens on a port owned by another user (uid ${found.listener.uid}): ${service.sent} would go to them`,
      `start your own server there, or point ${variable} elsewhere.`,
    );
  }
  try {
    const response = await fetchImpl(bare, { method: "GET", headers: basicAuthorization(url), signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return ok(`The ${name} at ${shown} answers (HTTP ${response.status})`);
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    return problem(
      `The ${name} at ${shown} does not answer (${forTerminal(typeof cause === "string" ? cause : (error as Error).message)})`,
      `start it, or fix ${variable}.`,
    );
  }
}
