// Fault injection: the Bridge with the real telegraf-backed TelegramApi against the fake Telegram
// while it answers 500, refuses connections, enforces flood limits (429 + retry_after) or hangs.
// OpenCode is played in memory (FakeOpencode). No prompt may be lost, none sent twice, every
// retry_after respected, and polling must come back.
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Bridge } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import type { QuestionRequest } from "../../lib/hermes-events.ts";
import { createTelegramApi, type TelegramApi } from "../../lib/telegram/wire/api.ts";
import { startPoller, type Poller } from "../../lib/telegram/wire/poller.ts";
import { FakeOpencode } from "../support/bridge-rig.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type SentMessage } from "../support/fake-telegram.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { colorQuestion } from "../support/fixtures.ts";

const DIRECTORY = "/home/dev/faults";
const silent = pino({ level: "silent" });

interface Rig {
  fake: FakeTelegram;
  api: TelegramApi;
  bridge: Bridge;
  opencode: FakeOpencode;
  ask(marker: string): QuestionRequest;
  /** The bot messages that show `marker`, in the order they were sent. */
  sent(marker: string): SentMessage[];
  delivered(marker: string, timeoutMs?: number): Promise<SentMessage>;
  /** Taps Red on the prompt and waits for the reply at OpenCode and the message marked answered. */
  answered(marker: string, timeoutMs?: number): Promise<void>;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function startRig(options: FakeTelegramOptions = {}): Promise<Rig> {
  const fake = await startFakeTelegram(options);
  cleanups.push(() => fake.close());
  const api = createTelegramApi(fake.token, fake.apiRoot);
  const opencode = new FakeOpencode();
  const bridge = new Bridge({
    telegram: api,
    registry: new Registry(),
    logger: silent,
    access: { chatId: DEFAULT_CHAT_ID, allowedUsers: [] },
    questionTtlMs: 0,
    confirmTimeoutMs: 10_000,
  });
  cleanups.push(() => bridge.stop());
  opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) });
  // Titled sessions: no session look-ups and no title edits in the way.
  bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Fault drill" } });

  let counter = 0;
  const sent = (marker: string) => fake.messages(DEFAULT_CHAT_ID).filter((m) => m.history[0]!.text.includes(`[${marker}]`));
  const rig: Rig = {
    fake,
    api,
    bridge,
    opencode,
    ask(marker) {
      const request: QuestionRequest = {
        id: `que_fault_${++counter}_${marker}`,
        sessionID: "ses_1",
        questions: [colorQuestion({ question: `Which color? [${marker}]` })],
      };
      bridge.handleEvent(DIRECTORY, { type: "question.asked", request });
      return request;
    },
    sent,
    delivered(marker, timeoutMs = 40_000) {
      return pollUntil(() => sent(marker).find((m) => fake.buttons(m).length > 0), { timeoutMs, intervalMs: 25, what: `question [${marker}] on the phone` });
    },
    async answered(marker, timeoutMs = 10_000) {
      const message = await rig.delivered(marker);
      await bridge.handleUpdate(fake.tapUpdate(message, "Red"));
      await pollUntil(() => opencode.posts.find((p) => p.url === "/question/{requestID}/reply" && String(p.path?.requestID).endsWith(`_${marker}`)), {
        what: `the reply to [${marker}] at OpenCode`,
        timeoutMs,
      });
      await pollUntil(() => message.text.includes("Answered from Telegram") && fake.buttons(message).length === 0, {
        what: `[${marker}] marked answered`,
        timeoutMs,
      });
    },
  };
  return rig;
}

/** One answer per request at OpenCode: nothing answered twice. */
function expectRepliedOnce(rig: Rig, markers: string[]): void {
  for (const marker of markers) {
    expect(
      rig.opencode.posts.filter((p) => String(p.path?.requestID).endsWith(`_${marker}`)),
      `replies to [${marker}]`,
    ).toHaveLength(1);
  }
}

