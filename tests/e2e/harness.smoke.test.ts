// Proves the test harness itself (tests/support) against the real OpenCode binaries, without
// Hermes: the fake Telegram Bot API (raw HTTP and through telegraf), the scripted LLM, and
// `opencode serve` in its hermetic temp world, on every pinned OpenCode version.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Markup, Telegraf } from "telegraf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS, startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { claimViolations } from "../support/telegram/strict-checks.ts";

const E2E_TIMEOUT = 120_000;

async function call(tg: FakeTelegram, method: string, body: unknown = {}, token = tg.token): Promise<{ status: number; body: any }> {
  const res = await fetch(`${tg.apiRoot}/bot${token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await res.json() };
}

describe("fake Telegram Bot API", () => {
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await startFakeTelegram();
  });
  afterAll(() => tg.close());

  it("answers getMe, and 401 / 404 like the real API", async () => {
    const me = await call(tg, "getMe");
    expect(me).toMatchObject({ status: 200, body: { ok: true, result: { id: 123456, is_bot: true } } });
    expect(await call(tg, "getMe", {}, "999:wrong")).toEqual({ status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } });
    expect((await call(tg, "noSuchMethod")).status).toBe(404);
  });

  it("long-polls getUpdates until an update exists, and an offset confirms it", async () => {
    const started = Date.now();
    const poll = call(tg, "getUpdates", { timeout: 10 });
    await new Promise((r) => setTimeout(r, 300));
    const { messageId } = tg.sendText(DEFAULT_CHAT_ID, "/start hello");
    const res = await poll;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const [update] = res.body.result;
    expect(update.message).toMatchObject({ message_id: messageId, text: "/start hello", chat: { id: DEFAULT_CHAT_ID, type: "private" } });
    expect(update.message.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);
    expect((await call(tg, "getUpdates", { offset: update.update_id })).body.result).toHaveLength(1);
    expect((await call(tg, "getUpdates", { offset: update.update_id + 1 })).body.result).toEqual([]);
  });

  it("answers 409 to a second concurrent getUpdates", async () => {
    const first = call(tg, "getUpdates", { timeout: 2 });
    await tg.waitFor(() => tg.calls.some((c) => c.method === "getUpdates" && c.status === 0), { what: "a held getUpdates" });
    const second = await call(tg, "getUpdates", { timeout: 0 });
    expect(second).toEqual({
      status: 409,
      body: { ok: false, error_code: 409, description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" },
    });
    expect((await first).status).toBe(200);
    expect(tg.maxConcurrentGetUpdates).toBe(2);
  });

  it("validates HTML, length, button data and edits like Telegram", async () => {
    const chat_id = DEFAULT_CHAT_ID;
    const bad = await call(tg, "sendMessage", { chat_id, text: "<b>x", parse_mode: "HTML" });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/^Bad Request: can't parse entities: /);
    for (const text of ["a < b", "fish & chips", "<div>x</div>", "<b><i>x</b></i>"]) {
      expect((await call(tg, "sendMessage", { chat_id, text, parse_mode: "HTML" })).status, text).toBe(400);
    }
    // Refused on purpose: claimed, so the strict checks do not fail this test.
    expect(claimViolations(tg, "unparsable entities")).toHaveLength(5);
    const html =
      '<b>Q</b> &lt;tag&gt; &amp; <a href="https://x.y/?a=1&amp;b=2">l</a> <pre><code class="language-ts">x</code></pre> <tg-spoiler>s</tg-spoiler> &#128512;';
    expect((await call(tg, "sendMessage", { chat_id, text: html, parse_mode: "HTML" })).status).toBe(200);
    expect((await call(tg, "sendMessage", { chat_id, text: "x".repeat(4097) })).body.description).toBe("Bad Request: message is too long");
    const keyboard = (data: string) => ({ inline_keyboard: [[{ text: "A", callback_data: data }]] });
    expect((await call(tg, "sendMessage", { chat_id, text: "k", reply_markup: keyboard("x".repeat(65)) })).body.description).toBe(
      "Bad Request: BUTTON_DATA_INVALID",
    );

    const sent = await call(tg, "sendMessage", { chat_id, text: "pick", reply_markup: keyboard("a") });
    const message_id = sent.body.result.message_id;
    const same = await call(tg, "editMessageText", { chat_id, message_id, text: "pick", reply_markup: keyboard("a") });
    expect(same.body.description).toMatch(/^Bad Request: message is not modified/);
    expect(tg.takeRefusedEdits().map((c) => c.method)).toEqual(["editMessageText"]);
    expect((await call(tg, "editMessageText", { chat_id, message_id, text: "picked" })).status).toBe(200);
    const m = tg.messages(chat_id).find((x) => x.messageId === message_id)!;
    expect(m).toMatchObject({ text: "picked", replyMarkup: undefined, deleted: false });
    expect(m.history.map((h) => h.text)).toEqual(["pick", "picked"]);
    expect((await call(tg, "deleteMessage", { chat_id, message_id })).status).toBe(200);
    expect((await call(tg, "editMessageText", { chat_id, message_id, text: "again" })).body.description).toBe("Bad Request: message to edit not found");
  });

  it("injects faults: 429 with retry_after, 500, and a hang that only close() ends", async () => {
    const chat_id = DEFAULT_CHAT_ID;
    tg.setFault({ kind: "429", retryAfter: 3, methods: ["sendMessage"], times: 1 });
    expect((await call(tg, "getMe")).status).toBe(200);
    expect(await call(tg, "sendMessage", { chat_id, text: "a" })).toEqual({
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 3", parameters: { retry_after: 3 } },
    });
    expect((await call(tg, "sendMessage", { chat_id, text: "a" })).status).toBe(200);
    tg.setFault({ kind: "500", times: 1 });
    expect((await call(tg, "getMe")).status).toBe(500);
    const hanging = await startFakeTelegram();
    hanging.setFault({ kind: "hang", methods: ["getMe"] });
    const pending = call(hanging, "getMe").then(
      () => "answered",
      () => "failed",
    );
    await hanging.waitFor(() => hanging.calls.length === 1, { what: "the hanging call" });
    await hanging.close();
    expect(await pending).toBe("failed");
  });

  it("serves a real telegraf bot: launch, keyboard tap, command, multipart sendDocument", async () => {
    const fake = await startFakeTelegram();
    const bot = new Telegraf(fake.token, { telegram: { apiRoot: fake.apiRoot } });
    bot.action(/.+/, (ctx) => ctx.answerCbQuery(`got ${ctx.match[0]}`));
    bot.command("ping", (ctx) => ctx.reply("pong"));
    const launched = bot.launch({ dropPendingUpdates: true });
    launched.catch(() => undefined);
    try {
      await fake.waitFor(() => fake.calls.some((c) => c.method === "getUpdates"), { what: "telegraf polling" });
      await bot.telegram.sendMessage(DEFAULT_CHAT_ID, "Pick one", Markup.inlineKeyboard([Markup.button.callback("Red", "c:red")]));
      const message = await fake.waitForMessage((m) => m.text === "Pick one");
      expect(fake.buttons(message)).toEqual([{ text: "Red", callback_data: "c:red" }]);
      const id = await fake.tapButton(message, "Red");
      expect(await fake.waitForCallbackAnswer(id)).toEqual({ text: "got c:red" });
      await expect(fake.tapButton(message, "Green")).rejects.toThrow(/available: "Red"/);
      fake.sendText(DEFAULT_CHAT_ID, "/ping");
      await fake.waitForMessage((m) => m.text === "pong");
      await bot.telegram.sendDocument(DEFAULT_CHAT_ID, { source: Buffer.from("hello world"), filename: "log.txt" }, { caption: "the log" });
      const doc = await fake.waitForMessage((m) => m.document !== undefined);
      expect(doc.document).toMatchObject({ filename: "log.txt", bytes: 11, content: "hello world", caption: "the log" });
      expect(Buffer.from(doc.document?.data ?? [])).toEqual(Buffer.from("hello world"));
      expect(fake.maxConcurrentGetUpdates).toBe(1);
    } finally {
      bot.stop("test over");
      await fake.close();
    }
  });
});

describe("mock LLM", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(() => llm.close());

  const complete = async (messages: unknown[], extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${llm.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "mock-model", stream: false, messages, tools: [{ type: "function", function: { name: "question" } }], ...extra }),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("follows a directive: tool call, then the `then` steps, then echoes the tool result", async () => {
    const user = {
      role: "user",
      content: [{ type: "text", text: directive({ tool: "bash", args: { command: "ls" }, then: [{ tool: "read", args: { path: "x" } }] }) }],
    };
    const first = (await complete([user])).body.choices[0];
    expect(first.finish_reason).toBe("tool_calls");
    const call1 = first.message.tool_calls[0];
    expect(call1.function).toEqual({ name: "bash", arguments: '{"command":"ls"}' });
    const afterOne = [user, { role: "assistant", tool_calls: [call1] }, { role: "tool", tool_call_id: call1.id, content: "file-a" }];
    const call2 = (await complete(afterOne)).body.choices[0].message.tool_calls[0];
    expect(call2.function.name).toBe("read");
    const afterTwo = [...afterOne, { role: "assistant", tool_calls: [call2] }, { role: "tool", tool_call_id: call2.id, content: "content-x" }];
    expect((await complete(afterTwo)).body.choices[0].message.content).toBe("LLM received: content-x");
    expect(llm.toolResults.map((r) => r.content)).toEqual(["file-a", "content-x"]);
    const title = await complete([{ role: "system", content: "You are a title generator." }, user], { tools: undefined });
    expect(title.body.choices[0].message.content).toBe("Mock title");
    expect((await complete([{ role: "user", content: "hello" }])).body.choices[0].message.content).toBe("ok");
    llm.setFailure({ status: 500, times: 1 });
    expect((await complete([{ role: "user", content: "hello" }])).status).toBe(500);
    expect((await complete([{ role: "user", content: "hello" }])).status).toBe(200);
  });

  it("answers a `tools` step with one turn of parallel calls, then runs `then` once all results are in", async () => {
    const step = {
      tools: [
        { tool: "bash", args: { command: "echo a" } },
        { tool: "bash", args: { command: "echo b" } },
      ],
      then: [
        {
          tools: [
            { tool: "read", args: { path: "x" } },
            { tool: "read", args: { path: "y" } },
          ],
        },
        { text: "done" },
      ],
    };
    const user = { role: "user", content: directive(step) };
    const first = (await complete([user])).body.choices[0];
    expect(first.finish_reason).toBe("tool_calls");
    expect(first.message.tool_calls.map((c: any) => c.function)).toEqual([
      { name: "bash", arguments: '{"command":"echo a"}' },
      { name: "bash", arguments: '{"command":"echo b"}' },
    ]);
    const ids = first.message.tool_calls.map((c: any) => c.id);
    expect(new Set(ids).size).toBe(2);
    const afterOne = [
      user,
      { role: "assistant", tool_calls: first.message.tool_calls },
      { role: "tool", tool_call_id: ids[0], content: "a" },
      { role: "tool", tool_call_id: ids[1], content: "b" },
    ];
    const second = (await complete(afterOne)).body.choices[0].message.tool_calls;
    expect(second.map((c: any) => c.function.arguments)).toEqual(['{"path":"x"}', '{"path":"y"}']);
    const afterTwo = [
      ...afterOne,
      { role: "assistant", tool_calls: second },
      ...second.map((c: any, i: number) => ({ role: "tool", tool_call_id: c.id, content: `r${i}` })),
    ];
    expect((await complete(afterTwo)).body.choices[0].message.content).toBe("done");

    // Streamed: one chunk per call with indexes 0..n-1, then finish_reason tool_calls.
    const res = await fetch(`${llm.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "mock-model", stream: true, messages: [user], tools: [{ type: "function", function: { name: "bash" } }] }),
      signal: AbortSignal.timeout(10_000),
    });
    const chunks = (await res.text())
      .split("\n\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices[0]);
    expect(chunks.flatMap((c) => (c.delta.tool_calls ?? []).map((t: any) => [t.index, t.function.arguments]))).toEqual([
      [0, '{"command":"echo a"}'],
      [1, '{"command":"echo b"}'],
    ]);
    expect(chunks.at(-1).finish_reason).toBe("tool_calls");
  });
});

