// A week inside OpenCode: one Bridge, alive as long as OpenCode is, takes 1,000 runs and 10,000
// prompts (9 questions and a permission a run, each tapped) against the stand-ins (the in-memory
// Telegram, an in-memory OpenCode that answers like OpenCode and announces each reply as its
// event). Every run is a new session with live progress (todos, steps), what its answer used, the
// files it changed (the diff goes with Done as a file); every other run starts from the phone (a
// reply to the session's question, 👍, the progress message answering it), every tenth has a
// sub-agent, every fifth session is deleted afterwards. Measured: heap and RSS after a full GC
// after a warm-up, halfway and at the end (the second half shows what still grows once every
// bound is reached), the prompts the bridge still holds and the timers left once it stopped.
import pino from "pino";
import { Bridge } from "../lib/bridge/bridge.ts";
import type { HermesEvent, MessageUsage } from "../lib/hermes-events.ts";
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { HttpResult, OpencodeTransport } from "../lib/opencode/transport.ts";
import { Registry } from "../lib/registry/registry.ts";
import { MemoryTelegram } from "../tests/support/memory-telegram.ts";
import { round, sleep, until } from "./stats.ts";

export interface WeekResult {
  runs: number;
  prompts: number;
  warmupRuns: number;
  gc: boolean;
  heapWarmMB: number;
  heapEndMB: number;
  heapGrowthMB: number;
  /** Over the second half of the runs: what still grows once every bound is reached (steady state: about nothing). */
  heapSecondHalfMB: number;
  rssWarmMB: number;
  rssEndMB: number;
  rssGrowthMB: number;
  rssSecondHalfMB: number;
  durationMs: number;
  /** What the bridge still holds at the end. */
  promptsLeft: number;
  /** Timers the bridge left set once it stopped (none expected). */
  timersAfterStop: number;
}

const CHAT = 1001;
const DIRECTORY = "/bench/week";
const QUESTIONS_PER_RUN = 9;

/** Answers like OpenCode and announces each accepted reply as its event. */
class WeekOpencode implements OpencodeTransport {
  announce: (event: HermesEvent) => void = () => undefined;
  /** requestID → its session, while the prompt is open. */
  readonly open = new Map<string, string>();
  async request(method: "GET" | "POST", url: string, options: { path?: Record<string, string>; body?: unknown } = {}): Promise<HttpResult> {
    if (method === "GET") {
      if (url === "/question" || url === "/permission") return { status: 200, data: [] };
      if (url === "/config/providers")
        return { status: 200, data: { providers: [{ id: "mock", models: { big: { name: "Big", limit: { context: 200_000 } } } }] } };
      if (url === "/session/{sessionID}") return { status: 200, data: { id: options.path?.sessionID, title: "A week" } };
      return { status: 404, data: {} };
    }
    const requestID = options.path?.requestID ?? "";
    const sessionID = this.open.get(requestID);
    this.open.delete(requestID);
    if (url === "/question/{requestID}/reply" && sessionID) {
      const answers = (options.body as { answers: string[][] }).answers;
      queueMicrotask(() => this.announce({ type: "question.replied", sessionID, requestID, answers }));
    }
    if (url === "/permission/{requestID}/reply" && sessionID) {
      const reply = (options.body as { reply: "once" }).reply;
      queueMicrotask(() => this.announce({ type: "permission.replied", sessionID, requestID, reply }));
    }
    if (url === "/session/{sessionID}/prompt_async") return { status: 204, data: {} };
    return { status: 200, data: true };
  }
}

const usage = (input: number): MessageUsage => ({ input, output: 800, reasoning: 0, cacheRead: 20_000, cacheWrite: 0, cost: 0.02 });

