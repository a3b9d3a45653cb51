// /every, /at, /schedules and the runner in one process (bridge-rig: a Bridge with an in-memory
// Telegram and a fake OpenCode 1.x), on a real schedules file in a temporary directory and a fake
// clock; the parts other processes would add to /every are passed in by hand.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ScheduleSetup } from "../../lib/bridge/schedules/schedules-routes.ts";
import { LATE_LIMIT_MS } from "../../lib/schedules/due.ts";
import type { Schedule } from "../../lib/schedules/schedule.ts";
import { ScheduleStore } from "../../lib/schedules/store.ts";
import { CHAT, DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";

const MIN = 60_000;
let root: string;
let store: ScheduleStore;
let clock: number;
let changes: number;
let updateId = 0;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-schedule-commands-"));
  store = new ScheduleStore(path.join(root, "opencode-hermes", "schedules.json"));
  clock = new Date(2026, 10, 27, 12, 0, 0).getTime(); // a Friday, noon, local time
  changes = 0;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function rig(options: { allowedUsers?: number[] } = {}) {
  let runDue: () => Promise<void> = () => Promise.reject(new Error("the bridge gave no runner"));
  const schedules: ScheduleSetup = {
    store,
    bot: "bot1",
    changed: () => void changes++,
    ready: (given) => {
      runDue = given;
    },
  };
  const made = setup({ ...options, schedules, now: () => clock });
  return { ...made, runSchedules: () => runDue() };
}

const command = (text: string, from = OWNER) => ({
  update_id: ++updateId,
  message: { message_id: 77, from: { id: from }, chat: { id: CHAT, type: "private" }, text },
});

function saved(): Schedule[] {
  const read = store.read();
  if (!read.ok) throw new Error(read.refused);
  return read.schedules;
}

describe("/every and /at", () => {
  it("with one project served here: saved at once, and the answer says what was understood", async () => {
    const { telegram, bridge } = rig();
    const update = command("/every weekdays 09:00 run the tests and tell me what broke");
    expect(bridge.gathers(update)).toBe(true);
    await bridge.handleUpdate(update);
    await vi.waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({
      bot: "bot1",
      chatId: CHAT,
      directory: DIRECTORY,
      when: { kind: "daily", weekdays: true, hour: 9, minute: 0 },
      instruction: "run the tests and tell me what broke",
      next: new Date(2026, 10, 30, 9, 0).getTime(),
    });
    const answer = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Scheduled")) ?? Promise.reject(new Error("no answer")));
    expect(answer.text).toBe(
      "⏰ <b>Scheduled</b>: every weekday at 09:00, in <b>project</b>: run the tests and tell me what broke\nNext run: Mon 09:00. /schedules lists them.",
    );
    expect(answer.replyTo).toBe(77);
    expect(changes).toBe(1);
  });

  it("says what it did not understand, and saves nothing", async () => {
    const { telegram, bridge } = rig();
    await bridge.handleUpdate(command("/every 30s x"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("I did not understand when."));
    await bridge.handleUpdate(command("/at 25:00 x"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("HH:MM"));
    await bridge.handleUpdate(command("/every 1m"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("What should the run do?"));
    expect(saved()).toEqual([]);
  });

  it("a stranger's /every creates nothing and gets no answer", async () => {
    const { telegram, bridge } = rig({ allowedUsers: [OWNER] });
    await runToQuiet(() => bridge.handleUpdate(command("/every 1m rm -rf /", 666)));
    expect(await bridge.partFor(command("/every 1m x", 666))).toBeUndefined();
    expect(saved()).toEqual([]);
    expect(fs.existsSync(store.file)).toBe(false);
    expect(telegram.messages).toEqual([]);
  });

  it("with a project in another process: a picker; the tap on this process' project saves the command it replies to", async () => {
    const { telegram, bridge } = rig();
    const update = command("/at 18:00 summarise today's commits");
    await bridge.handleUnclaimed(update, [await bridge.partFor(update), { directories: ["/home/dev/other"] }]);
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length === 2) ?? Promise.reject(new Error("no picker")));
    const tapOn = (label: string) => ({
      update_id: ++updateId,
      callback_query: {
        id: `cb-${updateId}`,
        from: { id: OWNER },
        data: telegram.button(picker, label).callback_data,
        message: {
          message_id: picker.messageId,
          chat: { id: CHAT, type: "private" },
          reply_to_message: { message_id: 77, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "/at 18:00 summarise today's commits" },
        },
      },
    });
    expect(await bridge.claimUpdate(tapOn("📁 other"))).toBeUndefined();
    const claim = await bridge.claimUpdate(tapOn("📁 project"));
    const again = await bridge.claimUpdate(tapOn("📁 project")); // a quick second tap, before the buttons go
    await claim!();
    await again!();
    await vi.waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ directory: DIRECTORY, when: { kind: "once", hour: 18, minute: 0 }, next: new Date(2026, 10, 27, 18, 0).getTime() });
    await vi.waitFor(() => expect(picker.text).toContain("Schedule in <b>project</b>"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("once at 18:00"));
  });

  it("says schedules are off when the file was refused", async () => {
    fs.mkdirSync(path.dirname(store.file), { recursive: true });
    fs.symlinkSync(path.join(root, "elsewhere"), store.file);
    const { telegram, bridge } = rig();
    await bridge.handleUpdate(command("/every 5m x"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("Schedules are off on this machine"));
  });
});

describe("/schedules", () => {
  it("lists each schedule with the zone, and cancels one on a confirming second tap", async () => {
    const { telegram, bridge, tap } = rig();
    await bridge.handleUpdate(command("/every 2h check the build"));
    await bridge.handleUpdate(command("/every day 07:30 summarise <the> news"));
    await vi.waitFor(() => expect(saved()).toHaveLength(2));
    await bridge.handleUpdate(command("/schedules"));
    const list = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Schedules</b>")) ?? Promise.reject(new Error("no list")));
    expect(list.text).toContain("times are this machine's (");
    expect(list.text).toContain("1. every 2 h · <b>project</b> · next Fri 14:00\n<blockquote>check the build</blockquote>");
    expect(list.text).toContain("2. every day at 07:30 · <b>project</b> · next Sat 07:30\n<blockquote>summarise &lt;the&gt; news</blockquote>");
    expect(list.keyboard.flat().map((b) => b.text)).toEqual(["✖ Cancel 1", "✖ Cancel 2"]);
    await tap(list, "✖ Cancel 1");
    expect(telegram.callbackAnswers.at(-1)?.text).toBe("Tap again to cancel it");
    await vi.waitFor(() => expect(list.keyboard.flat().map((b) => b.text)).toEqual(["✖ Confirm cancel 1", "✖ Cancel 2"]));
    expect(saved()).toHaveLength(2); // one tap cancels nothing
    await tap(list, "✖ Confirm cancel 1");
    await vi.waitFor(() => expect(saved().map((s) => s.instruction)).toEqual(["summarise <the> news"]));
    expect(telegram.callbackAnswers.at(-1)?.text).toBe("Cancelled");
    await vi.waitFor(() => expect(list.keyboard.flat().map((b) => b.text)).toEqual(["✖ Cancel 1"]));
  });

  it("with the store full of long schedules, Confirm cancel redraws the list (issue 50: the redraw was dropped)", async () => {
    const { telegram, bridge, tap } = rig();
    const long = (n: number) => `${n} ${"运行所有测试，然后告诉我哪里坏了 ".repeat(230)}`.slice(0, 4000);
    await store.update(() => ({
      schedules: Array.from({ length: 80 }, (_, n) => sample({ id: `a${String(n).padStart(7, "0")}`, instruction: long(n), next: clock + (n + 1) * MIN })),
      result: true,
    }));
    expect(saved()).toHaveLength(80);
    await bridge.handleUpdate(command("/schedules"));
    const list = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Schedules</b>")) ?? Promise.reject(new Error("no list")));
    expect(list.text).toContain("(80)");
    await tap(list, "✖ Cancel 1");
    await vi.waitFor(() => expect(list.keyboard.flat()[0]?.text).toBe("✖ Confirm cancel 1"));
    await tap(list, "✖ Confirm cancel 1");
    await vi.waitFor(() => expect(saved()).toHaveLength(79));
    expect(telegram.callbackAnswers.at(-1)?.text).toBe("Cancelled");
    await vi.waitFor(() => expect(list.text).toContain("(79)"));
    expect(list.text).not.toContain("<blockquote>0 ");
    expect(list.text).toContain("<blockquote>1 ");
  });

  it("a redraw whose edit Telegram refuses goes out as a new message, never dropped", async () => {
    const { telegram, bridge, tap } = rig();
    await store.update(() => ({
      schedules: [sample({ id: "a0000001" }), sample({ id: "a0000002", instruction: "second", next: clock + 2 * MIN })],
      result: true,
    }));
    await bridge.handleUpdate(command("/schedules"));
    const list = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Schedules</b>")) ?? Promise.reject(new Error("no list")));
    await tap(list, "✖ Cancel 1");
    await vi.waitFor(() => expect(list.keyboard.flat()[0]?.text).toBe("✖ Confirm cancel 1"));
    // From now on Telegram refuses every edit of the list (as a message too long, or out of tries in a busy group).
    const edit = telegram.editMessage.bind(telegram);
    telegram.editMessage = (chatId, messageId, html, keyboard) =>
      messageId === list.messageId ? Promise.reject(new TelegramApiError(400, "Bad Request: MESSAGE_TOO_LONG")) : edit(chatId, messageId, html, keyboard);
    await tap(list, "✖ Confirm cancel 1");
    await vi.waitFor(() => expect(saved()).toHaveLength(1));
    const redrawn = await vi.waitFor(
      () => telegram.messages.find((m) => m.messageId !== list.messageId && m.text.includes("<b>Schedules</b>")) ?? Promise.reject(new Error("no redraw")),
    );
    expect(redrawn.text).toContain("(1)");
    expect(redrawn.text).toContain("second");
    expect(redrawn.keyboard.flat().map((b) => b.text)).toEqual(["✖ Cancel 1"]);
  });

  it("shows only this bot's and chat's schedules, and says when there are none", async () => {
    const { telegram, bridge } = rig();
    await store.update((list) => ({ schedules: [...list, { ...sample(), bot: "bot2" }, { ...sample(), id: "0000ffff", chatId: 5 }], result: true }));
    await bridge.handleUpdate(command("/schedules"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("No schedules."));
  });
});

function sample(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: "0123abcd",
    bot: "bot1",
    chatId: CHAT,
    directory: DIRECTORY,
    when: { kind: "interval", minutes: 1, anchor: clock },
    instruction: "run the tests",
    next: clock + MIN,
    created: clock,
    ...overrides,
  };
}

describe("the runner", () => {
  it("starts a due run as a new titled session with the instruction, reported like a run from the phone, once", async () => {
    const { telegram, opencode, runSchedules } = rig();
    await store.update((list) => ({ schedules: [...list, sample()], result: true }));
    clock += MIN + 300;
    await runSchedules();
    const created = opencode.posts.filter((post) => post.url === "/session");
    expect(created).toEqual([{ url: "/session", body: { title: "⏰ run the tests" } }]);
    const prompt = opencode.posts.find((post) => post.url === "/session/{sessionID}/prompt_async");
    expect(prompt?.body).toEqual({ parts: [{ type: "text", text: "run the tests" }] });
    const first = telegram.messages.find((m) => m.text.startsWith("⏰ <b>Scheduled run</b>"));
    expect(first?.text).toBe("⏰ <b>Scheduled run</b> (every minute) in <b>project</b>: run the tests");
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.text.includes("Running"))?.replyTo).toBe(first?.messageId));
    expect(saved()[0]?.next).toBe(clock - 300 + MIN);
    await runSchedules(); // nothing due any more
    expect(opencode.posts.filter((post) => post.url === "/session")).toHaveLength(1);
  });

  it("does not run late what fell due while nothing served the project: tells the phone once", async () => {
    const { telegram, opencode, runSchedules } = rig();
    await store.update((list) => ({ schedules: [...list, sample({ when: { kind: "once", hour: 12, minute: 1 } })], result: true }));
    clock += MIN + LATE_LIMIT_MS + 1;
    await runSchedules();
    await runSchedules();
    expect(opencode.posts.filter((post) => post.url === "/session")).toEqual([]);
    expect(telegram.messages.filter((m) => m.text.includes("Missed"))).toHaveLength(1);
    expect(telegram.messages[0]?.text).toContain("did not run, no OpenCode served the project then: run the tests");
    expect(saved()).toEqual([]); // an /at that was missed is gone
  });
});
