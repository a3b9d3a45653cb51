import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Bridge } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { CHAT, DIRECTORY, FakeOpencode, OWNER, question, request, setup } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

afterEach(() => vi.useRealTimers());

describe("Bridge: questions", () => {
  it("delivers a question once even when two instances report it, and a tap answers it", async () => {
    const { telegram, opencode, bridge, tap, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: req });
    expect(telegram.messages).toHaveLength(1);
    expect(message.text).toContain("Which color?");
    expect(message.text).toContain("warm");
    expect(message.keyboard.flat().map((b) => b.text)).toEqual(["Red", "Blue", "Type an answer", "Dismiss", "⏹ Stop"]);

    await tap(message, "Blue");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts).toEqual([{ url: "/question/{requestID}/reply", path: { requestID: req.id }, body: { answers: [["Blue"]] } }]);
    expect(message.text).toContain("→ Blue");
    expect(telegram.callbackAnswers[0]?.text).toBe("Chosen: Blue");
  });

  it("multiple choice toggles with ✅ and sends on Done", async () => {
    const { telegram, opencode, tap, ask, settled } = setup();
    const req = request([question({ multiple: true, header: "Sizes", question: "Which sizes?", options: [{ label: "S", description: "" }, { label: "M", description: "" }, { label: "L", description: "" }] })]);
    const message = await ask(req);
    await tap(message, "L");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("✅ L"));
    await tap(message, "S");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("✅ S"));
    await tap(message, "✅ L"); // untick
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("L"));
    await tap(message, "M");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("✅ M"));
    expect(opencode.posts).toHaveLength(0);
    await tap(message, "Done");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ answers: [["S", "M"]] });
    expect(telegram.messages).toHaveLength(1);
  });

  it("Done with nothing ticked is refused and nothing is sent", async () => {
    const { telegram, opencode, tap, ask } = setup();
    const message = await ask(request([question({ multiple: true })]));
    await tap(message, "Done");
    expect(telegram.callbackAnswers.at(-1)?.text).toMatch(/at least one/);
    expect(opencode.posts).toHaveLength(0);
  });

  it("several questions: nothing is sent until every one is answered, in order", async () => {
    const { opencode, tap, ask, settled } = setup();
    const req = request([question(), question({ header: "Sizes", question: "Which sizes?", multiple: true, options: [{ label: "S", description: "" }, { label: "L", description: "" }] })]);
    const message = await ask(req);
    expect(message.text).toContain("1/2 · Color");
    await tap(message, "Red");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toEqual(["S", "L", "Done", "Type an answer", "Dismiss", "⏹ Stop"]));
    expect(opencode.posts).toHaveLength(0);
    expect(message.text).toContain("→ Red");
    await tap(message, "S");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("✅ S"));
    await tap(message, "Done");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ answers: [["Red"], ["S"]] });
  });

  it("a tap on an earlier question's button after it moved on is refused", async () => {
    const { telegram, opencode, bridge, ask } = setup();
    const req = request([question(), question({ header: "Second" })]);
    const message = await ask(req);
    const redData = telegram.button(message, "Red").callback_data;
    for (const id of ["a", "b"]) {
      await bridge.handleUpdate({ update_id: 1, callback_query: { id, from: { id: OWNER }, data: redData, message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } } } });
    }
    await vi.waitFor(() => expect(telegram.callbackAnswers).toHaveLength(2));
    expect(telegram.callbackAnswers[1]?.text).toMatch(/no longer open/);
    expect(opencode.posts).toHaveLength(0);
  });

  it("free text: 'Type an answer' arms a force reply, and the reply (split in two) becomes the answer", async () => {
    const { opencode, tap, ask, say, settled, forceReply } = setup();
    const message = await ask(request());
    await tap(message, "Type an answer");
    const prompt = await forceReply();
    expect(prompt.replyTo).toBe(message.messageId);
    await say("first part of a long answer", prompt.messageId);
    await say("second part");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ answers: [["first part of a long answer\nsecond part"]] });
    expect(prompt.deleted).toBe(true);
  });

  it("free text is not offered when custom is false", async () => {
    const { ask } = setup();
    const message = await ask(request([question({ custom: false })]));
    expect(message.keyboard.flat().map((b) => b.text)).toEqual(["Red", "Blue", "Dismiss", "⏹ Stop"]);
  });

  it("an answer given in the terminal edits the message and removes the buttons", async () => {
    const { opencode, bridge, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: req.id, answers: [["Red"]] });
    await settled(message, "Answered in the terminal");
    expect(message.text).toContain("→ Red");
    expect(opencode.posts).toHaveLength(0);
  });

  it("a dismissal in the terminal edits the message", async () => {
    const { bridge, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    bridge.handleEvent(DIRECTORY, { type: "question.rejected", sessionID: "ses_1", requestID: req.id });
    await settled(message, "Dismissed in the terminal");
  });

  it("our own reply echoing back as question.replied still reads 'from Telegram'", async () => {
    const { opencode, bridge, tap, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    const original = opencode.request.bind(opencode);
    opencode.request = async (method, url, options) => {
      if (method === "POST") bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: req.id, answers: [["Red"]] });
      return original(method, url, options);
    };
    await tap(message, "Red");
    await settled(message, "Answered from Telegram");
  });

  it("Dismiss needs a second tap on Confirm before the question is rejected", async () => {
    const { opencode, tap, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    await tap(message, "Dismiss");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("Confirm"));
    expect(message.text).toContain("Tap <b>Confirm</b>");
    expect(opencode.posts).toHaveLength(0);
    await tap(message, "Confirm");
    await settled(message, "Dismissed from Telegram");
    expect(opencode.posts).toEqual([{ url: "/question/{requestID}/reject", path: { requestID: req.id } }]);
  });

  it("choosing an option after Dismiss disarms it", async () => {
    const { opencode, tap, ask, settled } = setup();
    const message = await ask(request());
    await tap(message, "Dismiss");
    await vi.waitFor(() => expect(message.keyboard.flat().map((b) => b.text)).toContain("Confirm"));
    await tap(message, "Red");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.url).toBe("/question/{requestID}/reply");
  });

  it("expires after the TTL: the question is rejected and the message says so", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { opencode, bridge, telegram } = setup({ ttlMs: 60_000 });
    const req = request();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: req });
    await vi.advanceTimersByTimeAsync(10);
    const message = telegram.messages[0]!;
    await vi.advanceTimersByTimeAsync(59_000);
    expect(opencode.posts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(opencode.posts).toEqual([{ url: "/question/{requestID}/reject", path: { requestID: req.id } }]);
    expect(message.text).toContain("Expired");
    expect(message.keyboard).toEqual([]);
  });

  it("ignores taps from users who are not allowed, answering 'Not authorized'", async () => {
    const { telegram, opencode, tap, ask } = setup({ allowedUsers: [OWNER] });
    const message = await ask(request());
    await tap(message, "Red", 666);
    expect(telegram.callbackAnswers.at(-1)).toEqual({ id: "cb1", text: "Not authorized", alert: true });
    expect(opencode.posts).toHaveLength(0);
    expect(message.keyboard.length).toBeGreaterThan(0);
  });

  it("ignores typed answers from strangers", async () => {
    const { opencode, tap, ask, say, forceReply } = setup({ allowedUsers: [OWNER] });
    const message = await ask(request());
    await tap(message, "Type an answer");
    const prompt = await forceReply();
    await say("intruder", prompt.messageId, 666);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(opencode.posts).toHaveLength(0);
  });

  it("a tap on a finished prompt answers 'no longer pending' and strips the stale keyboard", async () => {
    const { telegram, bridge, tap, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    const stale = { ...message, keyboard: message.keyboard };
    bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: req.id, answers: [["Red"]] });
    await settled(message, "Answered in the terminal");
    message.keyboard = stale.keyboard; // as if the edit never reached this phone
    await tap(message, "Blue");
    expect(telegram.callbackAnswers.at(-1)?.text).toBe("This is no longer pending");
    await vi.waitFor(() => expect(message.keyboard).toEqual([]));
  });

  it("a reply that 404s means answered elsewhere: no longer pending", async () => {
    const { opencode, tap, ask, settled } = setup();
    opencode.replyStatus = 404;
    const message = await ask(request());
    await tap(message, "Red");
    await settled(message, "No longer pending");
  });

  it("a reply that keeps failing is reported on the phone and the question stays answerable", async () => {
    const { opencode, tap, ask, settled } = setup();
    opencode.replyStatus = 500;
    const message = await ask(request());
    await tap(message, "Red");
    await vi.waitFor(() => expect(message.text).toContain("Could not reach OpenCode"));
    expect(opencode.posts.length).toBe(2); // first try + one retry
    expect(message.keyboard.flat().map((b) => b.text)).toContain("Red");
    opencode.replyStatus = 200;
    await tap(message, "Red");
    await settled(message, "Answered from Telegram");
  });

  it("a disposed instance closes its pending prompts with no buttons left", async () => {
    const { bridge, ask, settled } = setup();
    const message = await ask(request());
    bridge.handleEvent(DIRECTORY, { type: "instance.disposed", directory: DIRECTORY });
    await settled(message, "No longer pending");
  });

  it("detaching the last instance of a directory closes its prompts", async () => {
    const { bridge, link, ask, settled } = setup();
    const message = await ask(request());
    await bridge.detach(link);
    await settled(message, "No longer pending");
  });

  it("re-attaches questions that were already pending when it starts", async () => {
    const telegram = new MemoryTelegram();
    const opencode = new FakeOpencode();
    opencode.pending = [{ id: "que_old", sessionID: "ses_1", questions: [{ question: "Left over?", header: "Old", options: [{ label: "Yes", description: "" }] }] }];
    const bridge = new Bridge({ telegram, registry: new Registry(), logger: pino({ level: "silent" }), access: { chatId: CHAT, allowedUsers: [] }, questionTtlMs: 0 });
    bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode) });
    await vi.waitFor(() => expect(telegram.messages[0]?.text).toContain("Left over?"));
  });

  it("shows the session title from session events, and looks it up when unknown", async () => {
    const { opencode, bridge, ask } = setup();
    opencode.titles.set("ses_1", "Refactor <auth>");
    const message = await ask(request());
    await vi.waitFor(() => expect(message.text).toContain("Refactor &lt;auth&gt;"));
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Renamed" } });
    await vi.waitFor(() => expect(message.text).toContain("Renamed"));
    expect(message.text).toContain("<code>project</code>");
  });

  it("answers /start with the chat id", async () => {
    const { telegram, bridge } = setup();
    await bridge.handleUpdate({ update_id: 1, message: { message_id: 5, from: { id: 77 }, chat: { id: 77, type: "private" }, text: "/start" } });
    expect(telegram.messages[0]?.text).toContain("<code>77</code>");
    expect(telegram.messages[0]?.text).toContain("HERMES_TELEGRAM_CHAT_ID=77");
  });

  it("stop() leaves no live buttons behind", async () => {
    const { bridge, ask, settled } = setup();
    const message = await ask(request());
    await bridge.stop();
    await settled(message, "No longer pending");
  });

  it("claims only updates about its own prompts, so several processes can share one bot", async () => {
    const { telegram, bridge, ask } = setup();
    const message = await ask(request());
    const own = { update_id: 1, callback_query: { id: "own", from: { id: OWNER }, data: telegram.button(message, "Red").callback_data, message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } } } };
    const foreign = { update_id: 2, callback_query: { id: "foreign", from: { id: OWNER }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: 999, chat: { id: CHAT, type: "private" } } } };
    const command = { update_id: 3, message: { message_id: 7, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "/start" } };
    const chatter = { update_id: 4, message: { message_id: 8, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "hello" } };
    expect(await bridge.claimUpdate(foreign)).toBe(false);
    expect(await bridge.claimUpdate(command)).toBe(false);
    expect(await bridge.claimUpdate(chatter)).toBe(false);
    expect(telegram.callbackAnswers).toEqual([]);
    expect(await bridge.claimUpdate(own)).toBe(true);
    expect(telegram.callbackAnswers).toEqual([{ id: "own", text: "Chosen: Red" }]);
  });

  it("answers what nobody claimed: stale taps lose their keyboard, strangers are refused", async () => {
    const { telegram, bridge } = setup({ allowedUsers: [OWNER] });
    const stale = await telegram.sendMessage(CHAT, "old", { keyboard: [[{ text: "Red", callback_data: "h1:ZZZZZZZZ:o:0:0" }]] });
    await bridge.handleUnclaimed({ update_id: 1, callback_query: { id: "s", from: { id: OWNER }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: stale.messageId, chat: { id: CHAT, type: "private" } } } });
    await bridge.handleUnclaimed({ update_id: 2, callback_query: { id: "x", from: { id: 666 }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: stale.messageId, chat: { id: CHAT, type: "private" } } } });
    expect(telegram.callbackAnswers).toEqual([
      { id: "s", text: "This is no longer pending" },
      { id: "x", text: "Not authorized", alert: true },
    ]);
    await vi.waitFor(() => expect(telegram.messages[0]?.keyboard).toEqual([]));
  });

  it("shows Sending… only for a reply slow enough to be noticed", async () => {
    const quick = setup();
    const fast = await quick.ask(request());
    await quick.tap(fast, "Red");
    await quick.settled(fast, "Answered from Telegram");
    expect(fast.edits).toBe(1); // straight to the final state

    const slow = setup();
    const original = slow.opencode.request.bind(slow.opencode);
    slow.opencode.request = async (method, url, options) => {
      if (method === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
      return original(method, url, options);
    };
    const message = await slow.ask(request());
    await slow.tap(message, "Red");
    await vi.waitFor(() => expect(message.text).toContain("Sending your answer"));
    expect(message.keyboard).toEqual([]);
    await slow.settled(message, "Answered from Telegram");
  });
});