export async function runWeek(options: { runs?: number; warmupRuns?: number } = {}): Promise<WeekResult> {
  const runs = options.runs ?? 1_000;
  const warmupRuns = options.warmupRuns ?? 200;
  const gc = (globalThis as { gc?: () => void }).gc;
  const timers = countTimers();

  const telegram = new MemoryTelegram();
  const opencode = new WeekOpencode();
  const bridge = new Bridge({
    telegram,
    registry: new Registry(),
    logger: pino({ level: "silent" }),
    access: { chatId: CHAT, allowedUsers: [] },
    questionTtlMs: 0,
    confirmTimeoutMs: 10_000,
    textQuietMs: 0,
    doneGraceMs: 0,
    pacing: false,
    progress: true,
    notices: { level: "all", doneAfterMs: 0 },
  });
  const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
  opencode.announce = emit;
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode) }, { listPending: false });

  let updateId = 0;
  let prompts = 0;
  const tap = (messageId: number, text: string) => {
    const message = telegram.messages.find((m) => m.messageId === messageId)!;
    return bridge.handleUpdate({
      update_id: ++updateId,
      callback_query: {
        id: `cb${updateId}`,
        from: { id: CHAT, first_name: "Owner" },
        data: telegram.button(message, text).callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    });
  };
  /** Raises a prompt of the session, waits for it on the phone, taps it, waits until it is settled and forgotten. */
  const prompt = async (session: string, id: string, kind: "question" | "permission") => {
    opencode.open.set(id, session);
    prompts++;
    if (kind === "question")
      emit({
        type: "question.asked",
        request: {
          id,
          sessionID: session,
          questions: [
            {
              question: `Which one? ${id}`,
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
    else
      emit({
        type: "permission.asked",
        request: { id, sessionID: session, permission: "bash", patterns: [`make ${id}`], metadata: { command: `make ${id}` }, always: ["make *"] },
      });
    const delivered = await until(() => bridge.registry.byRequest(id)?.message, 10_000, `${id} delivered`, 0);
    await tap(delivered.messageId, kind === "question" ? "Yes" : "Allow once");
    await until(() => bridge.registry.byRequest(id) === undefined, 10_000, `${id} settled`, 0);
    return delivered.messageId;
  };

  const run = async (r: number) => {
    const session = `ses_week_${r}`;
    emit({ type: "session.upserted", info: { id: session, title: `Run ${r}`, directory: DIRECTORY } });
    const first = await prompt(session, `que_w${r}_0`, "question");
    if (r % 2 === 0) {
      // From the phone: a reply to the session's question starts the run.
      await bridge.handleUpdate({
        update_id: ++updateId,
        message: {
          message_id: 100_000 + updateId,
          from: { id: CHAT, first_name: "Owner" },
          chat: { id: CHAT, type: "private" },
          text: `go on ${r}`,
          reply_to_message: { message_id: first },
        },
      });
      await until(() => telegram.reactions.length > 0, 10_000, "the 👍", 0);
    }
    emit({ type: "session.status", sessionID: session, status: "busy" });
    emit({
      type: "message.role",
      sessionID: session,
      messageID: `msg_u${r}`,
      role: "user",
      changes: [
        { file: `src/a${r}.ts`, additions: 3, deletions: 1, patch: `@@ -1 +1,3 @@\n-old ${r}\n+new ${r}\n+more\n+lines\n` },
        { file: `src/b${r}.ts`, additions: 1, deletions: 0, patch: `@@ -0,0 +1 @@\n+added ${r}\n` },
      ],
    });
    emit({
      type: "todo.updated",
      sessionID: session,
      todos: [
        { content: `Task ${r}`, status: "in_progress" },
        { content: "Check", status: "pending" },
      ],
    });
    if (r % 10 === 0) {
      emit({ type: "session.upserted", info: { id: `${session}_sub`, title: "helper", parentID: session } });
      emit({ type: "tool.step", sessionID: `${session}_sub`, step: { callID: `sub${r}`, tool: "grep", state: "running", input: { pattern: `x${r}` } } });
      emit({ type: "tool.step", sessionID: `${session}_sub`, step: { callID: `sub${r}`, state: "completed" } });
    }
    for (let q = 1; q <= QUESTIONS_PER_RUN; q++) {
      emit({ type: "tool.step", sessionID: session, step: { callID: `c${r}_${q}`, tool: "bash", state: "running", input: { command: `make step-${q}` } } });
      emit({
        type: "message.role",
        sessionID: session,
        messageID: `msg_a${r}_${q}`,
        role: "assistant",
        usage: usage(1_000 * q),
        model: { providerID: "mock", modelID: "big" },
      });
      await prompt(session, q === QUESTIONS_PER_RUN ? `per_w${r}` : `que_w${r}_${q}`, q === QUESTIONS_PER_RUN ? "permission" : "question");
      emit({ type: "tool.step", sessionID: session, step: { callID: `c${r}_${q}`, state: "completed" } });
    }
    emit({
      type: "todo.updated",
      sessionID: session,
      todos: [
        { content: `Task ${r}`, status: "completed" },
        { content: "Check", status: "completed" },
      ],
    });
    emit({ type: "message.role", sessionID: session, messageID: `msg_a${r}_end`, role: "assistant" });
    emit({ type: "message.text", sessionID: session, messageID: `msg_a${r}_end`, partID: `p${r}`, text: `Run ${r} **done**: see \`src/a${r}.ts\`.` });
    emit({ type: "session.idle", sessionID: session });
    // Done and its diff file: the run is over on the phone.
    await until(() => telegram.documents.some((doc) => doc.filename.endsWith(".diff") && doc.content.includes(`new ${r}`)), 10_000, `run ${r}'s Done`, 0);
    if (r % 5 === 4) emit({ type: "session.deleted", sessionID: session });
    // What the test double keeps for assertions is not the bridge's memory (recent messages stay: late edits find them).
    prune(telegram);
  };

  const measure = async () => {
    await sleep(50);
    for (let i = 0; i < 4; i++) {
      gc?.();
      await sleep(5);
    }
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed, rss };
  };

  for (let r = 0; r < warmupRuns; r++) await run(r);
  const warm = await measure();
  const started = performance.now();
  const before = prompts;
  const half = warmupRuns + Math.floor(runs / 2);
  for (let r = warmupRuns; r < half; r++) await run(r);
  const middle = await measure();
  for (let r = half; r < warmupRuns + runs; r++) await run(r);
  const durationMs = performance.now() - started;
  await sleep(200); // the last run's last edits
  const end = await measure();
  const promptsLeft = bridge.registry.all().length;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([bridge.stop(), new Promise((resolve) => (giveUp = setTimeout(resolve, 5_000)))]);
  clearTimeout(giveUp);
  await sleep(50);
  const timersAfterStop = timers.stop();
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);
  return {
    runs,
    prompts: prompts - before,
    warmupRuns,
    gc: gc !== undefined,
    heapWarmMB: mb(warm.heapUsed),
    heapEndMB: mb(end.heapUsed),
    heapGrowthMB: mb(end.heapUsed - warm.heapUsed),
    heapSecondHalfMB: mb(end.heapUsed - middle.heapUsed),
    rssWarmMB: mb(warm.rss),
    rssEndMB: mb(end.rss),
    rssGrowthMB: mb(end.rss - warm.rss),
    rssSecondHalfMB: mb(end.rss - middle.rss),
    durationMs: Math.round(durationMs),
    promptsLeft,
    timersAfterStop,
  };
}

/** Drops what the in-memory Telegram keeps for tests, but its last 40 messages (late edits find them). */
function prune(telegram: MemoryTelegram): void {
  telegram.messages.splice(0, Math.max(0, telegram.messages.length - 40));
  telegram.documents.splice(0);
  telegram.reactions.splice(0);
  telegram.callbackAnswers.splice(0);
}

/** Counts the timers set and not yet cleared or fired, from now on (setTimeout and setInterval). */
function countTimers(): { stop(): number } {
  const live = new Set<unknown>();
  const { setTimeout: set, clearTimeout: clear, setInterval: every, clearInterval: clearEvery } = globalThis;
  globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = set(
      (...inner: unknown[]) => {
        live.delete(timer);
        fn(...inner);
      },
      ms,
      ...args,
    );
    live.add(timer);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
    live.delete(timer);
    clear(timer);
  }) as typeof clearTimeout;
  globalThis.setInterval = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = every(fn, ms, ...args);
    live.add(timer);
    return timer;
  }) as typeof setInterval;
  globalThis.clearInterval = ((timer: Parameters<typeof clearInterval>[0]) => {
    live.delete(timer);
    clearEvery(timer);
  }) as typeof clearInterval;
  return {
    stop() {
      globalThis.setTimeout = set;
      globalThis.clearTimeout = clear;
      globalThis.setInterval = every;
      globalThis.clearInterval = clearEvery;
      return live.size;
    },
  };
}
