import { mkdirSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type OpencodeVersion } from "./binary.ts";

/**
 * Pre-seeds an OpenCode config directory (the global `$XDG_CONFIG_HOME/opencode`, or a
 * project's `.opencode/`) so OpenCode does not start its own `@opencode-ai/plugin` install.
 *
 * What each version checks before skipping the install (read from the binaries):
 * - 1.1.53 (`needsInstall`): `node_modules/` exists and package.json `dependencies`
 *   `["@opencode-ai/plugin"]` equals the OpenCode version exactly (else `bun install`).
 * - 1.18.33 (`Npm.install`): `node_modules/` exists and every dependency named in package.json
 *   (plus `@opencode-ai/plugin`) is listed in package-lock.json `packages[""]` (else arborist reify).
 * Neither looks inside node_modules; the package is symlinked anyway so that a plugin placed in
 * the config dir can resolve `@opencode-ai/plugin` (and, through the real path, its deps).
 */
export function seedConfigDir(dir: string, version: OpencodeVersion): void {
  const scope = join(dir, "node_modules", "@opencode-ai");
  mkdirSync(scope, { recursive: true });
  const link = join(scope, "plugin");
  if (!existsSync(link)) symlinkSync(join(REPO_ROOT, "node_modules", "@opencode-ai", "plugin"), link, "dir");
  const dependencies = { "@opencode-ai/plugin": version };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ dependencies }, null, 2)}\n`);
  const lock = {
    name: "opencode",
    lockfileVersion: 3,
    requires: true,
    packages: { "": { dependencies } },
  };
  writeFileSync(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
}
