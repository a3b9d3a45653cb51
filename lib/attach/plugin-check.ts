// Is the Hermes plugin loaded in an OpenCode instance? Then that instance already has its bridge,
// and attach mode must leave it alone (two bridges would send every prompt twice, and two pollers
// of one bot token get 409 Conflict from Telegram).
//
// `GET /config?directory=…` lists the instance's `plugin` specs as written in opencode.json
// (measured on 1.18.33 and 1.1.53: `["file:///…/plugin.ts"]`; an npm spec stays a name).
// Plugins auto-discovered from `.opencode/plugin/*.ts` are not listed there and are not detected.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pRetry from "p-retry";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "../opencode/transport.ts";
import { OWN_PLUGIN, PACKAGE_NAME } from "../package-info.ts";

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

export type PluginCheck = { loaded: boolean; spec?: string } | { loaded: undefined; error: string };

/** Asks the instance for its config (a few tries); `loaded: undefined` when it could not be read. */
export async function hermesPluginIn(transport: OpencodeTransport, options: { retries?: number; ownPlugin?: string } = {}): Promise<PluginCheck> {
  try {
    return await pRetry(
      async () => {
        const result = await transport.request("GET", "/config", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        if (result.status !== 200) throw new Error(`GET /config answered ${result.status}`);
        const plugins = (result.data as { plugin?: unknown } | undefined)?.plugin;
        const found = Array.isArray(plugins) ? plugins.find((spec) => isHermesSpec(spec, options.ownPlugin)) : undefined;
        return found === undefined ? { loaded: false } : { loaded: true, spec: String(Array.isArray(found) ? found[0] : found) };
      },
      { retries: options.retries ?? 3, minTimeout: 300, maxTimeout: 2_000 },
    );
  } catch (error) {
    return { loaded: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}
