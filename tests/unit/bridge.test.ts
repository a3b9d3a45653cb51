import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Bridge } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { CHAT, DIRECTORY, FakeOpencode, OWNER, question, request, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";
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
    const req = request([
      question({
        multiple: true,
        header: "Sizes",
        question: "Which sizes?",
        options: [
          { label: "S", description: "" },
          { label: "M", description: "" },
          { label: "L", description: "" },
        ],
      }),
    ]);
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
    const req = request([
      question(),
      question({
        header: "Sizes",
        question: "Which sizes?",
        multiple: true,
        options: [
          { label: "S", description: "" },
          { label: "L", description: "" },
        ],
      }),
    ]);
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
      await bridge.handleUpdate({
        update_id: 1,
        callback_query: { id, from: { id: OWNER }, data: redData, message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } } },
      });
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
    await runToQuiet(() => say("intruder", prompt.messageId, 666));
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

  it("a late tap on a message whose buttons an edit already took away is answered, and no edit that changes nothing follows", async () => {
    const { telegram, bridge, ask, settled } = setup();
    const req = request();
    const message = await ask(req);
    const data = telegram.button(message, "Blue").callback_data;
    bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_1", requestID: req.id, answers: [["Red"]] });
    await settled(message, "Answered in the terminal");
    // The phone still showed the buttons; Telegram's copy of the message, sent with the tap, has none.
    await bridge.handleUpdate({
      update_id: 99,
      callback_query: {
        id: "late",
        from: { id: OWNER, first_name: "U" },
        data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    });
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ id: "late", text: "This is no longer pending" });
    await runToQuiet(async () => undefined);
    expect(telegram.takeRefusedEdits()).toEqual([]);
    expect(message.keyboard).toEqual([]);
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
    opencode.pending = [
      { id: "que_old", sessionID: "ses_1", questions: [{ question: "Left over?", header: "Old", options: [{ label: "Yes", description: "" }] }] },
    ];
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger: pino({ level: "silent" }),
      access: { chatId: CHAT, allowedUsers: [] },
      questionTtlMs: 0,
    });
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

  it("answers /start with the chat id: the owner anywhere, once per chat per interval; strangers never (#10 item 3)", async () => {
    const { telegram, bridge } = setup();
    const start = (id: number, from: number, chat: number) =>
      bridge.handleUpdate({
        update_id: id,
        message: { message_id: id, from: { id: from }, chat: { id: chat, type: chat < 0 ? "group" : "private" }, text: "/start" },
      });
    for (let i = 0; i < 10; i++) await start(i + 1, 666 + i, 666 + i); // strangers' private chats
    await start(20, 777, -5); // a stranger in some group
    expect(telegram.messages).toEqual([]);
    await start(21, OWNER, -42); // the owner, in a new group: learns its id
    expect(telegram.messages).toHaveLength(1);
    expect(telegram.messages[0]!.chatId).toBe(-42);
    expect(telegram.messages[0]!.text).toContain("HERMES_TELEGRAM_CHAT_ID=-42");
    await start(22, OWNER, -42); // again at once: not answered twice
    await start(23, OWNER, CHAT);
    expect(telegram.messages.map((m) => m.chatId)).toEqual([-42, CHAT]);
  });

  it("before a chat is configured, /start answers anyone with their chat id", async () => {
    const telegram = new MemoryTelegram();
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger: pino({ level: "silent" }),
      access: { chatId: undefined, allowedUsers: [] },
      questionTtlMs: 0,
      pacing: false,
    });
    await bridge.handleUpdate({ update_id: 1, message: { message_id: 5, from: { id: 77 }, chat: { id: 77, type: "private" }, text: "/start" } });
    await bridge.handleUpdate({ update_id: 2, message: { message_id: 6, from: { id: 77 }, chat: { id: 77, type: "private" }, text: "/start" } });
    expect(telegram.messages).toHaveLength(1);
    expect(telegram.messages[0]?.text).toContain("<code>77</code>");
    expect(telegram.messages[0]?.text).toContain("HERMES_TELEGRAM_CHAT_ID=77");
    await bridge.stop();
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
    const own = {
      update_id: 1,
      callback_query: {
        id: "own",
        from: { id: OWNER },
        data: telegram.button(message, "Red").callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    };
    const foreign = {
      update_id: 2,
      callback_query: { id: "foreign", from: { id: OWNER }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: 999, chat: { id: CHAT, type: "private" } } },
    };
    const command = { update_id: 3, message: { message_id: 7, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "/start" } };
    const chatter = { update_id: 4, message: { message_id: 8, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "hello" } };
    expect(await bridge.claimUpdate(foreign)).toBeUndefined();
    expect(await bridge.claimUpdate(command)).toBeUndefined();
    expect(await bridge.claimUpdate(chatter)).toBeUndefined();
    expect(telegram.callbackAnswers).toEqual([]);
    const claim = await bridge.claimUpdate(own);
    expect(claim).toBeTypeOf("function");
    await claim!();
    expect(telegram.callbackAnswers).toEqual([{ id: "own", text: "Chosen: Red" }]);
  });

  it("claiming a tap does nothing visible: no reply to OpenCode and no acknowledgement until the claim runs (#10 item 7)", async () => {
    const { telegram, opencode, bridge, ask } = setup();
    const message = await ask(request());
    const tap = {
      update_id: 1,
      callback_query: {
        id: "t",
        from: { id: OWNER },
        data: telegram.button(message, "Red").callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    };
    const claim = await runToQuiet(() => bridge.claimUpdate(tap));
    expect(claim).toBeDefined();
    expect(telegram.callbackAnswers).toEqual([]);
    expect(opencode.posts).toEqual([]);
    expect(message.keyboard.length).toBeGreaterThan(0);
    // A claim the leader refused is simply dropped: the prompt stays answerable.
    const again = await bridge.claimUpdate({ ...tap, update_id: 2 });
    await again!();
    await vi.waitFor(() => expect(opencode.posts.map((post) => post.url)).toEqual(["/question/{requestID}/reply"]));
    expect(telegram.callbackAnswers).toEqual([{ id: "t", text: "Chosen: Red" }]);
  });

  it("a tap that races its prompt's sendMessage response is claimed without waiting for Telegram, and acted on once the message id is known", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    class SlowAnswerTelegram extends MemoryTelegram {
      override async sendMessage(chatId: number, html: string, options = {}) {
        const sent = await super.sendMessage(chatId, html, options);
        await held; // Telegram has the message (the user can tap it), its answer is still on the way
        return sent;
      }
    }
    const telegram = new SlowAnswerTelegram();
    const opencode = new FakeOpencode();
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger: pino({ level: "silent" }),
      access: { chatId: CHAT, allowedUsers: [] },
      questionTtlMs: 0,
      pacing: false,
      confirmTimeoutMs: 10_000,
    });
    opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
    bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) });
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request() });
    const message = await vi.waitFor(() => telegram.messages[0] ?? Promise.reject(new Error("not sent")));
    const claim = await bridge.claimUpdate({
      update_id: 1,
      callback_query: {
        id: "early",
        from: { id: OWNER },
        data: telegram.button(message, "Red").callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    });
    expect(claim).toBeDefined(); // decided while the send is still held
    const acting = claim!();
    release();
    await acting;
    await vi.waitFor(() => expect(opencode.posts.map((post) => post.url)).toEqual(["/question/{requestID}/reply"]));
    expect(telegram.callbackAnswers).toEqual([{ id: "early", text: "Chosen: Red" }]);
    await bridge.stop(10);
  });

  it("a tap nobody claimed while a process did not answer keeps its buttons and asks to tap again", async () => {
    const { telegram, bridge } = setup();
    const stale = await telegram.sendMessage(CHAT, "theirs", { keyboard: [[{ text: "Red", callback_data: "h1:ZZZZZZZZ:o:0:0" }]] });
    await runToQuiet(() =>
      bridge.handleUnclaimed(
        {
          update_id: 1,
          callback_query: {
            id: "u",
            from: { id: OWNER },
            data: "h1:ZZZZZZZZ:o:0:0",
            message: { message_id: stale.messageId, chat: { id: CHAT, type: "private" } },
          },
        },
        undefined,
        true,
      ),
    );
    expect(telegram.callbackAnswers).toEqual([{ id: "u", text: "The OpenCode process with this prompt did not answer in time. Tap again in a moment." }]);
    expect(telegram.messages[0]!.keyboard).toHaveLength(1);
  });

  it("answers what nobody claimed: stale taps lose their keyboard, strangers are refused", async () => {
    const { telegram, bridge } = setup({ allowedUsers: [OWNER] });
    const stale = await telegram.sendMessage(CHAT, "old", { keyboard: [[{ text: "Red", callback_data: "h1:ZZZZZZZZ:o:0:0" }]] });
    await bridge.handleUnclaimed({
      update_id: 1,
      callback_query: {
        id: "s",
        from: { id: OWNER },
        data: "h1:ZZZZZZZZ:o:0:0",
        // Telegram sends the message as it has it: with its buttons.
        message: {
          message_id: stale.messageId,
          chat: { id: CHAT, type: "private" },
          reply_markup: { inline_keyboard: [[{ text: "Red", callback_data: "h1:ZZZZZZZZ:o:0:0" }]] },
        },
      },
    });
    await bridge.handleUnclaimed({
      update_id: 2,
      callback_query: { id: "x", from: { id: 666 }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: stale.messageId, chat: { id: CHAT, type: "private" } } },
    });
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
    // OpenCode holds the reply until the phone shows that it is on its way.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    slow.opencode.request = async (method, url, options) => {
      if (method === "POST") await answered;
      return original(method, url, options);
    };
    const message = await slow.ask(request());
    await slow.tap(message, "Red");
    await vi.waitFor(() => expect(message.text).toContain("Sending your answer"));
    expect(message.keyboard).toEqual([]);
    answer();
    await slow.settled(message, "Answered from Telegram");
  });

  it("a title that comes while a reply is on its way: the settled message shows it once, and is not edited again to the same text", async () => {
    const { telegram, opencode, bridge, tap, ask, settled } = setup();
    const original = opencode.request.bind(opencode);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    opencode.request = async (method, url, options) => {
      if (method === "POST") await answered;
      return original(method, url, options);
    };
    const message = await ask(request());
    await tap(message, "Blue");
    // As after a reconnect, when the session's title arrives only now: its prompt, still pending, is to show it.
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_1", title: "Mock title" } });
    answer();
    await settled(message, "Answered from Telegram");
    expect(message.text).toContain("Mock title");
    await runToQuiet(async () => undefined);
    expect(telegram.takeRefusedEdits()).toEqual([]);
  });
});
