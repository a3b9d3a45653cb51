// Memory growth of a Bridge after many questions raised and answered: an in-memory Telegram
// (tests/support/memory-telegram.ts, with what it keeps for tests pruned between batches so that
// only the bridge's own memory is measured) and an in-memory OpenCode that accepts every reply and
// announces it as OpenCode does. heapUsed after a full GC, before and after.
import pino from "pino";
import { Bridge } from "../lib/bridge/bridge.ts";
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { HttpResult, OpencodeTransport } from "../lib/opencode/transport.ts";
import { Registry } from "../lib/registry/registry.ts";
import type { HermesEvent } from "../lib/hermes-events.ts";
import { MemoryTelegram } from "../tests/support/memory-telegram.ts";
import { round, sleep, until } from "./stats.ts";

export interface MemoryResult {
  questions: number;
  warmup: number;
  sessions: number;
  batch: number;
  gc: boolean;
  heapBeforeMB: number;
  heapAfterMB: number;
  growthMB: number;
  /** Growth over a second, identical run (steady state: bounded caches already full). */
  secondRunGrowthMB: number;
  peakHeapMB: number;
  durationMs: number;
  /** What the bridge still tracks afterwards. */
  promptsLeft: number;
  /** Replies OpenCode received (every question answered once: warm-up + 2 runs). */
  replies: number;
}

const CHAT = 1001;
const DIRECTORY = "/bench/memory";

/** Accepts every reply and, like OpenCode, announces it as an event right after. */
class InMemoryOpencode implements OpencodeTransport {
  announce: (event: HermesEvent) => void = () => undefined;
  replies = 0;
  async request(method: "GET" | "POST", url: string, options: { path?: Record<string, string>; body?: unknown } = {}): Promise<HttpResult> {
    if (method === "GET") return url === "/question" || url === "/permission" ? { status: 200, data: [] } : { status: 404, data: {} };
    const requestID = options.path?.requestID ?? "";
    this.replies++;
    if (url === "/question/{requestID}/reply") {
      const answers = (options.body as { answers: string[][] }).answers;
      queueMicrotask(() => this.announce({ type: "question.replied", sessionID: sessionOf(requestID), requestID, answers }));
    }
    return { status: 200, data: true };
  }
}

function sessionOf(requestID: string): string {
  return requestID.replace(/^que_mem_(\d+)_.*$/, "ses_mem_$1");
}

export async function runMemory(options: { questions?: number; warmup?: number; sessions?: number; batch?: number } = {}): Promise<MemoryResult> {
  const questions = options.questions ?? 10_000;
  const warmup = options.warmup ?? 200;
  const sessions = options.sessions ?? 100;
  const batch = options.batch ?? 100;
  const gc = (globalThis as { gc?: () => void }).gc;

  const telegram = new MemoryTelegram();
  const opencode = new InMemoryOpencode();
  const bridge = new Bridge({
    telegram,
    registry: new Registry(),
    logger: pino({ level: "silent" }),
    access: { chatId: CHAT, allowedUsers: [] },
    questionTtlMs: 0,
    confirmTimeoutMs: 10_000,
    pacing: false,
  });
  opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode) });
  for (let s = 0; s < sessions; s++) bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: `ses_mem_${s}`, title: `Session ${s}` } });

  let next = 0;
  let updateId = 0;
  let peak = 0;
  const raiseAndAnswer = async (count: number) => {
    for (let done = 0; done < count; done += batch) {
      const ids: string[] = [];
      for (let i = 0; i < Math.min(batch, count - done); i++) {
        const n = next++;
        const requestID = `que_mem_${n % sessions}_${n}`;
        ids.push(requestID);
        bridge.handleEvent(DIRECTORY, {
          type: "question.asked",
          request: {
            id: requestID,
            sessionID: `ses_mem_${n % sessions}`,
            questions: [
              {
                question: `Question ${n}?`,
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
        });
      }
      // Delivered: tap "Yes" on each.
      const prompts = await until(
        () => {
          const found = ids.map((id) => bridge.registry.byRequest(id));
          return found.every((p) => p?.message) ? found : undefined;
        },
        30_000,
        "a batch delivered",
        0,
      );
      for (const prompt of prompts) {
        const message = telegram.messages.find((m) => m.messageId === prompt!.message!.messageId)!;
        await bridge.handleUpdate({
          update_id: ++updateId,
          callback_query: {
            id: `cb${updateId}`,
            from: { id: CHAT, first_name: "Owner" },
            data: telegram.button(message, "Yes").callback_data,
            message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
          },
        });
      }
      // Answered, confirmed, settled and forgotten.
      await until(() => ids.every((id) => bridge.registry.byRequest(id) === undefined), 30_000, "a batch answered", 0);
      // What the test double keeps for assertions is not the bridge's memory.
      telegram.messages.splice(0);
      telegram.callbackAnswers.splice(0);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  };

  const heap = async () => {
    await sleep(20);
    for (let i = 0; i < 4; i++) {
      gc?.();
      await sleep(5);
    }
    return process.memoryUsage().heapUsed;
  };

  await raiseAndAnswer(warmup); // JIT and pools
  const before = await heap();
  const started = performance.now();
  await raiseAndAnswer(questions);
  const durationMs = performance.now() - started;
  const after = await heap();
  await raiseAndAnswer(questions);
  const afterSecond = await heap();
  const promptsLeft = bridge.registry.all().length;
  await Promise.race([bridge.stop(), sleep(5_000)]);
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);
  return {
    questions,
    warmup,
    sessions,
    batch,
    gc: gc !== undefined,
    heapBeforeMB: mb(before),
    heapAfterMB: mb(after),
    growthMB: mb(after - before),
    secondRunGrowthMB: mb(afterSecond - after),
    peakHeapMB: mb(peak),
    durationMs: Math.round(durationMs),
    promptsLeft,
    replies: opencode.replies,
  };
}
