// The bridge the hub hands out loads bridge.ts on first use (on-demand-bridge.ts): an OpenCode that
// only waits never loads it, and whatever comes while it loads reaches it, in order, once loaded.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { Bridge, type InstanceLink } from "../../lib/bridge/bridge.ts";
import { OnDemandBridge, type OnDemandBridgeOptions } from "../../lib/bridge/on-demand-bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { CHAT, DIRECTORY, FakeOpencode, OWNER, question, request } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

function rig({ fail = false, logger = pino({ level: "silent" }) }: { fail?: boolean; logger?: pino.Logger } = {}) {
  const telegram = new MemoryTelegram();
  const opencode = new FakeOpencode();
  let loads = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let gated = false;
  const options: OnDemandBridgeOptions = {
    telegram,
    logger,
    access: { chatId: CHAT, allowedUsers: [] },
    questionTtlMs: 0,
    textQuietMs: 20,
    pacing: false,
    confirmTimeoutMs: 10_000,
  };
  const bridge = new OnDemandBridge(options, async (given) => {
    loads++;
    if (gated) await released;
    if (fail) throw new Error("Cannot find module './bridge.ts'");
    return new Bridge({ ...given, registry: new Registry() });
  });
  opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
  const link: InstanceLink = { directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) };
  return {
    telegram,
    opencode,
    bridge,
    link,
    loads: () => loads,
    /** The next load waits until `open()`. */
    hold: () => {
      gated = true;
    },
    open: () => release(),
  };
}

const command = (text: string, from = OWNER) => ({
  update_id: 1,
  message: { message_id: 77, from: { id: from }, chat: { id: CHAT, type: "private" }, text },
});

