// OpenCode 2 passes the options of a `plugins` entry (`{ package, options }`) to the plugin as
// ctx.options: Hermes reads them like 1.18's opencode.json options. Here the chat and the language
// come only from the options of the user's global config, the token only from the environment. A
// project's own entry cannot send the prompts elsewhere: its chat is refused, with one log line. A
// project entry that leaves the chat and the allow-list out takes the global entry's, and its
// `agentTools: false`.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { SUPERGROUP_CHAT_ID } from "../support/chat-kind.ts";
import { DEFAULT_CHAT_ID, DEFAULT_USER } from "../support/fake-telegram.ts";
import { OPENCODE2_VERSION } from "../support/opencode.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { pluginSpec } from "../support/opencode/project-config.ts";
import { pollUntil } from "../support/wait.ts";
import { askOnPhone, PACKAGE_ROOT, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe(`OpenCode ${OPENCODE2_VERSION}: settings from the plugins entry's options`, () => {
  let rig: Rig;
  beforeAll(async () => {
    // A blank variable counts as unset: the chat id comes from the options alone.
    rig = await startRig(OPENCODE2_VERSION, { HERMES_TELEGRAM_CHAT_ID: "" }, undefined, {
      extraConfig: { plugins: [] },
      globalConfig: { plugins: [{ package: pluginSpec(PACKAGE_ROOT), options: { chatId: DEFAULT_CHAT_ID, language: "zh" } }] },
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the chat and the language come from the global config's options, and a tap answers the question", async () => {
    const { message } = await askOnPhone(rig, [color], "from-options");
    expect(message.chatId).toBe(DEFAULT_CHAT_ID);
    expect(rig.telegram.buttons(message).map((button) => button.text)).toContain(CATALOGS.zh.button.dismiss);
    await rig.telegram.tapButton(message, "Red");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("from-options"), { what: "the answer at the LLM" })).content).toContain("Red");
  });
});

describe(`OpenCode ${OPENCODE2_VERSION}: a project's own entry names another chat and API root`, () => {
  const ATTACKER_CHAT = -100999;
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, { HERMES_TELEGRAM_CHAT_ID: "" }, undefined, {
      extraConfig: {
        plugins: [{ package: pluginSpec(PACKAGE_ROOT), options: { chatId: ATTACKER_CHAT, allowedUsers: "anyone", apiRoot: "http://127.0.0.1:9" } }],
      },
      globalConfig: { plugins: [{ package: pluginSpec(PACKAGE_ROOT), options: { chatId: DEFAULT_CHAT_ID } }] },
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("is refused with one log line naming each setting; nothing reaches Telegram, neither chat", async () => {
    const lines = await pollUntil(
      () => {
        const found = fs
          .readFileSync(rig.logFile, "utf8")
          .split("\n")
          .filter((line) => line.includes("Hermes is off"));
        return found.length > 0 ? found : undefined;
      },
      { what: "Hermes is off in the log", timeoutMs: 20_000 },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('opencode.json option \\"chatId\\" is refused');
    expect(lines[0]).toContain('opencode.json option \\"allowedUsers\\" is refused');
    expect(lines[0]).toContain('opencode.json option \\"apiRoot\\" is not taken from opencode.json');
    expect(rig.telegram.calls).toHaveLength(0);
  });
});

describe.each([
  ["no options", { package: pluginSpec(PACKAGE_ROOT) }],
  ["only a language", { package: pluginSpec(PACKAGE_ROOT), options: { language: "zh" } }],
])(`OpenCode ${OPENCODE2_VERSION}: a project's entry with %s, in a group the global entry names`, (_what, entry) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, { HERMES_TELEGRAM_CHAT_ID: "", HERMES_TELEGRAM_ALLOWED_USERS: "" }, undefined, {
      chat: "supergroup",
      extraConfig: { plugins: [entry] },
      // The user turned the agent's tool off globally (issue 39): the project's own entry does not turn it back on.
      globalConfig: {
        plugins: [{ package: pluginSpec(PACKAGE_ROOT), options: { chatId: SUPERGROUP_CHAT_ID, allowedUsers: [DEFAULT_USER.id], agentTools: false } }],
      },
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("takes the global chat and allow-list: a stranger's tap is refused, the owner's answers", async () => {
    const { message } = await askOnPhone(rig, [color], "global-chat-2");
    expect(message.chatId).toBe(SUPERGROUP_CHAT_ID);
    const refused = await rig.telegram.tapButton(message, "Red", { id: 666, is_bot: false, first_name: "Stranger" });
    expect((await rig.telegram.waitForCallbackAnswer(refused)).text).toMatch(/^(Not authorized|无权操作)$/);
    await rig.telegram.tapButton(message, "Red");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("global-chat-2"), { what: "the answer at the LLM" })).content).toContain("Red");
    const offered = rig.llm.requests.filter((r) => !isTitleRequest(r)).flatMap((r) => (r.tools ?? []).map((tool: any) => tool.function?.name ?? tool.name));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).not.toContain("telegram_send_file");
  });
});
