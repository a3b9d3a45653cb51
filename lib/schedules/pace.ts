// How long a schedule's minute lasts (pure). For every user it is a minute: 60,000 ms. The
// end-to-end tests, which start OpenCode themselves against a fake Telegram on loopback, shorten it
// with HERMES_TEST_SCHEDULE_MINUTE_MS so that `/every 1m` runs every few seconds instead of making
// the suite wait real minutes (docs/development.md, "Scheduled runs in the tests"). The setting is
// in neither the README nor /help, and it is refused unless the Bot API root is a loopback http://
// address, which only a test's fake Telegram is: a Hermes talking to Telegram keeps real minutes.

export const MINUTE_MS = 60_000;

/** The test setting; its name appears nowhere a user reads. */
export const TEST_MINUTE_VARIABLE = "HERMES_TEST_SCHEDULE_MINUTE_MS";

/** The shortest test minute: a run, its session and its Done notice fit in it on a loaded machine. */
const SHORTEST_TEST_MINUTE_MS = 2_000;

/** A schedule's clock: its minute, how late a run may start, how often the wake-up timer re-reads the file. */
export interface SchedulePace {
  minuteMs: number;
  /** A run more than this late was missed (a minute). */
  lateLimitMs: number;
  /** The wake-up timer looks at the schedules file at least this often (half a minute). */
  recheckMs: number;
}

export function paceOf(minuteMs: number): SchedulePace {
  return { minuteMs, lateLimitMs: minuteMs, recheckMs: minuteMs / 2 };
}

/** Every user's pace. */
export const REAL_PACE: SchedulePace = paceOf(MINUTE_MS);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The pace for this process: a test minute only when the variable holds a whole number of
 * milliseconds from 2 s to a minute and the Bot API root is http:// on loopback; anything else
 * (unset, malformed, or a real Telegram) is the real pace, and `refused` says why a set one was not taken.
 */
export function schedulePace(env: Record<string, string | undefined>, apiRoot: string): { pace: SchedulePace; refused?: string } {
  const raw = env[TEST_MINUTE_VARIABLE]?.trim();
  if (!raw) return { pace: REAL_PACE };
  const minuteMs = Number(raw);
  if (!Number.isInteger(minuteMs) || minuteMs < SHORTEST_TEST_MINUTE_MS || minuteMs > MINUTE_MS)
    return { pace: REAL_PACE, refused: `${TEST_MINUTE_VARIABLE} must be ${SHORTEST_TEST_MINUTE_MS} to ${MINUTE_MS} ms` };
  if (!isLoopbackHttp(apiRoot)) return { pace: REAL_PACE, refused: `${TEST_MINUTE_VARIABLE} is for the tests' fake Telegram on loopback only` };
  return { pace: paceOf(minuteMs) };
}

function isLoopbackHttp(apiRoot: string): boolean {
  try {
    const url = new URL(apiRoot);
    return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}
