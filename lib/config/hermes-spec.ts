// Whether one `plugin` / `plugins` entry of an opencode.json names Hermes: this package by npm name
// or path, or a clone of it. Setup, attach mode and the reading of the global config all ask this.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OWN_PLUGIN, PACKAGE_NAME } from "./package-info.ts";

/** One `plugin` entry names Hermes: this package (by path or npm name) or a clone of it. */
export function isHermesSpec(spec: unknown, ownPlugin: string = OWN_PLUGIN): boolean {
  const raw = Array.isArray(spec) ? spec[0] : spec; // [spec, options] tuples
  if (typeof raw !== "string" || raw.trim() === "") return false;
  const text = raw.trim();
  if (new RegExp(`^${PACKAGE_NAME}(@[^/]*)?$`).test(text)) return true; // npm spec
  let file: string;
  try {
    file = text.startsWith("file:") ? fileURLToPath(text) : text;
  } catch {
    return false;
  }
  const normalized = file.replace(/\\/g, "/").replace(/\/+$/, "");
  if (!/^(\/|\.{1,2}\/|~\/|[A-Za-z]:\/)/.test(normalized)) return false; // another npm package (maybe scoped)
  if (/\/(opencode-)?hermes(\/plugin\.ts)?$/.test(normalized)) return true; // a clone or node_modules/opencode-hermes
  const own = ownPlugin.replace(/\\/g, "/");
  if (normalized === own || normalized === path.posix.dirname(own)) return true;
  return packageNameNear(file) === PACKAGE_NAME;
}

/** The `name` in the package.json beside a local plugin file (or in that directory). */
function packageNameNear(file: string): string | undefined {
  for (const dir of [file, path.dirname(file)]) {
    try {
      const name = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
      if (typeof name === "string") return name;
    } catch {
      // not local, not a package: not Hermes as far as we can tell
    }
  }
  return undefined;
}
