// The digest's feed on its own (lib/bridge/walkaway/digest-feed.ts): a run whose stall alert went up
// ends as stalled (stopped when it was stopped after it); the files a run changed are counted on that
// run, read after its end, and never on the next run already under way or on a sub-agent's session.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { DigestFeed } from "../../lib/bridge/walkaway/digest-feed.ts";

const DIR = "/home/dev/project";

function feed() {
  let clock = 1_000_000;
  const registry = new Registry();
  const stopped = new Set<string>();
  const digest = new DigestFeed({
    registry,
    activity: { endsEarly: (sessionID) => stopped.has(sessionID) },
    costs: { spent: () => undefined },
    log: pino({ level: "silent" }),
    t: CATALOGS.en,
    now: () => (clock += 1_000),
  });
  const run = (sessionID: string, status: "busy" | "idle") => digest.observe(DIR, { type: "session.status", sessionID, status });
  const runs = () => digest.slice(0).runs.map((r) => [r.sessionID, r.outcome, r.filesChanged]);
  return { registry, digest, run, runs, stopped };
}

describe("DigestFeed", () => {
  it("a run whose stall alert went up ends stalled when it went on by itself, stopped when it was stopped", () => {
    const { digest, run, runs, stopped } = feed();
    run("ses_a", "busy");
    digest.stalled("ses_a");
    run("ses_a", "idle");
    run("ses_b", "busy");
    digest.stalled("ses_b");
    stopped.add("ses_b");
    run("ses_b", "idle");
    run("ses_c", "busy");
    run("ses_c", "idle");
    expect(runs()).toEqual([
      ["ses_a", "stalled", 0],
      ["ses_b", "stopped", 0],
      ["ses_c", "done", 0],
    ]);
  });

  it("counts the files on the run that ended, not on the next one under way nor for a sub-agent's session", () => {
    const { registry, digest, run, runs } = feed();
    registry.sessions.upsert({ id: "ses_child", parentID: "ses_a", directory: DIR });
    run("ses_a", "busy");
    run("ses_a", "idle");
    run("ses_a", "busy");
    digest.filesChanged("ses_a", 3);
    digest.filesChanged("ses_child", 7);
    expect(runs()).toEqual([
      ["ses_a", "done", 3],
      ["ses_a", "running", 0],
    ]);
  });
});
