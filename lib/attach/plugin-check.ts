// Is the Hermes plugin loaded in an OpenCode instance? Then that instance already has its bridge,
// and attach mode must leave it alone (two bridges would send every prompt twice, and two pollers
// of one bot token get 409 Conflict from Telegram).
//
// `GET /config?directory=…` lists the instance's `plugin` specs as written in opencode.json
// (measured on 1.18.33 and 1.1.53: `["file:///…plugin.ts"]`; an npm spec stays a name).
// Plugins auto-discovered from `.opencode/plugin/*.ts` are not listed there and are not detected.
import pRetry from "p-retry";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "../opencode/transport.ts";
import { isHermesSpec } from "../config/hermes-spec.ts";

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