describe("OnDemandBridge", () => {
  it("an OpenCode that only waits never loads the bridge, and the process that polls sends Telegram nothing else", async () => {
    const { telegram, bridge, link, loads } = rig();
    bridge.attach(link, { listPending: false });
    bridge.onLead();
    await runToQuiet(async () => undefined);
    expect(telegram.commands).toEqual([]);
    expect(telegram.getMeCalls).toBe(0);
    expect(bridge.t.note.pollConflict).toBeTruthy(); // the strings for the hub's notes need no bridge either
    await bridge.detach(link);
    await bridge.stop();
    expect(loads()).toBe(0);
    expect(bridge.loaded).toBe(false);
  });

  it("the first event loads it once; what comes while it loads reaches it in order, with the link attached before", async () => {
    const { telegram, opencode, bridge, link, loads, hold, open } = rig();
    bridge.attach(link, { listPending: false });
    hold();
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Refactor the parser", directory: DIRECTORY } });
    const first = request([question({ question: "First question?" })]);
    const second = request([question({ question: "Second question?" })]);
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: first });
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: second });
    await runToQuiet(async () => undefined);
    expect(loads()).toBe(1);
    expect(bridge.loaded).toBe(false);
    expect(telegram.messages).toEqual([]);

    open();
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.keyboard.length > 0)).toHaveLength(2));
    expect(loads()).toBe(1);
    expect(bridge.loaded).toBe(true);
    const [a, b] = telegram.messages;
    expect(a?.text).toContain("First question?");
    expect(b?.text).toContain("Second question?");
    // The session event came first, so the prompts already name it.
    expect(a?.text).toContain("Refactor the parser");
    // The link attached before the load answers the tap.
    await bridge.handleUpdate({
      update_id: 2,
      callback_query: {
        id: "cb1",
        from: { id: OWNER, first_name: "U" },
        data: telegram.button(a!, "Red").callback_data,
        message: { message_id: a!.messageId, chat: { id: CHAT, type: "private" }, reply_markup: { inline_keyboard: a!.keyboard } },
      },
    });
    await vi.waitFor(() =>
      expect(opencode.posts).toContainEqual(expect.objectContaining({ url: "/question/{requestID}/reply", path: { requestID: first.id } })),
    );
    await vi.waitFor(() => expect(a?.text).toContain("Answered from Telegram"));
    await bridge.stop();
  });

  it("the first Telegram update loads it; the process that polls registers the commands and learns the bot's name before that update is handled (/status@bot in groups)", async () => {
    const { telegram, bridge, loads } = rig();
    // Telegram takes its time to say the bot's name.
    const getMe = telegram.getMe.bind(telegram);
    let answerGetMe: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answerGetMe = resolve;
    });
    telegram.getMe = async () => {
      await answered;
      return getMe();
    };
    bridge.onLead();
    await runToQuiet(async () => undefined);
    expect(loads()).toBe(0);
    let settled = false;
    const handled = bridge.handleUpdate(command("/status@hermes_test_bot")).finally(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(telegram.commands.map((c) => c.command)).toContain("status"));
    expect(loads()).toBe(1);
    // Not yet known whether "@hermes_test_bot" is this bot: the update waits.
    expect(settled).toBe(false);
    expect(telegram.messages).toEqual([]);
    answerGetMe();
    await handled;
    expect(telegram.getMeCalls).toBe(1);
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("Hermes status"))).toHaveLength(1));
    await bridge.handleUpdate(command("/status@some_other_bot"));
    await runToQuiet(async () => undefined);
    expect(telegram.messages).toHaveLength(1);
    expect(telegram.getMeCalls).toBe(1);
    await bridge.stop();
  });

  it("a Telegram that never says the bot's name holds up the first update only a moment", async () => {
    const { telegram, bridge } = rig();
    telegram.getMe = () => new Promise(() => undefined);
    bridge.onLead();
    vi.useFakeTimers();
    try {
      const handled = bridge.handleUpdate(command("/status"));
      await vi.waitFor(() => expect(telegram.commands).not.toEqual([]));
      await vi.advanceTimersByTimeAsync(2_000);
      await handled;
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("Hermes status"))).toHaveLength(1));
    await bridge.stop();
  });

  it("a process that polls and loads the bridge for an event announces the bot then too", async () => {
    const { telegram, bridge, link } = rig();
    bridge.attach(link, { listPending: false });
    bridge.onLead();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Announced?" })]) });
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.text.includes("Announced?"))).toBeDefined());
    await vi.waitFor(() => expect(telegram.commands.map((c) => c.command)).toContain("status"));
    expect(telegram.getMeCalls).toBe(1);
    await bridge.stop();
  });

  it("a process that does not poll never announces the bot, loaded or not", async () => {
    const { telegram, bridge, link } = rig();
    bridge.attach(link, { listPending: false });
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Follower?" })]) });
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.text.includes("Follower?"))).toBeDefined());
    await runToQuiet(async () => undefined);
    expect(telegram.commands).toEqual([]);
    expect(telegram.getMeCalls).toBe(0);
    await bridge.stop();
  });

  it("an instance that lists its pending prompts (attach mode) needs the bridge at once", async () => {
    const { telegram, opencode, bridge, link, loads } = rig();
    opencode.pending = [request([question({ question: "Asked before Hermes started?" })])];
    bridge.attach(link);
    expect(loads()).toBe(1);
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.text.includes("Asked before Hermes started?"))).toBeDefined());
    await bridge.stop();
  });

  it("an instance that lists its pending prompts a moment later (OpenCode 2's start) loads the bridge then, not at once", async () => {
    const { telegram, opencode, bridge, link, loads } = rig();
    opencode.pending = [request([question({ question: "Pending at the location's start?" })])];
    bridge.attach(link, { listAfterMs: 50 });
    expect(loads()).toBe(0);
    await vi.waitFor(() => expect(loads()).toBe(1));
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.text.includes("Pending at the location's start?"))).toBeDefined());
    await bridge.stop();
  });

  it("stopped before it was needed: it never loads, and what comes after is dropped", async () => {
    const { telegram, bridge, link, loads } = rig();
    bridge.attach(link, { listPending: false });
    await bridge.stop();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    expect(await bridge.claimUpdate(command("/status"))).toBeUndefined();
    await bridge.handleUnclaimed(command("/status"));
    await runToQuiet(async () => undefined);
    expect(loads()).toBe(0);
    expect(telegram.messages).toEqual([]);
  });

  it("stopped while it loads: the events waiting for it are dropped, and the loaded bridge is stopped", async () => {
    const { telegram, bridge, link, loads, hold, open } = rig();
    bridge.attach(link, { listPending: false });
    hold();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    const stopped = bridge.stop();
    open();
    await stopped;
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    await runToQuiet(async () => undefined);
    expect(loads()).toBe(1);
    expect(telegram.messages).toEqual([]);
  });

  it("a load that fails says so once and leaves Hermes inert: no retry with every event", async () => {
    const lines: string[] = [];
    const { bridge, link, loads } = rig({ fail: true, logger: pino({ level: "info" }, { write: (line: string) => void lines.push(line) }) });
    bridge.attach(link, { listPending: false });
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    await runToQuiet(async () => undefined);
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    expect(await bridge.claimUpdate(command("/status"))).toBeUndefined();
    await runToQuiet(async () => undefined);
    expect(loads()).toBe(1);
    expect(lines.filter((line) => line.includes("could not load"))).toHaveLength(1);
    expect(lines[0]).toContain("Cannot find module");
    await expect(bridge.detach(link)).resolves.toBeUndefined(); // an instance still leaves cleanly
    await bridge.stop();
  });
});
