// Throughput and loss under Telegram's flood limits: N questions from M sessions raised at once,
// all for the one chat Hermes is configured with (that is how Hermes is used), through a real
// Bridge + telegraf TelegramApi, against the fake Telegram answering 429 + retry_after over its
// limits. Every question must reach the fake exactly once.
//
// One chat caps throughput at Telegram's per-chat limit (~1 message/s in a private chat), so at
// the real limits 1,000 questions need ~17 minutes whatever Hermes does. Two runs, side by side:
//  - "real limits": Telegram's limits and Hermes' default pacing, observed for a fixed window;
//    gives the achieved rate (vs the 1/s limit), 429s and retry_after violations, and a projection.
//  - "time-compressed": the fake's limits and Hermes' pacing both scaled ×S (bursts unchanged,
//    retry_after still whole real seconds), run to completion: loss, duplicates, wall time.
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { HermesEvent } from "../lib/hermes-events.ts";
import { TELEGRAM_LIMITS, type PaceLimits } from "../lib/telegram/wire/pacer.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, TELEGRAM_FLOOD_LIMITS } from "../tests/support/fake-telegram.ts";
import { benchBridge } from "./bridge.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";
import { round, sleep } from "./stats.ts";

export interface FloodRunResult {
  label: string;
  /** Time compression of the fake's limits and of Hermes' pacing (1 = real). */
  scale: number;
  questions: number;
  sessions: number;
  completed: boolean;
  budgetMs: number;
  delivered: number;
  lost: number;
  duplicates: number;
  /** From the first question raised to the last one delivered (ms). */
  wallMs: number;
  /** Prompts per second after the initial burst (real seconds). */
  rate: number;
  /** The limit that binds here (one private chat), in messages per real second. */
  limitRate: number;
  /** Projected time for all questions at the measured rate, at this scale (ms). */
  projectedMs: number;
  /** The same projection at Telegram's real limits (ms). */
  projectedRealMs: number;
  http429: number;
  floodRejected: number;
  retryAfterViolations: number;
  /** Edits Telegram refused as "message is not modified" (wasted budget). */
  noOpEdits: number;
  edits: number;
  pacing: PaceLimits | "default";
}

const DIRECTORY = "/bench/throughput";

export function scaledPacing(scale: number): PaceLimits {
  return {
    ...TELEGRAM_LIMITS,
    privatePerSecond: TELEGRAM_LIMITS.privatePerSecond * scale,
    groupWindowMs: TELEGRAM_LIMITS.groupWindowMs / scale,
    groupQuietMs: TELEGRAM_LIMITS.groupQuietMs / scale,
    globalPerSecond: TELEGRAM_LIMITS.globalPerSecond * scale,
    spareEveryGroupMs: TELEGRAM_LIMITS.spareEveryGroupMs / scale,
    spareEveryPrivateMs: TELEGRAM_LIMITS.spareEveryPrivateMs / scale,
  };
}

export async function floodRun(options: { label: string; scale: number; questions: number; sessions: number; budgetMs: number }): Promise<FloodRunResult> {
  const { scale, questions, sessions, budgetMs } = options;
  const fake = await startFakeTelegram({ floodLimits: { scale } });
  const opencode = await startFakeOpencodeServer();
  const pacing = scale === 1 ? undefined : scaledPacing(scale);
  const bridge = benchBridge(fake, pacing);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
  for (let s = 0; s < sessions; s++) bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: `ses_tp_${s}`, title: `Session ${s}` } });
  await sleep(50);

  const firstSeen = new Map<string, number>();
  const deliveredAt: number[] = [];
  let duplicates = 0;
  let processed = 0;
  const count = () => {
    const messages = fake.messages(DEFAULT_CHAT_ID);
    for (const message of messages.slice(processed)) {
      const marker = /\[(T\d+)\]/.exec(message.history[0]!.text)?.[1];
      if (!marker) continue;
      if (firstSeen.has(marker)) duplicates++;
      else {
        firstSeen.set(marker, message.history[0]!.at);
        deliveredAt.push(message.history[0]!.at);
      }
    }
    processed = messages.length;
  };

  const started = Date.now();
  for (let i = 0; i < questions; i++) {
    const event: HermesEvent = {
      type: "question.asked",
      request: {
        id: `que_tp_${i}`,
        sessionID: `ses_tp_${i % sessions}`,
        questions: [
          {
            question: `Question ${i} [T${i}]`,
            header: "Pick",
            options: [
              { label: "Yes", description: "" },
              { label: "No", description: "" },
            ],
            multiple: false,
            custom: true,
          },
        ],
      },
    };
    bridge.handleEvent(DIRECTORY, event);
  }
  while (Date.now() - started < budgetMs) {
    count();
    if (firstSeen.size >= questions) break;
    await sleep(50);
  }
  count();
  // Late duplicates would show up now.
  await sleep(Math.min(2_000, 2_000 / scale + 200));
  count();
  const completed = firstSeen.size >= questions;
  const last = deliveredAt.length ? Math.max(...deliveredAt) : started;
  const wallMs = last - started;
  // Rate after the initial burst: from the (burst+1)-th delivery on.
  const sorted = [...deliveredAt].sort((a, b) => a - b);
  const burst = TELEGRAM_FLOOD_LIMITS.privateBurst;
  const steady = sorted.slice(burst);
  const rate = steady.length >= 2 ? ((steady.length - 1) / (steady[steady.length - 1]! - steady[0]!)) * 1000 : Number.NaN;
  const calls = fake.calls;
  const result: FloodRunResult = {
    label: options.label,
    scale,
    questions,
    sessions,
    completed,
    budgetMs,
    delivered: firstSeen.size,
    lost: completed ? 0 : Number.NaN,
    duplicates,
    wallMs,
    rate: round(rate, 2),
    limitRate: TELEGRAM_FLOOD_LIMITS.privatePerSecond * scale,
    projectedMs: Math.round(completed ? wallMs : (questions / rate) * 1000),
    projectedRealMs: Math.round(completed ? wallMs * scale : (questions / rate) * 1000 * scale),
    http429: calls.filter((c) => c.status === 429).length,
    floodRejected: fake.flood.rejected,
    retryAfterViolations: fake.retryAfterViolations,
    noOpEdits: calls.filter((c) => c.method.startsWith("edit") && c.status === 400).length,
    edits: calls.filter((c) => c.method.startsWith("edit")).length,
    pacing: pacing ?? "default",
  };
  if (completed) result.lost = questions - firstSeen.size;
  await Promise.race([bridge.stop(), sleep(5_000)]);
  await opencode.close();
  await fake.close();
  return result;
}
