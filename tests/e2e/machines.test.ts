// Several machines, one bot each, in one group: two real OpenCode servers (1.18.33 and 1.1.53, one
// per "machine"), each with Hermes on its own bot token, both bots in the same group of the fake
// Telegram. Every message says which machine it comes from; a bare /status is answered by each bot
// for its own machine; /status@<bot> only by that bot; prompts and taps stay with their machine.
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER, type FakeTelegram } from "../support/fake-telegram.ts";
import { shareGroup, type SharedGroup } from "../support/telegram/shared-group.ts";
import { directive } from "../support/mock-llm.ts";
import { sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const GROUP = -1001234567890;
const question = (marker: string) =>
  directive({
    tool: "question",
    args: {
      questions: [
        {
          question: `Deploy? [${marker}]`,
          header: "Deploy",
          options: [
            { label: "Yes", description: "" },
            { label: "No", description: "" },
          ],
        },
      ],
    },
  });

describe("two machines, two bots, one group", () => {
  let alpha: Rig; // HERMES_MACHINE_NAME=alpha-box, OpenCode 1.18.33
  let beta: Rig; // no name set: the host name, because the chat is a group without topics; OpenCode 1.1.53
  let group: SharedGroup;
  const env = { HERMES_TELEGRAM_CHAT_ID: String(GROUP), HERMES_TELEGRAM_ALLOWED_USERS: String(DEFAULT_USER.id) };
  beforeAll(async () => {
    [alpha, beta] = await Promise.all([
      startRig("1.18.33", { ...env, HERMES_MACHINE_NAME: "alpha-box" }, undefined, {
        telegram: { token: "111111:ALPHA-token-abcdefghijklmnopqrst", botUsername: "alpha_hermes_bot" },
      }),
      startRig("1.1.53", env, undefined, { telegram: { token: "222222:BETA-token-abcdefghijklmnopqrstu", botUsername: "beta_hermes_bot" } }),
    ]);
    group = shareGroup(GROUP, [alpha.telegram, beta.telegram]);
    // Each bot polls (it learns its own @username, getMe, when its bridge loads: before it handles its first update).
    await Promise.all(
      [alpha, beta].map((rig) =>
        rig.telegram.waitFor(() => rig.telegram.calls.some((call) => call.method === "getUpdates"), { timeoutMs: 30_000, what: "the long poll" }),
      ),
    );
  }, 180_000);
  afterAll(async () => {
    await Promise.all([alpha?.stop(), beta?.stop()]);
  });

  const said = (bot: FakeTelegram, after: number, what: (text: string) => boolean) =>
    bot
      .messages(GROUP)
      .slice(after)
      .filter((m) => what(m.text));

  it("a bare /status is answered by each bot, for its own machine", async () => {
    const before = [alpha.telegram.messages(GROUP).length, beta.telegram.messages(GROUP).length];
    group.sendText("/status");
    const fromAlpha = await alpha.telegram.waitForMessage((m) => m.chatId === GROUP && m.text.includes("Hermes status"), {
      timeoutMs: 20_000,
      what: "alpha's /status",
    });
    const fromBeta = await beta.telegram.waitForMessage((m) => m.chatId === GROUP && m.text.includes("Hermes status"), {
      timeoutMs: 20_000,
      what: "beta's /status",
    });
    expect(fromAlpha.text.startsWith("🖥 <b>alpha-box</b>\n")).toBe(true);
    expect(fromBeta.text.startsWith(`🖥 <b>${os.hostname()}</b>\n`)).toBe(true);
    await sleep(500);
    expect(alpha.telegram.messages(GROUP).length - before[0]!).toBe(1);
    expect(beta.telegram.messages(GROUP).length - before[1]!).toBe(1);
  });

  it("/status@one_bot is answered by that bot only; /help@other_bot is ignored by this one", async () => {
    const before = [alpha.telegram.messages(GROUP).length, beta.telegram.messages(GROUP).length];
    group.sendText("/status@beta_hermes_bot");
    await beta.telegram.waitFor(() => said(beta.telegram, before[1]!, (text) => text.includes("Hermes status")).length === 1, {
      timeoutMs: 20_000,
      what: "beta's /status",
    });
    group.sendText("/help@alpha_hermes_bot");
    await alpha.telegram.waitFor(() => said(alpha.telegram, before[0]!, (text) => text.includes("Hermes")).length === 1, {
      timeoutMs: 20_000,
      what: "alpha's /help",
    });
    await sleep(1_000);
    expect(said(alpha.telegram, before[0]!, () => true)).toHaveLength(1);
    expect(said(beta.telegram, before[1]!, () => true)).toHaveLength(1);
  });

  it("a prompt goes out from its own machine's bot, labelled, and a tap there answers it", async () => {
    const session = await beta.opencode.createSession();
    await beta.opencode.prompt(session.id, question("on-beta"));
    const message = await beta.telegram.waitForMessage((m) => m.text.includes("[on-beta]") && beta.telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "beta's question",
    });
    expect(message.chatId).toBe(GROUP);
    expect(message.text.startsWith(`🖥 <b>${os.hostname()}</b>\n`)).toBe(true);
    expect(alpha.telegram.messages().some((m) => m.text.includes("[on-beta]"))).toBe(false);
    await beta.telegram.tapButton(message, "Yes");
    const result = await beta.llm.waitForToolResult((r) => r.content.includes("Yes"), { what: "the answer at beta's LLM" });
    expect(result.content).toContain("Yes");
    // The edit keeps the label.
    await beta.telegram.waitFor(
      () => beta.telegram.messages().find((m) => m.messageId === message.messageId && m.text.includes("Answered from Telegram") && m.text.startsWith("🖥 ")),
      { timeoutMs: 20_000, what: "labelled edit" },
    );
  });

  it("in the group, only allowed users act: a stranger's tap and /status change nothing", async () => {
    const session = await alpha.opencode.createSession();
    await alpha.opencode.prompt(session.id, question("on-alpha"));
    const message = await alpha.telegram.waitForMessage((m) => m.text.includes("[on-alpha]") && alpha.telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "alpha's question",
    });
    expect(message.text.startsWith("🖥 <b>alpha-box</b>\n")).toBe(true);
    const stranger = { id: 4242, is_bot: false, first_name: "Stranger" };
    const id = await alpha.telegram.tapButton(message, "No", stranger);
    expect((await alpha.telegram.waitForCallbackAnswer(id)).text).toBe("Not authorized");
    const before = alpha.telegram.messages(GROUP).length;
    group.sendText("/status", { from: stranger });
    await sleep(1_000);
    expect(alpha.telegram.messages(GROUP)).toHaveLength(before);
    expect(await alpha.opencode.pendingQuestions()).toHaveLength(1);
    await alpha.telegram.tapButton(message, "No");
    await alpha.llm.waitForToolResult((r) => r.content.includes("No"), { what: "the owner's answer" });
  });
});
