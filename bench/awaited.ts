// A busy group's awaited traffic (issue 50 §4): what a person or the agent waits for, once the
// group's window has room again. A burst of the person's answers (nineteen, all an answer may use)
// and a prompt fill a group's twenty; while it is full, Hermes queues what a busy minute leaves
// behind (sixteen edits of settled prompts, more than the fifteen a deferrable message may use;
// two chores; another run's spare progress), then the three awaited calls: a run's Done notice,
// the agent's file (a small PNG; the tool call waits for the upload to return) and the first sight
// of a running command on its run's progress message. Measured: the moment the window has room
// again (the first of the twenty leaves it, read from the fake Telegram's record, as the e2e test
// does: tests/support/telegram/group-window.ts) → each awaited call returned; the floor: the same
// three calls in an idle group, queued → returned. The real outbox and pacer, the real Bot API
// client and the fake Telegram enforcing a group's limits, time-compressed (the fake's limits and
// the pacing × scale, as the over-budget row) so that the minute's wait takes seconds; figures in
// real-limit time.
import pino from "pino";
import { createTelegramApi } from "../lib/telegram/wire/api.ts";
import { Outbox, Priority } from "../lib/telegram/wire/outbox.ts";
import { escapeHtml } from "../lib/text/html.ts";
import { startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { countedSends, heldAt, roomAgainAt, TELEGRAM_GROUP_WINDOW } from "../tests/support/telegram/group-window.ts";
import { BENCH_CHATS } from "./interactive.ts";
import { sleep, summarize, type Summary } from "./stats.ts";
import { scaledPacing } from "./throughput.ts";

export const AWAITED_KINDS = ["file", "done", "firstSight"] as const;
export type AwaitedKind = (typeof AWAITED_KINDS)[number];

export interface AwaitedResult {
  rounds: number;
  scale: number;
  /** Room again → returned, real-limit ms, per kind and all together. */
  busy: Record<AwaitedKind | "all", Summary>;
  /** In an idle group: queued → returned. */
  floor: Record<AwaitedKind | "all", Summary>;
  /** Calls of the backlog (edits, chores, spare progress) that went out before the last awaited one, over all rounds. */
  backlogAhead: number;
  /** In the busy rounds: what the window held when the awaited calls were queued, and how long until it had room (real-limit ms). */
  held: number[];
  roomAfter: Summary;
  http429: number;
  retryAfterViolations: number;
}

/** A real 1×1 PNG: the agent's file. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==", "base64");
/**
 * The priorities their senders give them: a run's notices (lib/bridge/runs/run-notices.ts) and a
 * running command's first sight (lib/bridge/runs/live-progress.ts); the file is `outbox.upload`'s.
 */
const SENT_AS = { done: Priority.Awaited, firstSight: Priority.Awaited } as const;
const ANSWERS = 19;
const EDITS = 16;
const CHORES = 2;

interface RoundResult {
  /** Per kind: real ms from the reference (room again, or queued in the idle group) to returned. */
  waits: Record<AwaitedKind, number>;
  backlogAhead: number;
  held: number;
  /** Queued → room again, real ms (0 in the idle group). */
  roomAfter: number;
  http429: number;
  violations: number;
}

async function round(busy: boolean, scale: number): Promise<RoundResult> {
  const chatId = BENCH_CHATS.group.chatId;
  // Limits off while the messages to edit are made (they must not count), on from the burst.
  const fake = await startFakeTelegram();
  const telegram = createTelegramApi(fake.token, fake.apiRoot);
  const outbox = new Outbox({ logger: pino({ level: "silent" }), limits: scaledPacing(scale) });
  try {
    const progress = await telegram.sendMessage(chatId, escapeHtml("Running · npm test"));
    const spare = await telegram.sendMessage(chatId, escapeHtml("Running · another run"));
    const settled: number[] = [];
    for (let i = 0; busy && i < EDITS + CHORES; i++) settled.push((await telegram.sendMessage(chatId, escapeHtml(`Which color? ${i}`))).messageId);
    fake.setFloodLimits({ scale });
    const from = fake.calls.length;
    const order: string[] = [];
    const named =
      <T>(name: string, call: () => Promise<T>) =>
      () =>
      () => {
        order.push(name);
        return call();
      };
    if (busy) {
      // The answers use all an answer may (the last slot is left to prompts), then a prompt takes that slot.
      const answers = Array.from({ length: ANSWERS }, (_, i) =>
        outbox.send(
          chatId,
          named("answer", () => telegram.sendMessage(chatId, escapeHtml(`Status ${i}`))),
          Priority.Answer,
        ),
      );
      await Promise.all(answers);
      await outbox.send(
        chatId,
        named("prompt", () => telegram.sendMessage(chatId, escapeHtml("Allow npm test?"))),
        Priority.Prompt,
      );
      // What the busy minute left behind, queued first (the worst case for the awaited calls' order).
      for (const [i, messageId] of settled.slice(0, EDITS).entries())
        outbox
          .edit(
            chatId,
            messageId,
            named("edit", () => telegram.editMessage(chatId, messageId, escapeHtml(`Which color? ${i} · Red`), [])),
            Priority.Edit,
          )
          .catch(() => undefined);
      for (const messageId of settled.slice(EDITS))
        outbox
          .chore(chatId, () => {
            order.push("chore");
            return telegram.removeKeyboard(chatId, messageId);
          })
          .catch(() => undefined);
      outbox
        .update(
          chatId,
          "progress:spare",
          named("spare", () => telegram.editMessage(chatId, spare.messageId, escapeHtml("Running · step 2"), [])),
        )
        .catch(() => undefined);
    }
    const queuedAt = performance.now();
    const returned = (promise: Promise<unknown>) => promise.then(() => performance.now());
    const [file, done, firstSight] = await Promise.all([
      returned(
        outbox.upload(
          chatId,
          named("file", () => telegram.sendFile(chatId, { as: "photo", filename: "shot.png", bytes: PNG, mime: "image/png" })),
          30_000,
        ),
      ),
      returned(
        outbox.send(
          chatId,
          named("done", () => telegram.sendMessage(chatId, escapeHtml("Done · the answer"))),
          SENT_AS.done,
        ),
      ),
      returned(
        outbox.update(
          chatId,
          "progress:run",
          named("firstSight", () => telegram.editMessage(chatId, progress.messageId, escapeHtml("Running · ▸ bash npm test"), [])),
          SENT_AS.firstSight,
        ),
      ),
    ]);
    const window = { ...TELEGRAM_GROUP_WINDOW, windowMs: TELEGRAM_GROUP_WINDOW.windowMs / scale };
    const sends = countedSends(fake.calls.slice(from), chatId, "hrAt");
    const reference = busy ? roomAgainAt(sends, queuedAt, window) : queuedAt;
    const last = Math.max(...AWAITED_KINDS.map((kind) => order.indexOf(kind)));
    const backlogAhead = order.slice(0, last).filter((name) => ["edit", "chore", "spare"].includes(name)).length;
    return {
      waits: { file: file - reference, done: done - reference, firstSight: firstSight - reference },
      backlogAhead,
      held: heldAt(sends, queuedAt, window),
      roomAfter: reference - queuedAt,
      http429: fake.flood.rejected,
      violations: fake.retryAfterViolations,
    };
  } finally {
    await Promise.race([outbox.stop().catch(() => undefined), sleep(2_000)]);
    await fake.close();
  }
}

export async function runAwaited(options: { rounds?: number; scale?: number } = {}): Promise<AwaitedResult> {
  const rounds = options.rounds ?? 8;
  const scale = options.scale ?? 10;
  const samples = (): Record<AwaitedKind, number[]> => ({ file: [], done: [], firstSight: [] });
  const busy = samples();
  const floor = samples();
  let backlogAhead = 0;
  const held: number[] = [];
  const roomAfter: number[] = [];
  let http429 = 0;
  let violations = 0;
  // Warm-up, not counted: the first calls pay for a cold client and JIT.
  await round(false, scale);
  for (let index = 0; index < rounds; index++) {
    // The idle group and the busy one alternate, so both see the machine as it is.
    for (const isBusy of [false, true]) {
      const result = await round(isBusy, scale);
      for (const kind of AWAITED_KINDS) (isBusy ? busy : floor)[kind].push(result.waits[kind] * scale);
      backlogAhead += result.backlogAhead;
      if (isBusy) {
        held.push(result.held);
        roomAfter.push(result.roomAfter * scale);
      }
      http429 += result.http429;
      violations += result.violations;
    }
  }
  const summaries = (of: Record<AwaitedKind, number[]>) => ({
    file: summarize(of.file),
    done: summarize(of.done),
    firstSight: summarize(of.firstSight),
    all: summarize(AWAITED_KINDS.flatMap((kind) => of[kind])),
  });
  return {
    rounds,
    scale,
    busy: summaries(busy),
    floor: summaries(floor),
    backlogAhead,
    held,
    roomAfter: summarize(roomAfter),
    http429,
    retryAfterViolations: violations,
  };
}
