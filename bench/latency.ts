// The bridge's own latency, side by side with a floor (a bare fetch of the same request to the
// same server), in one run:
//  - ask:  `question.asked` handed to bridge.handleEvent → the fake Telegram's handler receives
//          the sendMessage (real telegraf-backed TelegramApi);
//  - tap:  a callback update handed to bridge.handleUpdate → the fake OpenCode's handler receives
//          POST /question/:id/reply (through a fetch transport).
// Both timestamps are performance.now() in this process. Samples run one at a time, with the
// system quiet in between (every request answered, nothing new for a moment).
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { QuestionRequest } from "../lib/hermes-events.ts";
import type { PaceLimits } from "../lib/telegram/wire/pacer.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type ApiCall, type FakeTelegram } from "../tests/support/fake-telegram.ts";
import { benchBridge } from "./bridge.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";
import { colorQuestion } from "../tests/support/fixtures.ts";

/** Pacing that never makes anything wait: the outbox's code path runs, its budget never runs out. */
export const UNLIMITED_PACING: PaceLimits = {
  privatePerSecond: 1e9,
  privateBurst: 1e9,
  privateReserve: 0,
  groupLimit: 1e9,
  groupWindowMs: 60_000,
  groupReserve: 0,
  groupAnswerReserve: 0,
  groupSightReserve: 0,
  groupQuietMs: 0,
  globalPerSecond: 1e9,
  globalBurst: 1e9,
  groupSpareLimit: 1e9,
  spareEveryGroupMs: 0,
  spareEveryPrivateMs: 0,
  spareBurst: 1e9,
};

export interface LatencyResult {
  samples: number;
  warmup: number;
  ask: { bridge: Summary; floor: Summary };
  tap: { bridge: Summary; floor: Summary };
  /** Telegram calls the bridge made per prompt, beyond the sendMessage (asked, tapped, settled). */
  callsPerPrompt: Record<string, number>;
  /** Edits Telegram refused as "message is not modified" (wasted calls), per prompt. */
  noOpEditsPerPrompt: number;
  note: string;
}

const DIRECTORY = "/bench/latency";

