// Scheduled runs end to end on the real OpenCode, on the real clock with a test minute of a few
// seconds (HERMES_TEST_SCHEDULE_MINUTE_MS, lib/schedules/pace.ts: honoured only with the fake
// Telegram on loopback): /every 1m from the phone → a run about every minute, each a new session
// titled "⏰ …" with its Done notice; OpenCode killed and started again → the schedule still runs (it
// lives in the schedules file); /schedules → cancel (two taps) → no more runs; a stranger's /every
// makes nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";
import { MAX_INSTRUCTION } from "../../lib/schedules/schedule.ts";
import { scheduleBotKey } from "../../lib/schedules/store.ts";
import { TEST_MINUTE_ENV, TEST_MINUTE_MS } from "./schedule-minute.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
/** A minute's tick, and room for a loaded machine on top. */
const TICK_WAIT_MS = TEST_MINUTE_MS + 30_000;

// 1.18.33 first, then 1.1.53, then 2.0.15.
const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS].sort((a, b) => (a === "1.18.33" ? -1 : b === "1.18.33" ? 1 : 0));

describe.each<OpencodeVersion>([...VERSIONS, OPENCODE2_VERSION])("scheduled runs on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, TEST_MINUTE_ENV);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  /** The session calls (not OpenCode's title requests) whose messages contain `needle`. */
  const requestsWith = (needle: string) => rig.llm.requests.filter((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle));
  const runMessages = (needle: string) => rig.telegram.messages().filter((m) => m.text.includes("Scheduled run") && m.text.includes(needle));
  const dones = () => rig.telegram.messages().filter((m) => /<b>Done<\/b>/.test(m.text));
  const schedulesFile = () => path.join(rig.opencode.root, "xdg-state", "opencode-hermes", "schedules.json");
  const saved = () => (fs.existsSync(schedulesFile()) ? JSON.parse(fs.readFileSync(schedulesFile(), "utf8")).schedules : []);

  /** The run after `count` runs: its first message, its LLM request (a fresh session: one user message), its Done notice. */
  async function nthRun(needle: string, count: number): Promise<{ message: SentMessage; at: number }> {
    const message = await pollUntil(() => runMessages(needle)[count], { timeoutMs: TICK_WAIT_MS, what: `scheduled run ${count + 1} of ${needle}` });
    const at = Date.now();
    const request = await pollUntil(() => requestsWith(needle)[count], { timeoutMs: 30_000, what: `the LLM request of run ${count + 1}` });
    expect((request.messages ?? []).filter((m: any) => m.role === "user")).toHaveLength(1);
    // A short run may show no progress (nothing to show for 3 s): its Done notice is what every run gets.
    await pollUntil(() => dones().length > count || undefined, { timeoutMs: 30_000, what: `the Done notice of run ${count + 1}` });
    return { message, at };
  }

  it(
    "/every 1m: a new session about every minute with its Done notice; it survives a restart of OpenCode; cancelled, it runs no more",
    async () => {
      const needle = `tick-${version.replaceAll(".", "-")}`;
      const command = rig.telegram.sendText(DEFAULT_CHAT_ID, `/every 1m ${needle}`);
      const answer = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 20_000, what: "the answer to /every" });
      expect(answer.text).toContain(`every minute, in <b>project</b>: ${needle}`);
      expect(answer.text).toContain("Next run:");
      expect(fs.statSync(schedulesFile()).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(schedulesFile())).mode & 0o777).toBe(0o700);
      expect(saved()).toHaveLength(1);

      const first = await nthRun(needle, 0);
      const second = await nthRun(needle, 1);
      // About every minute (the machine is shared and loaded: the timer and the poll add seconds).
      expect(second.at - first.at).toBeGreaterThan(TEST_MINUTE_MS * 0.75);
      expect(second.at - first.at).toBeLessThan(TEST_MINUTE_MS + 20_000);
      expect(requestsWith(needle)).toHaveLength(2);

      // OpenCode killed and started again (its world, and so the schedules file, kept): the schedule still runs.
      await rig.opencode.kill();
      await rig.opencode.start();
      await nthRun(needle, 2);

      // /schedules → Cancel → Confirm: no more runs.
      const list = rig.telegram.sendText(DEFAULT_CHAT_ID, "/schedules");
      const shown = await rig.telegram.waitForMessage((m) => m.replyToMessageId === list.messageId, { timeoutMs: 20_000, what: "the /schedules list" });
      expect(shown.text).toContain(`every minute · <b>project</b> · next`);
      expect(shown.text).toMatch(/times are this machine's \(.*UTC[+−]\d\d:\d\d\)/);
      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(shown, "✖ Cancel 1"));
      expect(saved()).toHaveLength(1);
      const confirm = await pollUntil(() => rig.telegram.buttons(shown).find((b) => b.text === "✖ Confirm cancel 1"), { what: "the confirm button" });
      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(shown, confirm.text));
      await pollUntil(() => saved().length === 0 || undefined, { what: "the schedule removed from the file" });
      const runsThen = runMessages(needle).length;
      // The signal: a schedule made after the cancel runs a minute later, after the cancelled one's next tick was due.
      const later = `later-${version.replaceAll(".", "-")}`;
      const again = rig.telegram.sendText(DEFAULT_CHAT_ID, `/every 1m ${later}`);
      await rig.telegram.waitForMessage((m) => m.replyToMessageId === again.messageId, { timeoutMs: 20_000, what: "the answer to the second /every" });
      await pollUntil(() => runMessages(later)[0], { timeoutMs: TICK_WAIT_MS, what: "the run of the schedule made after the cancel" });
      expect(runMessages(needle)).toHaveLength(runsThen);
      expect(requestsWith(needle)).toHaveLength(runsThen);
    },
    TICK_WAIT_MS * 4 + 120_000,
  );

  // Issue 39: the file's limit (1,000,000 bytes) is below 100 schedules of 4,000 characters in UTF-8.
  it.runIf(version === "1.18.33")(
    "with long Chinese schedules filling the file, /every is refused saying so, and /schedules still lists them all",
    async () => {
      const long = "测".repeat(MAX_INSTRUCTION - 8);
      const bot = scheduleBotKey(rig.telegram.token, rig.telegram.apiRoot.replace(/\/+$/, ""));
      const week = 7 * 24 * 60;
      const seeded = Array.from({ length: 81 }, (_, n) => ({
        id: (0x39000000 + n).toString(16),
        bot,
        chatId: DEFAULT_CHAT_ID,
        directory: rig.opencode.directory,
        when: { kind: "interval", minutes: week, anchor: Date.now() },
        instruction: `${n} ${long}`,
        next: Date.now() + week * 60_000,
        created: Date.now(),
      }));
      fs.mkdirSync(path.dirname(schedulesFile()), { recursive: true, mode: 0o700 });
      fs.writeFileSync(schedulesFile(), `${JSON.stringify({ version: 1, schedules: seeded }, null, 2)}\n`, { mode: 0o600 });
      const before = fs.readFileSync(schedulesFile());
      try {
        const command = rig.telegram.sendText(DEFAULT_CHAT_ID, `/every 1h 82 ${long}`);
        const answer = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 20_000, what: "the answer to /every" });
        expect(answer.text).toContain("Could not save the schedule (the schedules file is full");
        expect(fs.readFileSync(schedulesFile()).equals(before)).toBe(true);
        const list = rig.telegram.sendText(DEFAULT_CHAT_ID, "/schedules");
        const shown = await rig.telegram.waitForMessage((m) => m.replyToMessageId === list.messageId, { timeoutMs: 20_000, what: "the /schedules list" });
        expect(shown.text).toContain("<b>Schedules</b> (81)");
      } finally {
        fs.rmSync(schedulesFile(), { force: true });
      }
    },
  );

  it("a stranger's /every creates nothing and gets no answer", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/every 1m stranger-instruction-S1", { from: STRANGER });
    await sleep(1_500);
    expect(rig.telegram.messages().filter((m) => m.replyToMessageId === command.messageId)).toEqual([]);
    expect(JSON.stringify(saved())).not.toContain("stranger-instruction-S1");
  });
});