const colour = {
  question: "Favourite colour?",
  header: "Colour",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe.each(OPENCODE_VERSIONS)("OpenCode %s through the harness (no Hermes plugin)", (version) => {
  let llm: MockLlm;
  let oc: OpencodeServer;
  beforeAll(async () => {
    llm = await startMockLlm();
    const started = Date.now();
    oc = await startOpencode({ version, llmBaseURL: llm.baseURL, plugins: [] });
    console.info(`[smoke] OpenCode ${version} ready (listening + instance warm) in ${Date.now() - started} ms`);
  }, E2E_TIMEOUT);
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
  });

  it(
    "asks a question, takes an HTTP reply, and the LLM receives the answer",
    async () => {
      const session = await oc.createSession();
      expect(session.id).toMatch(/^ses_/);
      await oc.prompt(session.id, directive({ tool: "question", args: { questions: [colour] }, then: [{ text: "All done" }] }));
      const question = await oc.waitForQuestion({ timeoutMs: 60_000 });
      expect(question).toMatchObject({ sessionID: session.id, questions: [{ question: "Favourite colour?", header: "Colour" }] });
      expect(question.id).toMatch(/^que_/);

      const reply = await oc.request("POST", `/question/${question.id}/reply`, { body: { answers: [["Red"]] } });
      expect(reply).toEqual({ status: 200, body: true });
      const result = await llm.waitForToolResult((r) => r.content.includes("Favourite colour?"), { timeoutMs: 30_000 });
      expect(result.content).toContain("Red");
      // A second answer: 1.18.33 says 404 QuestionNotFoundError; 1.1.53 says 200 true and ignores it
      // (it answers 200 to any unknown, answered or other-directory question id, and to /reject too).
      const again = await oc.request("POST", `/question/${question.id}/reply`, { body: { answers: [["Blue"]] } });
      expect(again.status).toBe(version === "1.1.53" ? 200 : 404);
      expect(await oc.pendingQuestions()).toEqual([]);

      // The `then` step ran after the tool result: the assistant's last text is the scripted one.
      const texts = await pollUntil(
        async () => {
          const res = await oc.request<any[]>("GET", `/session/${session.id}/message`);
          const all = res.body.flatMap((m: any) => (m.parts ?? []).filter((p: any) => p.type === "text").map((p: any) => p.text));
          return all.includes("All done") ? all : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the assistant text "All done"', context: () => oc.logs().slice(-3000) },
      );
      expect(texts).toContain("All done");
      expect(llm.userMessages().some((t) => t.includes("HERMES_TEST"))).toBe(true);
    },
    E2E_TIMEOUT,
  );

  it(
    "serves a second project directory as its own instance",
    async () => {
      const other = await oc.addProject("second");
      const session = await oc.createSession({ directory: other });
      await oc.prompt(session.id, directive({ tool: "question", args: { questions: [{ ...colour, question: "Second project?" }] } }), { directory: other });
      const question = await oc.waitForQuestion({ directory: other, timeoutMs: 60_000 });
      expect(await oc.pendingQuestions()).toEqual([]); // not visible from the first project
      const wrongDirectory = await oc.request("POST", `/question/${question.id}/reply`, { body: { answers: [["Green"]] } });
      expect(wrongDirectory.status).toBe(version === "1.1.53" ? 200 : 404); // 1.1.53: 200, but a no-op
      expect(await oc.pendingQuestions({ directory: other })).toHaveLength(1);
      expect((await oc.request("POST", `/question/${question.id}/reply`, { body: { answers: [["Blue"]] }, directory: other })).status).toBe(200);
      const result = await llm.waitForToolResult((r) => r.content.includes("Second project?"), { timeoutMs: 30_000 });
      expect(result.content).toContain("Blue");
      expect(result.content).not.toContain("Green");
    },
    E2E_TIMEOUT,
  );
});