async function call(fake: FakeTelegram, method: string, payload: Record<string, unknown> = {}) {
  const res = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("the fake Telegram's flood limits and outages", () => {
  it("lets a private chat burst 3, then answers 429 with retry_after, and counts a client that comes back early", async () => {
    const fake = await startFakeTelegram({ floodLimits: true });
    cleanups.push(() => fake.close());
    const chat_id = DEFAULT_CHAT_ID;
    for (let i = 0; i < 3; i++) expect((await call(fake, "sendMessage", { chat_id, text: `m${i}` })).status).toBe(200);
    expect(await call(fake, "sendMessage", { chat_id, text: "m3" })).toEqual({
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
    });
    // Other chats and non-message methods are not held back by this chat's flood wait.
    expect((await call(fake, "sendMessage", { chat_id: 2002, text: "elsewhere" })).status).toBe(200);
    expect((await call(fake, "getMe")).status).toBe(200);
    expect(fake.retryAfterViolations).toBe(0);
    // An edit is a message too, and it ignores the retry_after it was given.
    const early = await call(fake, "editMessageText", { chat_id, message_id: 1, text: "edited" });
    expect(early.status).toBe(429);
    expect(fake.retryAfterViolations).toBe(1);
    expect(fake.flood.violations[0]).toMatchObject({ chatId: chat_id, method: "editMessageText" });
    await sleep(1_050);
    expect((await call(fake, "sendMessage", { chat_id, text: "m4" })).status).toBe(200);
    expect(fake.flood).toMatchObject({ enabled: true, allowed: 5, rejected: 2, retryAfterViolations: 1 });
  });

  it("holds a group to 20 messages a minute, and all chats to 30 a second", async () => {
    const fake = await startFakeTelegram({ floodLimits: true });
    cleanups.push(() => fake.close());
    for (let i = 0; i < 20; i++) expect((await call(fake, "sendMessage", { chat_id: -100, text: `g${i}` })).status).toBe(200);
    const over = await call(fake, "sendMessage", { chat_id: -100, text: "g20" });
    expect(over.status).toBe(429);
    expect(over.body.parameters.retry_after).toBeGreaterThan(55);
    expect(over.body.parameters.retry_after).toBeLessThanOrEqual(60);
    expect(fake.flood.rejectedBy).toEqual({ chat: 1, global: 0, blocked: 0 });
    // Slowed down 20× (a 20 s "second") so that timing can't blur the count: one message each to
    // 31 private chats, and the 31st is over the global 30.
    fake.setFloodLimits({ scale: 0.05 });
    const statuses: number[] = [];
    for (let chat = 1; chat <= 31; chat++) statuses.push((await call(fake, "sendMessage", { chat_id: chat, text: "hi" })).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(fake.flood.rejectedBy.global).toBe(1);
    expect(fake.retryAfterViolations).toBe(0);
  });

  it("scales the limits in time, and can be turned on and off", async () => {
    const fake = await startFakeTelegram();
    cleanups.push(() => fake.close());
    for (let i = 0; i < 10; i++) expect((await call(fake, "sendMessage", { chat_id: 5, text: `${i}` })).status).toBe(200);
    // Paced at 100 a second: over Telegram's 1/s after the burst of 3, within the limits ×100.
    const paced = async (count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        statuses.push((await call(fake, "sendMessage", { chat_id: 5, text: `p${i}` })).status);
        await sleep(11);
      }
      return statuses;
    };
    fake.setFloodLimits(true);
    expect(await paced(5)).toEqual([200, 200, 200, 429, 429]);
    fake.setFloodLimits({ scale: 100 });
    expect((await paced(50)).every((s) => s === 200)).toBe(true);
    fake.setFloodLimits(false);
    for (let i = 0; i < 10; i++) expect((await call(fake, "sendMessage", { chat_id: 5, text: `${i}` })).status).toBe(200);
  });

  it("counts a request that ignores an injected 429's retry_after, without holding it back", async () => {
    const fake = await startFakeTelegram();
    cleanups.push(() => fake.close());
    void fake.setFault({ kind: "429", retryAfter: 5, methods: ["sendMessage"], times: 1 });
    expect((await call(fake, "sendMessage", { chat_id: 7, text: "a" })).status).toBe(429);
    expect((await call(fake, "sendMessage", { chat_id: 7, text: "a" })).status).toBe(200);
    expect(fake.retryAfterViolations).toBe(1);
  });

  it("refuses connections while down, comes back on the same address, and clears a fault after forMs", async () => {
    const fake = await startFakeTelegram();
    cleanups.push(() => fake.close());
    await fake.setFault({ kind: "down" });
    expect(fake.down).toBe(true);
    const refused = await call(fake, "getMe").then(
      () => "answered",
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe("ECONNREFUSED");
    await fake.setFault(null);
    expect(fake.down).toBe(false);
    expect((await call(fake, "getMe")).status).toBe(200);

    const started = Date.now();
    await fake.setFault({ kind: "down", forMs: 300 });
    await fake.whenUp();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((await call(fake, "getMe")).status).toBe(200);
    void fake.setFault({ kind: "500", forMs: 200 });
    expect((await call(fake, "getMe")).status).toBe(500);
    await sleep(250);
    expect(fake.fault).toBeNull();
    expect((await call(fake, "getMe")).status).toBe(200);
  });
});

describe("the bridge through Telegram faults (real telegraf client)", () => {
  it("(a) delivers a prompt raised during a 10 s run of 500s once Telegram recovers, once, and it is still answerable", async () => {
    const rig = await startRig();
    void rig.fake.setFault({ kind: "500", forMs: 10_000 });
    rig.ask("a1");
    // A signal, not a wait: the first attempt met a 500 (however long the machine took to make it).
    await pollUntil(() => rig.fake.calls.some((c) => c.method === "sendMessage" && c.status === 500), { timeoutMs: 9_000, what: "a 500 to sendMessage" });
    expect(rig.sent("a1")).toHaveLength(0);
    await rig.answered("a1");
    expect(rig.sent("a1")).toHaveLength(1);
    expectRepliedOnce(rig, ["a1"]);
  }, 60_000);

  it("(b) delivers a prompt raised while connections are refused for 10 s once Telegram is back, once, and it is still answerable", async () => {
    const rig = await startRig();
    await rig.fake.setFault({ kind: "down", forMs: 10_000 });
    rig.ask("b1");
    await sleep(1_000);
    rig.ask("b2");
    await rig.fake.whenUp();
    await rig.answered("b1");
    await rig.answered("b2");
    expect(rig.sent("b1")).toHaveLength(1);
    expect(rig.sent("b2")).toHaveLength(1);
    expectRepliedOnce(rig, ["b1", "b2"]);
  }, 60_000);

  // Guards what the issue 19 round measured: after a 20 s outage, a prompt raised during it reached
  // the phone 15.1 s after Telegram was back (its send waited out its own backoff while the long
  // poll already succeeded). The first call that succeeds (the long poll's) releases what waits.
  it("(b2) after a 20 s outage, a prompt raised during it reaches the phone within seconds of Telegram being back, once", async () => {
    const rig = await startRig();
    // Telegram's own long-poll timeout: a poll that gets through returns only when it times out.
    const poller = startPoller({ api: rig.api, logger: silent, onUpdate: (update) => rig.bridge.handleUpdate(update) });
    cleanups.push(() => poller.stop());
    await rig.fake.setFault({ kind: "down", forMs: 20_000 });
    await sleep(1_000);
    rig.ask("b3");
    await rig.fake.whenUp();
    const back = Date.now();
    const message = await rig.delivered("b3", 40_000);
    const sentAt = rig.fake.calls.find((c) => c.method === "sendMessage" && c.status === 200 && String(c.payload.text).includes("[b3]"))!.at;
    const late = sentAt - back;
    // Backoff alone (500 ms doubling from the ask, 1 s into the outage) would next try 12.5 s after
    // Telegram is back; the goal is 2 s (measured by `npm run bench`); 6 s leaves room for a busy machine.
    expect(late, `sent ${late} ms after Telegram was back`).toBeLessThan(6_000);
    await sleep(1_000); // room for a late duplicate
    expect(rig.sent("b3")).toHaveLength(1);
    await rig.answered("b3");
    expect(message.text).toContain("Answered from Telegram");
    expectRepliedOnce(rig, ["b3"]);
  }, 90_000);

  it("(c) under flood control (limits + an injected 429 retry_after 2) honours every retry_after, and sends nothing twice", async () => {
    const rig = await startRig({ floodLimits: true });
    void rig.fake.setFault({ kind: "429", retryAfter: 2, methods: ["sendMessage"], times: 1 });
    const markers = Array.from({ length: 8 }, (_, i) => `c${i}`);
    for (const marker of markers) rig.ask(marker);
    for (const marker of markers) await rig.delivered(marker);
    await sleep(1_500); // room for a late duplicate or an early retry
    for (const marker of markers) expect(rig.sent(marker), `[${marker}] sent once`).toHaveLength(1);
    expect(rig.fake.flood.violations).toEqual([]);
    expect(rig.fake.retryAfterViolations).toBe(0);
    // No 429 storm: a paced client meets flood control rarely, not once per message.
    expect(rig.fake.flood.rejected).toBeLessThanOrEqual(2);
  }, 90_000);

  // Guards a bug that was: the bridge re-rendered every pending prompt of a session after each
  // delivery even when nothing changed. Paced at 1/s, those no-op edits (Telegram: 400 "message is
  // not modified") took the chat's budget, and taps waited behind them (~35 s with 8 prompts).
  it("(c2) under flood control a tap still reaches OpenCode within seconds, and no budget goes to edits that change nothing", async () => {
    const rig = await startRig({ floodLimits: true });
    const markers = Array.from({ length: 8 }, (_, i) => `k${i}`);
    for (const marker of markers) rig.ask(marker);
    for (const marker of markers) await rig.delivered(marker);
    await Promise.all(markers.slice(0, 3).map((marker) => rig.answered(marker, 10_000)));
    const noOpEdits = rig.fake.calls.filter((c) => c.method.startsWith("edit") && c.status === 400);
    expect(noOpEdits, "edits Telegram refused as not modified").toEqual([]);
    expect(rig.fake.retryAfterViolations).toBe(0);
  }, 60_000);

  it("(d) a prompt answered in the terminal while Telegram is unreachable is not sent, or only as answered", async () => {
    const rig = await startRig();
    await rig.fake.setFault({ kind: "down", forMs: 2_500 });
    const request = rig.ask("d1");
    await sleep(500);
    rig.bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: request.id, answers: [["Blue"]] });
    await rig.fake.whenUp();
    // Done with it: the bridge forgets a prompt once its message (if any) shows the outcome.
    await pollUntil(() => rig.bridge.registry.byRequest(request.id) === undefined, { timeoutMs: 40_000, what: "the bridge to be done with [d1]" });
    await sleep(300);
    for (const message of rig.sent("d1")) {
      expect(message.history[0]!.replyMarkup?.inline_keyboard ?? [], "sent with live buttons").toEqual([]);
      expect(message.text).toContain("Answered in the terminal");
    }
    expect(rig.opencode.posts).toEqual([]);
  }, 60_000);

  it("(e) polling survives a hung getUpdates (watchdog) and a run of 500s, and a tap afterwards is handled", async () => {
    const rig = await startRig();
    let handled = 0;
    const poller: Poller = startPoller({
      api: rig.api,
      logger: silent,
      timeoutSeconds: 1,
      graceMs: 300,
      onUpdate: async (update) => {
        handled++;
        await rig.bridge.handleUpdate(update);
      },
    });
    cleanups.push(() => poller.stop());
    void rig.fake.setFault({ kind: "hang", methods: ["getUpdates"], times: 1 });
    const polls = () => rig.fake.calls.filter((c) => c.method === "getUpdates");
    await pollUntil(() => polls().length >= 2, { timeoutMs: 5_000, what: "a new getUpdates after the hung one" });
    expect(polls()[0]!.status).toBe(0); // never answered: the watchdog gave up on it
    void rig.fake.setFault({ kind: "500", methods: ["getUpdates"], forMs: 1_500 });
    await pollUntil(() => polls().some((c) => c.status === 500), { timeoutMs: 5_000, what: "a 500 to getUpdates" });
    rig.ask("e1");
    const message = await rig.delivered("e1");
    await sleep(1_600);
    await rig.fake.tapButton(message, "Red");
    await pollUntil(() => rig.opencode.posts.length === 1, { timeoutMs: 15_000, what: "the tap's reply at OpenCode" });
    await pollUntil(() => message.text.includes("Answered from Telegram") && rig.fake.buttons(message).length === 0, { what: "[e1] marked answered" });
    expect(handled).toBe(1);
    expect(rig.fake.maxConcurrentGetUpdates).toBe(1);
    expectRepliedOnce(rig, ["e1"]);
  }, 60_000);
});
