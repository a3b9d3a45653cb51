import { describe, expect, it, vi } from "vitest";
import { messageLink, renderStatus } from "../../lib/telegram/render/render-status.ts";
import { CHAT, DIRECTORY, OWNER, permission, question, request, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

const command = (text: string, from = OWNER, chat = CHAT) => ({
  update_id: 1,
  message: { message_id: 77, from: { id: from }, chat: { id: chat, type: "private" }, text },
});

describe("Bridge: commands", () => {
  it("/status lists sessions (busy or idle) and what is waiting", async () => {
    const { telegram, bridge, ask, askPermission } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Refactor", directory: DIRECTORY } });
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_1", status: "busy" });
    await ask(request([question({ question: "Which colour?" })]));
    await askPermission(permission());
    await bridge.handleUpdate(command("/status"));
    const status = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Hermes status")) ?? Promise.reject(new Error("no status")));
    expect(status.text).toContain("🟢 busy");
    expect(status.text).toContain("Refactor");
    expect(status.text).toContain("Waiting for you</b> (2)");
    expect(status.text).toContain("❓ Which colour?");
    expect(status.text).toContain("🔐 bash: echo hello");
    expect(status.replyTo).toBe(77);
  });

  it("/pending sends every pending prompt again; the old message loses its buttons and stale taps are refused", async () => {
    const { telegram, bridge, ask, tap, settled } = setup();
    const first = await ask(request());
    await bridge.handleUpdate(command("/pending"));
    const again = await vi.waitFor(
      () =>
        telegram.messages.find((m) => m.messageId !== first.messageId && m.text.includes("Which color?") && m.keyboard.length > 0) ??
        Promise.reject(new Error("not re-sent")),
    );
    await vi.waitFor(() => expect(first.keyboard).toEqual([]));
    expect(first.text).toContain("Sent again below");
    await tap(again, "Red");
    await settled(again, "Answered from Telegram");
  });

  it("/pending: the copy sent again is not edited to what it already shows (a session event that changes nothing on it)", async () => {
    const { telegram, bridge, ask } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Refactor" } });
    const first = await ask(request());
    await bridge.handleUpdate(command("/pending"));
    const again = await vi.waitFor(
      () => telegram.messages.find((m) => m.messageId !== first.messageId && m.keyboard.length > 0) ?? Promise.reject(new Error("not re-sent")),
    );
    await vi.waitFor(() => expect(first.keyboard).toEqual([]));
    // An update without the title (OpenCode's session events need not carry every field): its prompts are refreshed with nothing new to show.
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1" } });
    await runToQuiet(async () => undefined);
    expect(telegram.takeRefusedEdits()).toEqual([]);
    expect(again.edits).toBe(0);
    expect(again.text).toContain("Refactor");
  });

  it("/pending with nothing pending says so", async () => {
    const { telegram, bridge } = setup();
    await bridge.handleUpdate(command("/pending"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toBe("Nothing is waiting for you."));
  });

  it("/help explains, and unknown commands get the help too", async () => {
    const { telegram, bridge } = setup();
    await bridge.handleUpdate(command("/help"));
    await bridge.handleUpdate(command("/whatever"));
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.text.includes("/pending — Send every pending prompt again"))).toHaveLength(2));
  });

  it("ignores /status and /pending from strangers, and commands meant for another bot", async () => {
    const { telegram, bridge, ask } = setup({ allowedUsers: [OWNER] });
    await ask(request());
    bridge.onLead();
    await vi.waitFor(() =>
      expect(telegram.commands.map((c) => c.command)).toEqual([
        "new",
        "sessions",
        "every",
        "at",
        "schedules",
        "model",
        "agent",
        "status",
        "pending",
        "stop",
        "budget",
        "queue",
        "digest",
        "away",
        "undo",
        "voice",
        "commands",
        "compact",
        "fork",
        "history",
        "diff",
        "mcp",
        "help",
        "start",
      ]),
    );
    await runToQuiet(async () => {
      await bridge.handleUpdate(command("/status", 666));
      await bridge.handleUpdate(command("/pending", 666));
      await bridge.handleUpdate(command("/status@some_other_bot"));
    });
    expect(telegram.messages).toHaveLength(1); // only the question itself
    await bridge.handleUpdate(command("/status@hermes_test_bot"));
    await vi.waitFor(() => expect(telegram.messages).toHaveLength(2));
  });

  it("a process that does not poll gives its part of /status@bot (the one that polls checked the address)", async () => {
    const { bridge, ask } = setup();
    await ask(request([question({ question: "Which colour?" })]));
    // No onLead: this process never asked Telegram for the bot's name.
    expect(await bridge.partFor(command("/status@hermes_test_bot"))).toMatchObject({ prompts: [{ kind: "question", summary: "Which colour?" }] });
    expect(await bridge.partFor(command("/status@hermes_test_bot", 666, 666))).toBeUndefined(); // a stranger in their own chat
  });

  it("renders the parts of several processes together, with links in supergroups", () => {
    const text = renderStatus([
      {
        sessions: [{ title: "A", project: "one", busy: false }],
        prompts: [{ kind: "question", summary: "Q1", project: "one", chatId: -1001234, messageId: 5 }],
      },
      { sessions: [{ title: "B", project: "two", busy: true, busyMs: 90_000 }], prompts: [] },
    ]);
    expect(text).toContain("Sessions</b> (2)");
    expect(text).toContain("busy for 1 min 30 s");
    expect(text).toContain('<a href="https://t.me/c/1234/5">Q1</a>');
    expect(messageLink(1001, 5)).toBeUndefined();
  });
});
