// What OpenCode does when the provider answers 429, measured on the real `opencode serve` (no
// Hermes loaded) with the scripted LLM and the project's event stream: with a `retry-after`
// header, with a reset time named only in the body, and with neither. Hermes' usage-limit pause
// (lib/walkaway/) builds on these facts; docs/compatibility.md has them in words. When an OpenCode
// upgrade changes one, this file fails and names it. One OpenCode per version, one session per scenario.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordEvents, type EventRecorder } from "../support/event-stream.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { isOpencode2, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";

const ALL: OpencodeVersion[] = ["1.18.33", "1.1.53", "2.0.15"];
/** HERMES_CONTRACT_VERSIONS=2.0.15 measures one version. */
const VERSIONS = process.env.HERMES_CONTRACT_VERSIONS ? ALL.filter((v) => process.env.HERMES_CONTRACT_VERSIONS!.split(",").includes(v)) : ALL;
const PASSWORD = "usage-limit-contract";
const DUMP = process.env.HERMES_CONTRACT_DUMP;

type Ev = { type: string; properties: any };

/** A body that names when the limit resets (what Codex, Claude and z.ai subscriptions send), no header. */
const QUOTA_MESSAGE = "You have reached your usage limit. Your limit resets at 2026-12-02T04:11:00Z.";

describe.each(VERSIONS)("OpenCode %s on a 429", (version) => {
  const two = isOpencode2(version);
  let llm: MockLlm;
  let oc: OpencodeServer;
  let recorder: EventRecorder;
  const events = () => recorder.events as Ev[];

  beforeAll(async () => {
    llm = await startMockLlm();
    oc = await startOpencode({ version, llmBaseURL: llm.baseURL, plugins: [], ...(two ? { password: PASSWORD } : {}) });
    recorder = await recordEvents(oc.url, oc.directory, {
      timeoutMs: 900_000,
      ...(two ? { path: "/api/event", authorization: `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString("base64")}` } : {}),
    });
    await pollUntil(() => events().some((e) => /connected/.test(e.type)), { what: "the event stream connected", timeoutMs: 30_000 });
  }, 120_000);
  afterEach(() => llm.setFailure(null));
  afterAll(async () => {
    recorder?.close();
    await oc?.stop();
    await llm?.close();
  });

  const of = (sessionID: string) => events().filter((e) => sessionOf(e) === sessionID);
  const agentRequestTimes = (since: number) =>
    llm.requests.map((body, index) => ({ body, at: llm.requestTimes[index]! })).filter((r) => r.at >= since && !isTitleRequest(r.body));
  const retries = (sessionID: string) => of(sessionID).filter(isRetry);
  const failure = (sessionID: string) =>
    of(sessionID).find((e) => e.type === "session.error" || e.type === "session.step.failed" || /error|failed/.test(e.type));
  const dump = (label: string, sessionID: string, since: number) => {
    if (!DUMP) return;
    const lines = of(sessionID)
      .filter((e) => !/message\.part\.delta|message\.part\.updated|session\.diff/.test(e.type))
      .map((e) => JSON.stringify({ type: e.type, p: e.properties }).slice(0, 900));
    const times = agentRequestTimes(since).map((r) => r.at - since);
    console.error(`=== ${version} ${label}\nrequests at +ms: ${JSON.stringify(times)}\n${lines.join("\n")}`);
  };
  const idle = (sessionID: string) =>
    pollUntil(
      () =>
        of(sessionID).some((e) => (two ? /^session\.execution\.(succeeded|failed|interrupted)$/.test(e.type) : e.type === "session.idle")),
      {
        what: `the end of ${sessionID}'s run`,
        timeoutMs: 120_000,
        context: () => JSON.stringify(of(sessionID).map((e) => e.type)),
      },
    );

  it("a retry-after of 5 s: the run waits for it, says when it retries, and goes on", async () => {
    llm.setFailure({
      agentOnly: true,
      status: 429,
      times: 1,
      message: "Rate limit reached for requests",
      type: "rate_limit_exceeded",
      headers: { "retry-after": "5" },
    });
    const since = Date.now();
    const { id } = await oc.createSession();
    await oc.prompt(id, "hello after a limit");
    await idle(id);
    dump("retry-after 5", id, since);
    const requests = agentRequestTimes(since);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    const gap = requests[1]!.at - requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(4_900);
    expect(gap).toBeLessThan(9_000);
    expect(retries(id).length).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it("a retry-after of an hour: the retry is scheduled that far (2.0.15: 15 min at most), and an abort ends the wait", async () => {
    llm.setFailure({
      agentOnly: true,
      status: 429,
      message: "Rate limit reached for requests",
      type: "rate_limit_exceeded",
      headers: { "retry-after": "3600" },
    });
    const since = Date.now();
    const { id } = await oc.createSession();
    await oc.prompt(id, "hello after a long limit");
    const retry = await pollUntil(() => retries(id)[0], { what: "a retry event", timeoutMs: 60_000, context: () => JSON.stringify(of(id)) });
    const next = retryAt(retry);
    const wait = next - Date.now();
    if (two) expect(wait).toBeLessThan(901_000);
    else expect(wait).toBeGreaterThan(3_500_000);
    expect(wait).toBeGreaterThan(two ? 800_000 : 3_500_000);
    const status = await oc.abort(id);
    expect([200, 204]).toContain(status);
    await idle(id);
    await sleep(1_000);
    dump("retry-after 3600 then abort", id, since);
    expect(agentRequestTimes(since).length).toBe(1);
  }, 180_000);

  it("a reset time named only in the body", async () => {
    llm.setFailure({ agentOnly: true, status: 429, message: QUOTA_MESSAGE, type: "usage_limit_reached" });
    const since = Date.now();
    const { id } = await oc.createSession();
    await oc.prompt(id, "hello after a quota");
    await Promise.race([idle(id), sleep(75_000)]);
    dump("reset in the body", id, since);
    if (await oc.isBusy(id)) {
      await oc.abort(id);
      await idle(id);
    }
  }, 240_000);

  it("neither a header nor a reset time", async () => {
    llm.setFailure({ agentOnly: true, status: 429, message: "Too many requests", type: "rate_limit_exceeded" });
    const since = Date.now();
    const { id } = await oc.createSession();
    await oc.prompt(id, "hello after a bare limit");
    await Promise.race([idle(id), sleep(80_000)]);
    dump("bare 429", id, since);
    if (await oc.isBusy(id)) {
      await oc.abort(id);
      await idle(id);
    }
  }, 240_000);
});

function sessionOf(e: Ev): string | undefined {
  const p = e.properties ?? {};
  return p.sessionID ?? p.info?.sessionID ?? p.part?.sessionID ?? (e.type.startsWith("session.") ? (p.info?.id ?? p.id) : undefined);
}

function isRetry(e: Ev): boolean {
  return (e.type === "session.status" && e.properties?.status?.type === "retry") || e.type === "session.retry.scheduled";
}

/** When the retry is due, in ms since the epoch: 1.x's `status.next`, 2.0.15's `at`. */
function retryAt(e: Ev): number {
  const raw = e.type === "session.status" ? e.properties.status.next : e.properties.at;
  return typeof raw === "number" ? raw : Date.parse(String(raw));
}