// In a supergroup (the fake enforces Telegram's flood limits): the answer, a run with its Done, the
// list and its cancel; Telegram never had to refuse a message.
describe("scheduled runs in a supergroup on OpenCode 1.18.33", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", TEST_MINUTE_ENV, undefined, { chat: "supergroup" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    "/every 1m runs with its Done notice, /schedules cancels it, within the group's flood limits",
    async () => {
      const command = rig.telegram.sendText(rig.chatId, "/every 1m group-tick");
      const answer = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 20_000, what: "the answer to /every" });
      expect(answer.text).toContain("every minute, in <b>project</b>: group-tick");
      const run = await pollUntil(() => rig.telegram.messages().find((m) => m.text.includes("Scheduled run") && m.text.includes("group-tick")), {
        timeoutMs: TICK_WAIT_MS,
        what: "the scheduled run",
      });
      expect(run.chatId).toBe(rig.chatId);
      await pollUntil(() => rig.telegram.messages().find((m) => /<b>Done<\/b>/.test(m.text)), { timeoutMs: 30_000, what: "its Done notice" });
      const list = rig.telegram.sendText(rig.chatId, "/schedules");
      const shown = await rig.telegram.waitForMessage((m) => m.replyToMessageId === list.messageId, { timeoutMs: 20_000, what: "the list" });
      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(shown, "✖ Cancel 1"));
      const confirm = await pollUntil(() => rig.telegram.buttons(shown).find((b) => b.text === "✖ Confirm cancel 1"), { what: "the confirm button" });
      expect(await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(shown, confirm.text))).toMatchObject({ text: "Cancelled" });
      await pollUntil(() => (rig.telegram.buttons(shown).length === 0 ? true : undefined), { what: "the list without schedules" });
      expect(rig.telegram.flood.rejected).toBe(0);
    },
    TICK_WAIT_MS + 120_000,
  );
});
