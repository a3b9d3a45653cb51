// The schedules' end-to-end tests run on a test minute (lib/schedules/pace.ts): `/every 1m` runs
// every TEST_MINUTE_MS instead of every 60 s. Long enough for a run, its session and its Done
// notice on a loaded machine, short enough that three ticks do not make the suite wait minutes.
import { TEST_MINUTE_VARIABLE } from "../../lib/schedules/pace.ts";

export const TEST_MINUTE_MS = 8_000;

/** What startRig / startOpencode add to Hermes' environment for it. */
export const TEST_MINUTE_ENV: Record<string, string> = { [TEST_MINUTE_VARIABLE]: String(TEST_MINUTE_MS) };