/**
 * What a plugin's `event` hook receives, measured with this probe (a default-exported function
 * in a .ts file, loaded through a file:// URL in `plugin`):
 * - 1.18.33: probe.init, session.created, session.updated, message.updated, message.part.updated,
 *   session.status, session.diff, plugin.added, catalog.updated, reference.updated,
 *   question.asked, integration.updated, question.replied, message.part.delta, session.idle.
 * - 1.1.53: probe.init, session.created, session.updated, message.updated, message.part.updated,
 *   session.status, session.diff, question.asked, question.replied, session.idle.
 * Both deliver `question.asked` ({ id, sessionID, questions, tool }) and `question.replied`
 * ({ sessionID, requestID, answers }) to the hook, with the same payload shape.
 */
describe.each(OPENCODE_VERSIONS)("OpenCode %s loads a throwaway plugin", (version) => {
  let llm: MockLlm;
  let oc: OpencodeServer;
  let dir: string;
  let eventsFile: string;

  const events = (): Array<{ type: string; properties?: any }> =>
    existsSync(eventsFile)
      ? readFileSync(eventsFile, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hermes-probe-"));
    eventsFile = join(dir, "events.jsonl");
    const pluginFile = join(dir, "probe-plugin.ts");
    writeFileSync(
      pluginFile,
      [
        'import { appendFileSync } from "node:fs";',
        `const OUT = ${JSON.stringify(eventsFile)};`,
        "export default async function probe(input: { directory: string }) {",
        '  appendFileSync(OUT, JSON.stringify({ type: "probe.init", properties: { directory: input.directory } }) + "\\n");',
        "  return {",
        "    event: async ({ event }: { event: { type: string; properties?: unknown } }) => {",
        '      const keep = event.type.startsWith("question.");',
        '      appendFileSync(OUT, JSON.stringify(keep ? event : { type: event.type }) + "\\n");',
        "    },",
        "  };",
        "}",
        "",
      ].join("\n"),
    );
    llm = await startMockLlm();
    oc = await startOpencode({ version, llmBaseURL: llm.baseURL, plugins: [pluginFile] });
  }, E2E_TIMEOUT);
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "creates the plugin for the project instance and feeds its event hook",
    async () => {
      expect(events()[0]).toEqual({ type: "probe.init", properties: { directory: oc.directory } });
      const session = await oc.createSession();
      await oc.prompt(session.id, directive({ tool: "question", args: { questions: [colour] } }));
      const question = await oc.waitForQuestion({ timeoutMs: 60_000 });
      await oc.request("POST", `/question/${question.id}/reply`, { body: { answers: [["Blue"]] } });
      await llm.waitForToolResult((r) => r.content.includes("Blue"), { timeoutMs: 30_000 });
      await pollUntil(() => events().some((e) => e.type === "session.idle"), { timeoutMs: 30_000, what: "session.idle at the plugin" });
      const types = events().map((e) => e.type);
      console.info(`[smoke] OpenCode ${version} plugin event types: ${[...new Set(types)].join(", ")}`);
      expect(types).toContain("session.created");
      const asked = events().find((e) => e.type === "question.asked");
      expect(asked?.properties).toMatchObject({ id: question.id, sessionID: session.id, questions: [{ question: "Favourite colour?" }] });
      const replied = events().find((e) => e.type === "question.replied");
      expect(replied?.properties).toMatchObject({ sessionID: session.id, requestID: question.id, answers: [["Blue"]] });
    },
    E2E_TIMEOUT,
  );
});
