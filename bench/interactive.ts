// What a user feels in a chat, at Telegram's real limits (the fake Telegram enforces them and
// Hermes paces with its defaults), a group and a private chat side by side:
//  - rounds: the agent asks, the owner taps at once, the next question comes 1 s after the answer;
//    `question.asked` handed to the bridge → its sendMessage at the fake Telegram, each round with
//    a floor (a bare fetch of the same sendMessage to another chat of the same server) measured
//    right after it;
//  - bursts: three permission requests raised at once, a few seconds apart (within the budget),
//    → the last of the three sendMessages at Telegram.
// The real Bridge, outbox and telegraf client; OpenCode is the bench's loopback stand-in (like the
// other benches): what OpenCode itself takes to publish an event is not Hermes' to measure.
import { OpencodeApi } from "../lib/opencode/api.ts";
import type { PermissionRequest, QuestionRequest } from "../lib/hermes-events.ts";
import { startFakeTelegram, type ApiCall, type FakeTelegram } from "../tests/support/fake-telegram.ts";
import { benchBridge } from "./bridge.ts";
import { fetchTransport, startFakeOpencodeServer, type FakeOpencodeServer } from "./fake-opencode.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";
import { colorQuestion } from "../tests/support/fixtures.ts";

export type ChatKindName = "group" | "private";
export const BENCH_CHATS: Record<ChatKindName, { chatId: number; floorChatId: number }> = {
  group: { chatId: -1001234567890, floorChatId: -1009876543210 },
  private: { chatId: 1001, floorChatId: 2002 },
};

export interface InteractiveResult {
  chat: ChatKindName;
  rounds: number;
  ask: Summary;
  /** The first round's ask → send: the process's first prompt (its renderers and Markdown cold). */
  first: number;
  floor: Summary;
  /** 429s the fake Telegram answered (Hermes alone: every one avoidable). */
  http429: number;
  retryAfterViolations: number;
  /** Answered prompts whose buttons were gone when the bridge stopped (edits may wait for prompts). */
  settledOnPhone: number;
}

export interface BurstResult {
  chat: ChatKindName;
  bursts: number;
  /** Per burst: raised → the last of its three sendMessages at Telegram. */
  allSent: Summary;
  http429: number;
}

const DIRECTORY = "/bench/interactive";

