// Over a group's budget: 40 prompts raised in 10 s to one group (twice Telegram's twenty a
// minute), each answered as soon as it is on the phone, so edits compete with prompts. The fake
// Telegram enforces the limits; Hermes is the only sender, so every 429 is one it could have
// avoided. Time-compressed (the fake's limits and Hermes' pacing both × scale, like the flood run)
// so that the minute-long waits the budget imposes take seconds.
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { QuestionRequest } from "../lib/hermes-events.ts";
import { startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { benchBridge } from "./bridge.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";
import { BENCH_CHATS } from "./interactive.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";
import { scaledPacing } from "./throughput.ts";

export interface OverBudgetResult {
  prompts: number;
  raisedOverMs: number;
  scale: number;
  delivered: number;
  lost: number;
  duplicates: number;
  http429: number;
  retryAfterViolations: number;
  /** Edits sent while a prompt raised before them was still waiting (should be 0). */
  editsAheadOfPrompts: number;
  /** raised → sendMessage at Telegram, in real (unscaled) ms: the first twenty, and the rest. */
  withinBudget: Summary;
  overBudget: Summary;
  /** Answered prompts whose buttons were gone at the end (every edit delivered). */
  settled: number;
  /** Until the last edit, in real (unscaled) seconds. */
  allSettledS: number;
}

const DIRECTORY = "/bench/over-budget";

export async function runOverBudget(options: { prompts?: number; overMs?: number; scale?: number } = {}): Promise<OverBudgetResult> {
  const prompts = options.prompts ?? 40;
  const overMs = options.overMs ?? 10_000;
  const scale = options.scale ?? 10;
  const chatId = BENCH_CHATS.group.chatId;
  const fake = await startFakeTelegram({ floodLimits: { scale } });
  const opencode = await startFakeOpencodeServer();
  const bridge = benchBridge(fake, scaledPacing(scale), chatId);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
  opencode.onReply = (arrival) => {
    const answers = (arrival.body as { answers?: string[][] } | undefined)?.answers;
    if (answers)
      queueMicrotask(() => bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_over", requestID: arrival.requestID, answers }));
  };
  await bridge.telegram.getMe();
  const raised = new Map<string, number>();
  const sent = new Map<string, number>();
  let editsAheadOfPrompts = 0;
  fake.onCall((call) => {
    const marker = call.method === "sendMessage" ? /\[(O\d+)\]/.exec(String(call.payload.text ?? ""))?.[1] : undefined;
    if (marker && !sent.has(marker)) sent.set(marker, call.hrAt!);
    if (call.method.startsWith("edit") && [...raised.keys()].some((key) => !sent.has(key))) editsAheadOfPrompts++;
  });
  const started = performance.now();
  const tapped = new Set<string>();
  // Answer every prompt as soon as it is on the phone.
  const answering = (async () => {
    while (tapped.size < prompts && performance.now() - started < 600_000) {
      for (const message of fake.messages(chatId)) {
        const marker = /\[(O\d+)\]/.exec(message.history[0]!.text)?.[1];
        if (!marker || tapped.has(marker) || !bridge.registry.byRequest(`que_over_${marker}`)?.message) continue;
        tapped.add(marker);
        await bridge.handleUpdate(fake.tapUpdate(message, "Red"));
      }
      await sleep(5);
    }
  })();
  for (let index = 0; index < prompts; index++) {
    const marker = `O${index}`;
    const request: QuestionRequest = {
      id: `que_over_${marker}`,
      sessionID: "ses_over",
      questions: [
        {
          question: `Which color? [${marker}]`,
          header: "Color",
          options: [
            { label: "Red", description: "" },
            { label: "Blue", description: "" },
          ],
          multiple: false,
          custom: true,
        },
      ],
    };
    raised.set(marker, performance.now());
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request });
    await sleep(overMs / prompts / scale);
  }
  await until(() => sent.size === prompts || undefined, 600_000 / scale, "every prompt sent", 5).catch(() => undefined);
  await answering;
  const settledCount = () => fake.messages(chatId).filter((m) => m.text.includes("Answered from Telegram") && fake.buttons(m).length === 0).length;
  await until(() => settledCount() === prompts || undefined, 600_000 / scale, "every answered prompt edited", 10).catch(() => undefined);
  // Messages on the phone per prompt (a send refused with 429 and sent again is one message).
  const duplicates = () => {
    const copies = new Map<string, number>();
    for (const message of fake.messages(chatId)) {
      const marker = /\[(O\d+)\]/.exec(message.history[0]!.text)?.[1];
      if (marker) copies.set(marker, (copies.get(marker) ?? 0) + 1);
    }
    return [...copies.values()].filter((count) => count > 1).length;
  };
  const allSettledS = ((performance.now() - started) * scale) / 1000;
  const waits = [...raised.entries()].map(([marker, at]) => ((sent.get(marker) ?? Number.NaN) - at) * scale);
  const result: OverBudgetResult = {
    prompts,
    raisedOverMs: overMs,
    scale,
    delivered: sent.size,
    lost: prompts - sent.size,
    duplicates: duplicates(),
    http429: fake.flood.rejected,
    retryAfterViolations: fake.retryAfterViolations,
    editsAheadOfPrompts,
    withinBudget: summarize(waits.slice(0, 20)),
    overBudget: summarize(waits.slice(20)),
    settled: settledCount(),
    allSettledS: Math.round(allSettledS),
  };
  await Promise.race([bridge.stop(), sleep(5_000)]);
  await opencode.close();
  await fake.close();
  return result;
}
