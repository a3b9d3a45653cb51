// Live progress beside prompts in a group: a run of 30 steps (a tool call every 2 s, the todo list
// moving every third step) while the agent asks a question every third step, each tapped as soon
// as it is on the phone. Rounds alternate progress on and off (a fresh bridge and a fresh fake
// Telegram each, so no round inherits another's budget), the same run each time, after a short
// warm-up pair that is not counted. Measured: the
// prompts' ask → sendMessage at Telegram (real ms) with progress on and off, the progress edits a
// minute, and the 429s the fake Telegram (enforcing Telegram's limits) answered. Time-compressed
// like the over-budget run: the fake's limits and Hermes' pacing × scale.
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { HermesEvent, QuestionRequest } from "../lib/hermes-events.ts";
import { startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { colorQuestion } from "../tests/support/fixtures.ts";
import { benchBridge } from "./bridge.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";
import { BENCH_CHATS } from "./interactive.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";
import { scaledPacing } from "./throughput.ts";

export interface ProgressBenchResult {
  rounds: number;
  steps: number;
  scale: number;
  /** ask → sendMessage at Telegram, real ms. */
  on: Summary;
  off: Summary;
  /** on.p99 / off.p99. */
  p99Ratio: number;
  /** Progress calls (its send and edits) a minute of the run, in real (unscaled) time. */
  progressEditsPerMinute: number;
  /** The most progress calls in any one round's minute. */
  progressCallsPerRound: number[];
  http429: number;
  retryAfterViolations: number;
  /** Rounds with progress on whose message ended with no Stop. */
  finishedClean: number;
  /** The run's end → its progress message's last line, in real (unscaled) ms. */
  lastLine: Summary;
}

const DIRECTORY = "/bench/progress";
const STEP_MS = 2_000;
const SESSION = "ses_progress";

/** One run; `stream`: the answer is written meanwhile (a line a step) and streams to the progress message (HERMES_STREAM=on, bench/answer-stream.ts). */
export async function round(progress: boolean, steps: number, scale: number, tag: string, stream = false) {
  const chatId = BENCH_CHATS.group.chatId;
  const fake = await startFakeTelegram({ floodLimits: { scale } });
  const opencode = await startFakeOpencodeServer();
  const bridge = benchBridge(fake, scaledPacing(scale), chatId, { progress, stream, notices: { level: "all", doneAfterMs: 0 } });
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
  const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
  opencode.onReply = (arrival) => {
    const answers = (arrival.body as { answers?: string[][] } | undefined)?.answers;
    if (answers) queueMicrotask(() => emit({ type: "question.replied", sessionID: SESSION, requestID: arrival.requestID, answers }));
  };
  await bridge.telegram.getMe();
  const raised = new Map<string, number>();
  const sent = new Map<string, number>();
  let progressCalls = 0;
  fake.onCall((call) => {
    const text = String(call.payload.text ?? "");
    const marker = call.method === "sendMessage" ? /\[(P\w+)\]/.exec(text)?.[1] : undefined;
    if (marker && !sent.has(marker)) sent.set(marker, call.hrAt!);
    if ((call.method === "sendMessage" || call.method === "editMessageText") && /<b>(Running|Run \w+)<\/b>/.test(text)) progressCalls++;
  });
  const tapped = new Set<string>();
  let running = true;
  const answering = (async () => {
    while (running) {
      for (const message of fake.messages(chatId)) {
        const marker = /\[(P\w+)\]/.exec(message.history[0]!.text)?.[1];
        if (!marker || tapped.has(marker) || !bridge.registry.byRequest(`que_${marker}`)?.message) continue;
        tapped.add(marker);
        await bridge.handleUpdate(fake.tapUpdate(message, "Red"));
      }
      await sleep(5);
    }
  })();
  const started = performance.now();
  emit({ type: "session.upserted", info: { id: SESSION, title: "Thirty steps" } });
  emit({ type: "session.status", sessionID: SESSION, status: "busy" });
  const todos = (done: number) => ({
    type: "todo.updated" as const,
    sessionID: SESSION,
    todos: Array.from({ length: 10 }, (_, index) => ({
      content: `Part ${index + 1} of the job`,
      status: index < done ? "completed" : index === done ? "in_progress" : "pending",
    })),
  });
  for (let step = 0; step < steps; step++) {
    if (step % 3 === 0) emit(todos(Math.floor(step / 3)));
    const callID = `call_${step}`;
    emit({ type: "tool.step", sessionID: SESSION, step: { callID, tool: "bash", state: "running", input: { command: `npm run step-${step} -- --verbose` } } });
    if (step % 3 === 1) {
      const marker = `P${tag}s${step}`;
      const request: QuestionRequest = { id: `que_${marker}`, sessionID: SESSION, questions: [{ ...colorQuestion(), question: `Which color? [${marker}]` }] };
      raised.set(marker, performance.now());
      emit({ type: "question.asked", request });
    }
    if (stream)
      emit({ type: "message.delta", sessionID: SESSION, messageID: "msg_answer", partID: "prt_answer", delta: `Line ${step}: what the agent found.\n` });
    await sleep(STEP_MS / scale);
    emit({ type: "tool.step", sessionID: SESSION, step: { callID, state: "completed" } });
  }
  emit(todos(10));
  emit({ type: "session.idle", sessionID: SESSION });
  const runMs = (performance.now() - started) * scale;
  await until(() => sent.size === raised.size || undefined, 60_000, "every prompt sent", 5).catch(() => undefined);
  const ended = performance.now();
  // The progress message's last word (no Stop), as the group's budget lets it out.
  const clean = () => fake.messages(chatId).filter((m) => /<b>Run \w+<\/b>/.test(m.text) && fake.buttons(m).length === 0).length;
  if (progress) await until(() => clean() > 0 || undefined, 120_000 / scale, "the progress message's last line", 5).catch(() => undefined);
  const lastLineMs = (performance.now() - ended) * scale;
  running = false;
  await answering;
  const waits = [...raised.entries()].map(([marker, at]) => (sent.get(marker) ?? Number.NaN) - at);
  const result = { waits, progressCalls, runMs, http429: fake.flood.rejected, violations: fake.retryAfterViolations, clean: clean(), lastLineMs };
  await Promise.race([bridge.stop(), sleep(5_000)]);
  await opencode.close();
  await fake.close();
  return result;
}

export async function runProgressBench(options: { rounds?: number; steps?: number; scale?: number } = {}): Promise<ProgressBenchResult> {
  const rounds = options.rounds ?? 10;
  const steps = options.steps ?? 30;
  const scale = options.scale ?? 10;
  const on: number[] = [];
  const off: number[] = [];
  const perRound: number[] = [];
  let runMs = 0;
  let http429 = 0;
  let violations = 0;
  let finishedClean = 0;
  const lastLines: number[] = [];
  // Warm-up, not counted: the first round would pay for loading the renderer and a cold JIT.
  for (const progress of [true, false]) await round(progress, 6, scale, `w${progress}`);
  for (let index = 0; index < rounds; index++) {
    const progress = index % 2 === 0;
    const result = await round(progress, steps, scale, `${index}`);
    (progress ? on : off).push(...result.waits);
    http429 += result.http429;
    violations += result.violations;
    if (progress) {
      perRound.push(result.progressCalls);
      runMs += result.runMs;
      finishedClean += result.clean;
      lastLines.push(result.lastLineMs);
    }
  }
  const onSummary = summarize(on);
  const offSummary = summarize(off);
  return {
    rounds,
    steps,
    scale,
    on: onSummary,
    off: offSummary,
    p99Ratio: Math.round((onSummary.p99 / offSummary.p99) * 100) / 100,
    progressEditsPerMinute: Math.round((perRound.reduce((sum, n) => sum + n, 0) / (runMs / 60_000)) * 10) / 10,
    progressCallsPerRound: perRound,
    http429,
    retryAfterViolations: violations,
    finishedClean,
    lastLine: summarize(lastLines),
  };
}
