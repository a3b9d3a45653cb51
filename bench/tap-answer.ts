// A person's tap in a busy group: the real `opencode serve` 1.18.33 with Hermes loaded from
// plugin.ts, the scripted LLM, and the fake Telegram enforcing a supergroup's flood limits (twenty
// messages a minute, 429 with retry_after). Three runs work at once, each a chain of slow shell
// commands with its todo list moving, so three progress messages keep wanting edits. Meanwhile the
// owner acts every few seconds, alternating `/status` and a tap on one run's ⏹ Stop (whose answer
// is the confirmation, replying to that progress message). Measured: the action (the update queued
// at the fake Telegram) → its answer's sendMessage accepted by the fake Telegram, and the 429s.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chatSetup } from "../tests/support/chat-kind.ts";
import { startFakeTelegram, type ApiCall, type FakeTelegram, type SentMessage } from "../tests/support/fake-telegram.ts";
import { directive, startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../tests/support/opencode.ts";
import { toolsOf } from "../tests/support/opencode/agent-tools.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const PLUGIN_PATH = path.resolve(HERE, "../plugin.ts");
const VERSION = "1.18.33";
const RUNS = 3;
type Action = "status" | "stop" | "confirm" | "list";
/** The owner's actions, in turn. */
const ACTIONS: readonly Action[] = ["status", "stop", "confirm", "list"];
const STEP_S = 3;

export interface TapAnswerResult {
  version: string;
  /** How long the owner acted while the three runs worked. */
  actingS: number;
  /** Action → its answer at Telegram, ms. */
  answer: Summary;
  /** `/status`'s reply, Stop's confirmation, Confirm stop's edit, `/stop`'s picker (several runs). */
  byAction: Record<Action, Summary>;
  /** Actions whose answer did not come within the bench's wait, and which they were. */
  unanswered: number;
  unansweredKinds: string[];
  /** Progress calls (sends and edits) while the owner acted. */
  progressCalls: number;
  http429: number;
  retryAfterViolations: number;
}

/** A run that keeps its progress message busy for `steps` × STEP_S seconds: todos, then slow commands. */
function script(steps: number, tag: string): string {
  const { shell } = toolsOf(VERSION);
  const todos = (done: number) => ({
    tool: "todowrite",
    args: {
      todos: Array.from({ length: steps }, (_, index) => ({
        content: `${tag} part ${index + 1}`,
        status: index < done ? "completed" : index === done ? "in_progress" : "pending",
        priority: "high",
      })),
    },
  });
  const then: unknown[] = [];
  for (let step = 0; step < steps; step++) then.push(shell(`sleep ${STEP_S} && echo ${tag}-${step}`), todos(step + 1));
  then.push({ text: `${tag} all done` });
  return directive({ ...todos(0), then } as Parameters<typeof directive>[0]);
}

const isProgress = (telegram: FakeTelegram, message: SentMessage) =>
  message.replyToMessageId === undefined && /<b>Running<\/b>/.test(message.text) && telegram.buttons(message).some((b) => b.text === "⏹ Stop");

export async function runTapAnswer(options: { actingS?: number; gapMs?: number } = {}): Promise<TapAnswerResult> {
  const actingS = options.actingS ?? 48;
  const gapMs = options.gapMs ?? 6_000;
  const chat = chatSetup("supergroup");
  const telegram = await startFakeTelegram({ ...chat.telegram });
  const llm = await startMockLlm();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-tap-"));
  let opencode: OpencodeServer | undefined;
  try {
    opencode = await startOpencode({
      version: VERSION,
      llmBaseURL: llm.baseURL,
      plugins: [PLUGIN_PATH],
      env: {
        HERMES_TELEGRAM_TOKEN: telegram.token,
        HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
        ...chat.env,
        HERMES_LOG_FILE: path.join(logDir, "hermes.log"),
        // A run gets its progress message after 3 s of work (not 30): the bench starts sooner.
        HERMES_DONE_AFTER: "3s",
        // Every Telegram call with its lane and wait (kept with KEEP_TMP=1): where the group's budget went.
        HERMES_LOG_LEVEL: "debug",
      },
    });
    // Long enough that the runs outlast the owner's actions.
    const steps = Math.ceil((actingS + 15) / STEP_S);
    const server = opencode;
    for (let run = 0; run < RUNS; run++) await startRun(server, steps, `run${run + 1}`);
    const progress = await until(
      () => {
        const shown = telegram.messages(chat.chatId).filter((m) => isProgress(telegram, m));
        return shown.length >= RUNS ? shown : undefined;
      },
      60_000,
      "three progress messages",
      100,
    );
    const progressBefore = countProgress(telegram.calls);
    const samples: Record<Action, number[]> = { status: [], stop: [], confirm: [], list: [] };
    let unanswered = 0;
    const unansweredKinds: string[] = [];
    let next = 0;
    const started = performance.now();
    let confirmation: SentMessage | undefined;
    const stoppedRuns: SentMessage[] = [];
    for (let action = 0; performance.now() - started < actingS * 1000; action++) {
      const kind = ACTIONS[action % ACTIONS.length]!;
      const at = performance.now();
      let answered: Promise<number>;
      let why: (() => Promise<string>) | undefined;
      if (kind === "status" || kind === "list") {
        const asked = telegram.sendText(chat.chatId, kind === "status" ? "/status" : "/stop");
        answered = answerAt(telegram, "sendMessage", (call) => call.payload.reply_parameters?.message_id === asked.messageId, at);
      } else if (kind === "stop") {
        const target = progress[next++ % progress.length]!;
        const current = telegram.messages(chat.chatId).find((m) => m.messageId === target.messageId)!;
        // What the tap got instead of a confirmation, if none came (read when the wait is over: the callback's note, or why it could not be tapped).
        const tapped = telegram.tapButton(current, "⏹ Stop");
        why = () =>
          tapped.then(
            (id) => `callback answered ${JSON.stringify(telegram.callbackAnswers.find((a) => a.callbackQueryId === id)?.text ?? "(not at all)")}`,
            (error: Error) => error.message.slice(0, 120),
          );
        answered = answerAt(telegram, "sendMessage", (call) => call.payload.reply_parameters?.message_id === target.messageId, at);
        // An answer that never comes is counted below (unanswered), not a crash of the bench.
        void answered.then(
          () => {
            confirmation = telegram
              .messages(chat.chatId)
              .filter((m) => m.replyToMessageId === target.messageId)
              .at(-1);
          },
          () => undefined,
        );
      } else {
        // Confirm stop on the last confirmation: its answer is that message edited; a new run takes the stopped one's place.
        const tapped = confirmation;
        confirmation = undefined;
        if (!tapped) continue;
        void telegram.tapButton(tapped, "⏹ Confirm stop").catch(() => undefined);
        answered = answerAt(telegram, "editMessageText", (call) => call.payload.message_id === tapped.messageId, at);
        const stopped = tapped.replyToMessageId;
        const index = progress.findIndex((m) => m.messageId === stopped);
        if (index >= 0) stoppedRuns.push(...progress.splice(index, 1));
        // The stopped run's message still says Running until its last edit goes (an edit waits for the group's budget): never taken for the new run's.
        void startRun(server, steps, `run${RUNS + next}`).then(() =>
          waitForNewProgress(telegram, chat.chatId, [...progress, ...stoppedRuns]).then((m) => progress.push(m)),
        );
      }
      const took = await answered.then((arrived) => arrived - at).catch(() => undefined);
      if (took === undefined) {
        unanswered++;
        unansweredKinds.push(why ? `${kind} (${await why()})` : kind);
      } else samples[kind].push(took);
      await sleep(Math.max(0, gapMs - (performance.now() - at)));
    }
    const all = Object.values(samples).flat();
    return {
      version: VERSION,
      actingS,
      answer: summarize(all),
      byAction: { status: summarize(samples.status), stop: summarize(samples.stop), confirm: summarize(samples.confirm), list: summarize(samples.list) },
      unanswered,
      unansweredKinds,
      progressCalls: countProgress(telegram.calls) - progressBefore,
      http429: telegram.flood.rejected,
      retryAfterViolations: telegram.retryAfterViolations,
    };
  } finally {
    await opencode?.stop();
    await llm.close();
    await telegram.close();
    if (process.env.KEEP_TMP) console.error(`· the taps row's Hermes log: ${logDir}/hermes.log`);
    else fs.rmSync(logDir, { recursive: true, force: true });
  }
}

async function startRun(opencode: OpencodeServer, steps: number, tag: string): Promise<void> {
  const session = await opencode.createSession({ title: `Busy ${tag}` });
  await opencode.prompt(session.id, script(steps, tag));
}

/** A run's progress message that is not among `known`. */
function waitForNewProgress(telegram: FakeTelegram, chatId: number, known: readonly SentMessage[]): Promise<SentMessage> {
  return until(
    () => telegram.messages(chatId).find((m) => isProgress(telegram, m) && !known.some((k) => k.messageId === m.messageId)),
    60_000,
    "a new run's progress message",
    50,
  );
}

/** When the first accepted `method` call matching `pred` and arriving after `after` reached the fake Telegram. */
function answerAt(telegram: FakeTelegram, method: string, pred: (call: ApiCall) => boolean, after: number): Promise<number> {
  return until(
    () => telegram.calls.find((call) => call.method === method && call.status === 200 && call.hrAt! >= after && pred(call))?.hrAt,
    60_000,
    "the answer",
    5,
  );
}

function countProgress(calls: readonly ApiCall[]): number {
  return calls.filter((call) => (call.method === "sendMessage" || call.method === "editMessageText") && /<b>Running<\/b>/.test(String(call.payload.text ?? "")))
    .length;
}