export async function runLatency(options: { samples?: number; warmup?: number } = {}): Promise<LatencyResult> {
  const samples = options.samples ?? 300;
  const warmup = options.warmup ?? 30;
  const fake = await startFakeTelegram();
  const opencode = await startFakeOpencodeServer();
  const bridge = benchBridge(fake, UNLIMITED_PACING);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });

  // Arrival times, keyed by the marker in the text (Telegram) or the request id (OpenCode).
  // Awaited through events, not polling, so that waiting adds nothing to the event loop.
  const sendArrivals = new Arrivals();
  let lastCallAt = performance.now();
  fake.onCall((call: ApiCall) => {
    lastCallAt = performance.now();
    const marker = call.method === "sendMessage" ? /\[(L\d+F?)\]/.exec(String(call.payload.text ?? ""))?.[1] : undefined;
    if (marker) sendArrivals.set(marker, call.hrAt!);
  });
  const replyArrivals = new Arrivals();
  opencode.onReply = (arrival) => {
    lastCallAt = performance.now();
    replyArrivals.set(arrival.requestID, arrival.at);
    const answers = (arrival.body as { answers?: string[][] } | undefined)?.answers;
    const prompt = bridge.registry.byRequest(arrival.requestID);
    // OpenCode announces the reply it accepted; the bridge waits for that echo.
    if (prompt && answers)
      queueMicrotask(() => bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: prompt.sessionID, requestID: arrival.requestID, answers }));
  };

  const quiet = () => quiesce(fake, () => lastCallAt);
  const result = { ask: { bridge: [] as number[], floor: [] as number[] }, tap: { bridge: [] as number[], floor: [] as number[] } };
  // Calls per kind at the end of the warm-up, to count what the measured samples made.
  const callsBefore = new Map<string, number>();
  const countCalls = () => {
    const counts = new Map<string, number>();
    for (const call of fake.calls) {
      const key = call.status === 400 && call.method.startsWith("edit") ? `${call.method} (400 not modified)` : call.method;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };

  for (let i = 0; i < warmup + samples; i++) {
    const measured = i >= warmup;
    if (i === warmup) for (const [key, count] of countCalls()) callsBefore.set(key, count);
    const marker = `L${i}`;
    const sessionID = `ses_lat_${i}`;
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: sessionID, title: "Latency bench" } });
    const request: QuestionRequest = {
      id: `que_lat_${i}`,
      sessionID,
      questions: [colorQuestion({ question: `Which color? [${marker}]` })],
    };

    // ask → sendMessage at the fake
    const askStart = performance.now();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request });
    const askAt = await sendArrivals.wait(marker, `sendMessage of ${marker}`);
    const message = await until(() => fake.messages(DEFAULT_CHAT_ID).find((m) => m.history[0]!.text.includes(`[${marker}]`)), 10_000, `message ${marker}`, 0);
    await until(() => bridge.registry.byRequest(request.id)?.message, 10_000, `bridge knows message ${marker}`, 0);
    await quiet();

    // floor: the same sendMessage body with a bare fetch
    const payload = fake.calls.find((c) => c.method === "sendMessage" && String(c.payload.text).includes(`[${marker}]`))!.payload;
    const floorMarker = `${marker}F`;
    const body = JSON.stringify({ ...payload, text: String(payload.text).replace(`[${marker}]`, `[${floorMarker}]`) });
    const floorAskStart = performance.now();
    const response = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage`, { method: "POST", headers: { "content-type": "application/json" }, body });
    await response.json();
    const floorAskAt = await sendArrivals.wait(floorMarker, `floor sendMessage of ${marker}`);
    await quiet();

    // tap → POST /question/:id/reply at OpenCode
    const update = fake.tapUpdate(message, "Red");
    const tapStart = performance.now();
    await bridge.handleUpdate(update);
    const tapAt = await replyArrivals.wait(request.id, `reply to ${request.id}`);
    await until(() => bridge.registry.byRequest(request.id) === undefined && message.text.includes("Answered from Telegram"), 10_000, `${marker} settled`, 0);
    await quiet();

    // floor: the same POST with a bare fetch
    const floorId = `${request.id}F`;
    const floorTapStart = performance.now();
    const reply = await fetch(`${opencode.origin}/question/${encodeURIComponent(floorId)}/reply`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ answers: [["Red"]] }),
    });
    await reply.json();
    const floorTapAt = await replyArrivals.wait(floorId, `floor reply to ${request.id}`);
    await quiet();

    if (measured) {
      result.ask.bridge.push(askAt - askStart);
      result.ask.floor.push(floorAskAt - floorAskStart);
      result.tap.bridge.push(tapAt - tapStart);
      result.tap.floor.push(floorTapAt - floorTapStart);
    }
  }

  const callsAfter = countCalls();
  const callsPerPrompt: Record<string, number> = {};
  for (const [key, count] of callsAfter) {
    const made = count - (callsBefore.get(key) ?? 0);
    // The floor's own sendMessage is not the bridge's.
    const own = key === "sendMessage" ? made - samples : made;
    if (own > 0) callsPerPrompt[key] = Math.round((own / samples) * 100) / 100;
  }
  await Promise.race([bridge.stop(), sleep(5_000)]);
  await opencode.close();
  await fake.close();
  return {
    samples,
    warmup,
    ask: { bridge: summarize(result.ask.bridge), floor: summarize(result.ask.floor) },
    tap: { bridge: summarize(result.tap.bridge), floor: summarize(result.tap.floor) },
    callsPerPrompt,
    noOpEditsPerPrompt: callsPerPrompt["editMessageText (400 not modified)"] ?? 0,
    note: "pacing budget always available (outbox on, limits ×1e9); one sample at a time on a quiet system; real telegraf TelegramApi; fetch transport to a loopback OpenCode stand-in",
  };
}

/** Arrival timestamps by key, each awaitable before or after it arrives. */
class Arrivals {
  readonly #at = new Map<string, number>();
  readonly #waiting = new Map<string, (at: number) => void>();

  set(key: string, at: number): void {
    this.#at.set(key, at);
    this.#waiting.get(key)?.(at);
    this.#waiting.delete(key);
  }

  wait(key: string, what: string, timeoutMs = 10_000): Promise<number> {
    const known = this.#at.get(key);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bench: timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      this.#waiting.set(key, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }
}

/** Every request answered and nothing new for 10 ms. */
async function quiesce(fake: FakeTelegram, lastCallAt: () => number): Promise<void> {
  for (;;) {
    const idle = performance.now() - lastCallAt() > 10 && fake.calls.every((c) => c.status !== 0);
    if (idle) return;
    await sleep(2);
  }
}
