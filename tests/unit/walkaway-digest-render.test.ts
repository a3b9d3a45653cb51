// /digest's pure halves: a part from another process is checked field by field (a bad one is
// dropped), the message escapes what came from OpenCode or the phone, groups per project and
// session, and a digest longer than a message shows its start and sends the whole as a file;
// the span of `/digest 8h` and its bounds.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { renderDigest } from "../../lib/telegram/render/render-digest.ts";
import { digestSpan } from "../../lib/bridge/walkaway/digest-command.ts";
import type { Decision, RunRecord } from "../../lib/walkaway/digest-log.ts";
import { parseDigestPart } from "../../lib/walkaway/digest-part.ts";

const t = CATALOGS.en;
const T0 = Date.parse("2026-12-02T00:00:00Z");
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  sessionID: "s1",
  directory: "/home/dev/app",
  title: "Fix <b>it</b>",
  startedBy: "phone",
  startedAt: T0,
  endedAt: T0 + 60_000,
  outcome: "done",
  cost: 0.12,
  filesChanged: 3,
  ...over,
});
const decision = (over: Partial<Decision> = {}): Decision => ({
  at: T0 + 1_000,
  sessionID: "s1",
  directory: "/home/dev/app",
  requestID: "r1",
  kind: "permission",
  asked: "bash: rm <x>",
  answer: "reject",
  answerKind: "reject",
  source: { kind: "phone", by: "Ana <script>" },
  ...over,
});

describe("/digest's part from another process", () => {
  it("takes a well-formed part and drops one with a bad field", () => {
    const good = { runs: [run()], decisions: [decision(), decision({ kind: "question", answer: "Red", answerKind: "labels", source: { kind: "timeout" } })] };
    expect(parseDigestPart(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(parseDigestPart({ runs: [run({ outcome: "exploded" as never })], decisions: [] })).toBeUndefined();
    expect(parseDigestPart({ runs: [], decisions: [decision({ source: { kind: "phone" } as never })] })).toBeUndefined();
    expect(parseDigestPart({ runs: [], decisions: [decision({ answerKind: "<b>" as never })] })).toBeUndefined();
    expect(parseDigestPart({ runs: "x", decisions: [] })).toBeUndefined();
    expect(parseDigestPart(undefined)).toBeUndefined();
  });
});

describe("/digest's message", () => {
  it("escapes titles, requests and names; one heading per project and session; parts merged", () => {
    const other = {
      runs: [run({ sessionID: "s2", directory: "/srv/api", title: "Deploy", startedBy: "schedule", outcome: "paused", cost: 0, filesChanged: 0 })],
      decisions: [],
    };
    const { text, file } = renderDigest([{ runs: [run()], decisions: [decision()] }, other], { since: T0 - 3_600_000, now: T0 + 3_600_000 }, t);
    expect(file).toBeUndefined();
    expect(text).toContain("📁 <b>app</b>");
    expect(text).toContain("<i>Fix &lt;b&gt;it&lt;/b&gt;</i>");
    expect(text).toContain("bash: rm &lt;x&gt; → rejected · Ana &lt;script&gt; on the phone");
    expect(text).toContain("· done · $0.12 · 3 files");
    expect(text).toContain("📁 <b>api</b>");
    expect(text).toMatch(/by a schedule · paused by a limit$/m);
    expect(text).not.toContain("<script>");
  });

  it("nothing: says so", () => {
    expect(renderDigest([], { since: T0, now: T0 + 1 }, t).text).toContain("Nothing ran and nothing was decided.");
  });

  it("longer than a message: its start, how many more, and the whole as a plain-text file", () => {
    const decisions = Array.from({ length: 200 }, (_, i) => decision({ requestID: `r${i}`, at: T0 + i * 1_000, asked: `bash: echo ${i} && true` }));
    const { text, file } = renderDigest([{ runs: [run()], decisions }], { since: T0, now: T0 + 3_600_000 }, t);
    expect(text.length).toBeLessThanOrEqual(4_096);
    expect(text).toMatch(/… \d+ more in the file$/);
    expect(file).toContain("bash: echo 199 && true → rejected · Ana <script> on the phone");
    expect(file).not.toContain("&amp;");
  });
});

describe("/digest's span", () => {
  it("12 h by default, a duration with its unit, at most the day the log keeps; anything else is no span", () => {
    expect(digestSpan("/digest")).toEqual({ spanMs: 12 * 3_600_000 });
    expect(digestSpan("/digest 8h")).toEqual({ spanMs: 8 * 3_600_000 });
    expect(digestSpan("/digest@hermes_bot 30m")).toEqual({ spanMs: 30 * 60_000 });
    expect(digestSpan("/digest 72h")).toEqual({ spanMs: 24 * 3_600_000 });
    expect(digestSpan("/digest 8")).toEqual({ invalid: true });
    expect(digestSpan("/digest yesterday")).toEqual({ invalid: true });
    expect(digestSpan("/digestive")).toBeUndefined();
    expect(digestSpan("hello")).toBeUndefined();
  });
});
