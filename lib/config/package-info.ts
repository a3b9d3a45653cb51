// This package as it is installed: its root, name, version and plugin file, found from this
// module, which runs as TypeScript (lib/, in a clone or inside OpenCode) or as the compiled
// JavaScript of the command line (dist/lib/, in the npm package, for plain Node).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_NAME = "opencode-hermes";

interface PackageInfo {
  root: string;
  version?: string;
}

/** The nearest directory above this module whose package.json names this package. */
function findPackage(): PackageInfo | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME) return { root: dir, ...(typeof pkg.version === "string" ? { version: pkg.version } : {}) };
    } catch {
      // none here: look further up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

const found = findPackage();

/** The plugin module OpenCode loads: plugin.ts at the package root. */
export const OWN_PLUGIN = path.join(found?.root ?? path.dirname(path.dirname(fileURLToPath(import.meta.url))), "plugin.ts");

export function packageVersion(): string | undefined {
  return found?.version;
}
