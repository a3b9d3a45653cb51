// OpenCode 2's entry point: `setup(ctx)` runs once per location and returns the cleanup. It does
// nothing where the context has no event stream (not OpenCode 2), never throws, never blocks.
import { isContext2, startLocation } from "./opencode2-host.ts";

/** The id Hermes registers under (server.ts), and the one `GET /api/plugin` lists it by. */
export const PLUGIN_ID = "hermes";

export async function setup(ctx: unknown): Promise<(() => Promise<void>) | undefined> {
  try {
    if (!isContext2(ctx)) return undefined;
    return startLocation(ctx);
  } catch {
    return undefined;
  }
}
