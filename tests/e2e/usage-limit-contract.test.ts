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
  const dump = (label: string, sessionID: string, since: number) => {
    if (!DUMP) return;
    const lines = of(sessionID)
      .filter((e) => !/message\.part\.delta|message\.part\.updated|session\.diff/.test(e.type))
      .map((e) => JSON.stringify({ type: e.type, p: e.properties }).slice(0, 900));
    const times = agentRequestTimes(since).map((r) => r.at - since);
    console.error(`=== ${version} ${label}\nrequests at +ms: ${JSON.stringify(times)}\n${lines.join("\n")}`);
  };
  const idle = (sessionID: string) =>
    pollUntil(() => of(sessionID).some((e) => (two ? /^session\.execution\.(succeeded|failed|interrupted)$/.test(e.type) : e.type === "session.idle")), {
      what: `the end of ${sessionID}'s run`,
      timeoutMs: 120_000,
      context: () => JSON.stringify(of(sessionID).map((e) => e.type)),
    });

  const hasFailed = (sessionID: string) =>
    of(sessionID).find((e) =>
      two ? e.type === "session.execution.failed" : e.type === "session.error" && e.properties?.error?.name !== "MessageAbortedError",
    );

  it("a retry-after of 5 s: the run waits exactly that, says when it retries, and goes on", async () => {
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
    expect(requests).toHaveLength(2);
    const gap = requests[1]!.at - requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(4_900);
    expect(gap).toBeLessThan(9_000);
    const [retry, ...more] = retries(id);
    expect(more).toEqual([]);
    if (two) {
      expect(retry!.type).toBe("session.retry.scheduled");
      expect(retry!.properties).toMatchObject({ attempt: 2, error: { type: "provider.rate-limit", message: "Rate limit reached for requests", status: 429 } });
    } else expect(retry!.properties.status).toMatchObject({ type: "retry", attempt: 1, message: "Rate limit reached for requests" });
    expect(Math.abs(retryAt(retry!) - (requests[0]!.at + 5_000))).toBeLessThan(1_500);
    expect(hasFailed(id)).toBeUndefined();
  }, 180_000);

  it("a retry-after of an hour: 1.x waits the hour, 2.0.15 at most 15 min; an abort ends the wait", async () => {
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
    const wait = retryAt(retry) - agentRequestTimes(since)[0]!.at;
    if (two) expect(Math.abs(wait - 900_000)).toBeLessThan(5_000);
    else expect(Math.abs(wait - 3_600_000)).toBeLessThan(5_000);
    expect([200, 204]).toContain(await oc.abort(id));
    await idle(id);
    await sleep(1_000);
    dump("retry-after 3600 then abort", id, since);
    expect(agentRequestTimes(since)).toHaveLength(1);
    if (two) expect(of(id).find((e) => e.type === "session.execution.interrupted")?.properties).toMatchObject({ reason: "user" });
    expect(hasFailed(id)).toBeUndefined();
  }, 180_000);

  it("a reset time named only in the body, and a bare 429: 1.18.33 gives up after five retries, 1.1.53 never, 2.0.15 fails a quota at once and a bare limit after ten retries", async () => {
    llm.setFailure([
      { agentOnly: true, matching: "hello after a quota", status: 429, message: QUOTA_MESSAGE, type: "usage_limit_reached" },
      { agentOnly: true, matching: "hello after a bare limit", status: 429, message: "Too many requests", type: "rate_limit_exceeded" },
    ]);
    const since = Date.now();
    const quota = await oc.createSession();
    const bare = await oc.createSession();
    await oc.prompt(quota.id, "hello after a quota");
    await oc.prompt(bare.id, "hello after a bare limit");
    // 1.18.33's five retries take 2 + 4 + 8 + 16 + 32 s (about 70 s with its jitter): 85 s is past its end.
    // 2.0.15's ten take about 84 s (2 to 11 s each): 110 s is past theirs, even on a loaded machine.
    await Promise.race([Promise.all([idle(quota.id), idle(bare.id)]), sleep(two ? 110_000 : 85_000)]);
    dump("reset in the body", quota.id, since);
    dump("bare 429", bare.id, since);
    const requestsOf = (text: string) => agentRequestTimes(since).filter((r) => JSON.stringify(r.body.messages).includes(text));
    const attempts = (sessionID: string) => retries(sessionID).map((e) => (two ? e.properties.attempt : e.properties.status.attempt));
    const words = (sessionID: string) => new Set(retries(sessionID).map((e) => (two ? e.properties.error.message : e.properties.status.message)));
    const waits = (sessionID: string) => {
      const list = retries(sessionID).map(retryAt);
      return list.slice(1).map((at, i) => at - list[i]!);
    };
    if (version === "1.18.33") {
      for (const [session, text, message] of [
        [quota.id, "hello after a quota", QUOTA_MESSAGE],
        [bare.id, "hello after a bare limit", "Too many requests"],
      ] as const) {
        expect(attempts(session)).toEqual([1, 2, 3, 4, 5]);
        expect(words(session)).toEqual(new Set([message]));
        expect(requestsOf(text)).toHaveLength(6);
        // The body's reset time is not read: the waits double from 2 s (with jitter), whatever the words say.
        for (const [i, wait] of waits(session).entries()) expect(wait).toBeLessThan(2_000 * 2 ** (i + 2) + 3_000);
        const error = hasFailed(session)!;
        expect(error.properties.error).toMatchObject({ name: "APIError", data: { message, statusCode: 429 } });
      }
    } else if (version === "1.1.53") {
      for (const session of [quota.id, bare.id]) {
        expect(attempts(session).slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(hasFailed(session)).toBeUndefined();
        expect(await oc.isBusy(session)).toBe(true);
      }
      expect(words(quota.id)).toEqual(new Set([QUOTA_MESSAGE]));
    } else {
      expect(requestsOf("hello after a quota")).toHaveLength(1);
      expect(retries(quota.id)).toEqual([]);
      expect(hasFailed(quota.id)!.properties.error).toEqual({ type: "provider.quota", message: QUOTA_MESSAGE, status: 429 });
      // A bare limit: attempts 2 to 11, then the run fails with the limit's own error.
      expect(attempts(bare.id)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(requestsOf("hello after a bare limit")).toHaveLength(11);
      expect(retries(bare.id).every((e) => e.properties.error.type === "provider.rate-limit")).toBe(true);
      for (const wait of waits(bare.id)) expect(wait).toBeLessThan(15_000);
      expect(hasFailed(bare.id)!.properties.error).toEqual({ type: "provider.rate-limit", message: "Too many requests", status: 429 });
    }
    for (const session of [quota.id, bare.id])
      if (await oc.isBusy(session)) {
        await oc.abort(session);
        await idle(session);
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
