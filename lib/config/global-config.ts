// OpenCode's global config: the user's own files (a project's opencode.json may come from any cloned
// repository). Where it is, and what it says for Hermes. Setup adds Hermes to it; the plugin takes the
// chat and the allow-list from an opencode.json only when they are what these files say.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { isHermesSpec } from "./hermes-spec.ts";
import { isRecord } from "../util/is-record.ts";

type Env = Record<string, string | undefined>;

/** What the global config says for Hermes: the options of its entry (none: no entry), and the file they were read from (or setup would write). */
export interface GlobalHermesOptions {
  file: string;
  options?: Record<string, unknown>;
}

/** OpenCode's global config directory: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode. */
export function globalConfigDirectory(env: Env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), ".config");
  return path.join(base, "opencode");
}

/** The global config file setup edits: an existing opencode.jsonc, else opencode.json (existing or not). */
export function globalConfigFile(env: Env): string {
  const dir = globalConfigDirectory(env);
  const jsonc = path.join(dir, "opencode.jsonc");
  return fs.existsSync(jsonc) ? jsonc : path.join(dir, "opencode.json");
}

/** The files OpenCode merges into its global config, in its order (a later one wins), and $OPENCODE_CONFIG after them. */
function globalConfigFiles(env: Env): string[] {
  const dir = globalConfigDirectory(env);
  const explicit = env.OPENCODE_CONFIG?.trim();
  return [path.join(dir, "config.json"), path.join(dir, "opencode.json"), path.join(dir, "opencode.jsonc"), ...(explicit ? [explicit] : [])];
}

/**
 * The options of the last Hermes entry in the global config files (OpenCode keeps the last entry per
 * plugin), `{env:NAME}` substituted as OpenCode does; no options when no global file lists Hermes.
 */
export function globalHermesOptions(env: Env, readFile: (file: string) => string | undefined = readText): GlobalHermesOptions {
  let found: GlobalHermesOptions = { file: globalConfigFile(env) };
  for (const file of globalConfigFiles(env)) {
    const text = readFile(file);
    if (text === undefined) continue;
    const options = hermesEntryOptions(
      jsonc().parse(
        text.replace(/\{env:([^}]+)\}/g, (_, name: string) => env[name] ?? ""),
        [],
        { allowTrailingComma: true },
      ),
    );
    if (options !== undefined) found = { file, options };
  }
  return found;
}

/** Hermes' options in one parsed config: 1.x `plugin: [[spec, options]]` or 2.x `plugins: [{ package, options }]`; {} for an entry without. */
export function hermesEntryOptions(config: unknown): Record<string, unknown> | undefined {
  if (!isRecord(config)) return undefined;
  let found: Record<string, unknown> | undefined;
  for (const key of ["plugin", "plugins"]) {
    const entries = config[key];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const spec = isRecord(entry) ? entry.package : entry;
      if (!isHermesSpec(spec)) continue;
      const options = Array.isArray(entry) ? entry[1] : isRecord(entry) ? entry.options : undefined;
      found = isRecord(options) ? options : {};
    }
  }
  return found;
}

/**
 * jsonc-parser, loaded the first time a global config file exists: most machines have none, and the
 * plugin starts inside OpenCode, where the module costs about 1 MB (docs/performance.md).
 */
let jsoncParser: typeof import("jsonc-parser") | undefined;
function jsonc(): typeof import("jsonc-parser") {
  jsoncParser ??= createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser");
  return jsoncParser;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
