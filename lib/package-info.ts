// This package as it is installed: its name, version and plugin file, found relative to this
// module, which runs as TypeScript (lib/, in a clone or inside OpenCode) or as the compiled
// JavaScript of the npm package (dist/lib/, for the command line on plain Node).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_NAME = "opencode-hermes";

const HERE = fileURLToPath(import.meta.url);

/** The plugin module beside this lib/ directory: plugin.ts, or dist/plugin.js in the package. */
export const OWN_PLUGIN = path.join(path.dirname(path.dirname(HERE)), `plugin${path.extname(HERE)}`);

/** The version in this package's package.json (the nearest one above this module that names it). */
export function packageVersion(): string | undefined {
  for (let dir = path.dirname(HERE); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === "string") return pkg.version;
    } catch {
      // none here: look further up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