interface Rig {
  fake: FakeTelegram;
  opencode: FakeOpencodeServer;
  bridge: ReturnType<typeof benchBridge>;
  /** sendMessage arrivals (performance.now()) by the [marker] in the text. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function startRig(chat: ChatKindName): Promise<Rig> {
  const fake = await startFakeTelegram({ floodLimits: true });
  const opencode = await startFakeOpencodeServer();
  const bridge = benchBridge(fake, undefined, BENCH_CHATS[chat].chatId);
  bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
  bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_bench", title: "Interactive bench" } });
  // As in OpenCode, the agent asks from inside a run: its busy comes first.
  bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_bench", status: "busy" });
  const arrivals = new Map<string, number>();
  fake.onCall((call: ApiCall) => {
    const marker = call.method === "sendMessage" ? /\[([A-Z]\d+F?)\]/.exec(String(call.payload.text ?? ""))?.[1] : undefined;
    if (marker && !arrivals.has(marker)) arrivals.set(marker, call.hrAt!);
  });
  // OpenCode announces the replies it accepted; the bridge waits for that echo.
  opencode.onReply = (arrival) => {
    const body = arrival.body as { answers?: string[][]; reply?: "once" | "always" | "reject" } | undefined;
    const event =
      arrival.kind === "question" && body?.answers
        ? { type: "question.replied" as const, sessionID: "ses_bench", requestID: arrival.requestID, answers: body.answers }
        : arrival.kind === "permission" && body?.reply
          ? { type: "permission.replied" as const, sessionID: "ses_bench", requestID: arrival.requestID, reply: body.reply }
          : undefined;
    if (event) queueMicrotask(() => bridge.handleEvent(DIRECTORY, event));
  };
  // Warm-up: telegraf is loaded on the first call, and both clients open their connections.
  await bridge.telegram.getMe();
  await (await fetch(`${fake.apiRoot}/bot${fake.token}/getMe`)).json();
  await sleep(50);
  return {
    fake,
    opencode,
    bridge,
    arrivals,
    async close() {
      await Promise.race([bridge.stop(), sleep(5_000)]);
      await opencode.close();
      await fake.close();
    },
  };
}

const waitArrival = (rig: Rig, marker: string) => until(() => rig.arrivals.get(marker), 120_000, `sendMessage of ${marker}`, 0);

export async function runInteractive(chat: ChatKindName, rounds: number, gapMs = 1_000): Promise<InteractiveResult> {
  const rig = await startRig(chat);
  const { chatId, floorChatId } = BENCH_CHATS[chat];
  const ask: number[] = [];
  const floor: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const marker = `Q${round}`;
      const request: QuestionRequest = {
        id: `que_int_${round}`,
        sessionID: "ses_bench",
        questions: [colorQuestion({ question: `Which color? [${marker}]` })],
      };
      const askStart = performance.now();
      rig.bridge.handleEvent(DIRECTORY, { type: "question.asked", request });
      ask.push((await waitArrival(rig, marker)) - askStart);

      // The floor: the same sendMessage with a bare fetch, to another chat (its own flood budget).
      const payload = rig.fake.calls.find((c) => c.method === "sendMessage" && String(c.payload.text).includes(`[${marker}]`))!.payload;
      const floorMarker = `${marker}F`;
      const body = JSON.stringify({ ...payload, chat_id: floorChatId, text: String(payload.text).replace(`[${marker}]`, `[${floorMarker}]`) });
      const floorStart = performance.now();
      await (
        await fetch(`${rig.fake.apiRoot}/bot${rig.fake.token}/sendMessage`, { method: "POST", headers: { "content-type": "application/json" }, body })
      ).json();
      floor.push((await waitArrival(rig, floorMarker)) - floorStart);

      // The owner taps at once; the next question comes 1 s after the answer reached OpenCode.
      const message = await until(() => rig.fake.messages(chatId).find((m) => m.history[0]!.text.includes(`[${marker}]`)), 10_000, `message ${marker}`, 0);
      await until(() => rig.bridge.registry.byRequest(request.id)?.message, 10_000, `bridge knows ${marker}`, 0);
      const replies = rig.opencode.replies;
      await rig.bridge.handleUpdate(rig.fake.tapUpdate(message, "Red"));
      await until(() => rig.opencode.replies > replies, 10_000, `reply to ${marker}`, 1);
      await sleep(gapMs);
    }
    const settledOnPhone = rig.fake.messages(chatId).filter((m) => rig.fake.buttons(m).length === 0).length;
    return {
      chat,
      rounds,
      ask: summarize(ask),
      first: ask[0]!,
      floor: summarize(floor),
      http429: rig.fake.flood.rejected,
      retryAfterViolations: rig.fake.retryAfterViolations,
      settledOnPhone,
    };
  } finally {
    await rig.close();
  }
}

export async function runBursts(chat: ChatKindName, bursts: number, gapMs = 3_500): Promise<BurstResult> {
  const rig = await startRig(chat);
  const spans: number[] = [];
  try {
    for (let burst = 0; burst < bursts; burst++) {
      const markers = [0, 1, 2].map((index) => `P${burst * 3 + index}`);
      const requests: PermissionRequest[] = markers.map((marker, index) => ({
        id: `per_burst_${marker}`,
        sessionID: "ses_bench",
        permission: "bash",
        patterns: [`echo ${marker}`],
        metadata: { command: `echo step ${index} [${marker}]` },
        always: ["echo *"],
      }));
      const raisedAt = performance.now();
      for (const request of requests) rig.bridge.handleEvent(DIRECTORY, { type: "permission.asked", request });
      const arrived = await Promise.all(markers.map((marker) => waitArrival(rig, marker)));
      spans.push(Math.max(...arrived) - raisedAt);
      await sleep(gapMs);
    }
    return { chat, bursts, allSent: summarize(spans), http429: rig.fake.flood.rejected };
  } finally {
    await rig.close();
  }
}
