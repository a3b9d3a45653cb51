// The `plugin` entry that loads this Hermes from where the command line runs, and the spec a config
// holds. Until the package is on the npm registry a name (`opencode-hermes@0.2.0`) loads nothing:
// OpenCode would start without Hermes and say nothing. So a clone, or a package installed from a
// tarball (`npm i -g ./opencode-hermes-0.2.0.tgz`), is named by the path of its own plugin.ts, which
// OpenCode loads as it is; only a copy that npx fetched from a registry is named by name@version.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isHermesSpec } from "../config/hermes-spec.ts";
import { isRecord } from "../util/is-record.ts";
import { OWN_PLUGIN, PACKAGE_NAME, packageVersion } from "../config/package-info.ts";
import type { PluginKey } from "./opencode-config.ts";
import { isOpencode2 } from "./opencode-version.ts";

export interface OwnSpec {
  /** What goes in the `plugin` list. */
  spec: string;
  /** Why this one, for the terminal. */
  why: string;
  /** A caveat worth printing (npx's cache is temporary). */
  note?: string;
}

type Exists = (file: string) => boolean;
type Read = (file: string) => string | undefined;

const readText: Read = (file) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};

/** Where npm says the package at `root` came from: the `resolved` of its lockfile record, if any. */
function resolvedFrom(root: string, read: Read): string | undefined {
  const modules = path.dirname(root); // …/node_modules
  for (const lockfile of [path.join(modules, ".package-lock.json"), path.join(path.dirname(modules), "package-lock.json")]) {
    const text = read(lockfile);
    if (text === undefined) continue;
    try {
      const record = (JSON.parse(text) as { packages?: Record<string, { resolved?: unknown }> }).packages?.[`node_modules/${PACKAGE_NAME}`];
      if (record) return typeof record.resolved === "string" ? record.resolved : "";
    } catch {
      // not JSON: look at the next one
    }
  }
  return undefined;
}

/** The entry for the Hermes whose plugin.ts is `plugin` (this one by default). */
export function ownPluginSpec(
  plugin: string = OWN_PLUGIN,
  version: string | undefined = packageVersion(),
  exists: Exists = fs.existsSync,
  read: Read = readText,
): OwnSpec {
  const root = path.dirname(plugin);
  if (exists(path.join(root, ".git")) || exists(path.join(root, "tsconfig.json"))) {
    return { spec: plugin, why: "this clone's plugin.ts (OpenCode loads it as it is)" };
  }
  const npx = /[\\/]_npx[\\/]/.test(root);
  if (npx) {
    const resolved = resolvedFrom(root, read);
    // A registry's record has an http(s) `resolved` (or none, with an integrity); a tarball's or folder's says file:.
    const fromRegistry = resolved === undefined || resolved === "" || /^https?:/.test(resolved);
    if (fromRegistry) {
      return { spec: version ? `${PACKAGE_NAME}@${version}` : PACKAGE_NAME, why: "the published package (OpenCode installs it by name)" };
    }
    return {
      spec: plugin,
      why: "the plugin.ts of this copy",
      note: "npx keeps this copy in its cache, which npm may empty: install the tarball for good (npm i -g <the .tgz>) and run setup again from there.",
    };
  }
  return { spec: plugin, why: "the plugin.ts of this installed package (OpenCode loads it as it is)" };
}

/** How to run this command line again from where it runs now: the clone's launcher, or the installed command. */
export function ownCommand(plugin: string = OWN_PLUGIN, exists: Exists = fs.existsSync): string {
  const root = path.dirname(plugin);
  if (exists(path.join(root, ".git")) || exists(path.join(root, "tsconfig.json"))) return `node ${path.join(root, "bin", "opencode-hermes.mjs")}`;
  return /[\\/]_npx[\\/]/.test(root) ? `npx ${PACKAGE_NAME}` : PACKAGE_NAME;
}

/** The spec and the key of the last entry that names Hermes in one parsed config (`plugin` of 1.x or `plugins` of 2.x). */
export function hermesEntryIn(config: unknown): { spec: string; key: PluginKey } | undefined {
  if (!isRecord(config)) return undefined;
  let found: { spec: string; key: PluginKey } | undefined;
  for (const key of ["plugin", "plugins"] as const) {
    const entries = config[key];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const spec: unknown = isRecord(entry) ? entry.package : Array.isArray(entry) ? entry[0] : entry;
      if (typeof spec === "string" && isHermesSpec(spec)) found = { spec: spec.trim(), key };
    }
  }
  return found;
}

/** The spec of the last entry that names Hermes in one parsed config. */
export function hermesSpecIn(config: unknown): string | undefined {
  return hermesEntryIn(config)?.spec;
}

/** An entry naming a plugin file, which OpenCode 2 skips (its local plugins are folders). */
export function namesPluginFile(spec: string): boolean {
  return /\.(ts|js|mjs)$/.test(spec);
}

export interface OwnEntry extends OwnSpec {
  /** The list it goes in. */
  key: PluginKey;
}

/**
 * The entry that loads this Hermes in the OpenCode of `version` (1.x when not known), for setup to
 * write and doctor to name: on OpenCode 2, in `plugins`, and for a plugin.ts its folder (it loads
 * the folder's server.ts), named by its file: URL.
 */
export function ownEntry(version: string | undefined, own: OwnSpec = ownPluginSpec()): OwnEntry {
  if (!isOpencode2(version)) return { ...own, key: "plugin" };
  if (!namesPluginFile(own.spec)) return { ...own, key: "plugins" };
  return {
    spec: pathToFileURL(path.dirname(own.spec)).href,
    why: `the folder ${path.dirname(own.spec)} (OpenCode ${version} loads a local plugin from its folder)`,
    ...(own.note ? { note: own.note } : {}),
    key: "plugins",
  };
}
