// The agent's Markdown on the phone, end to end on the real OpenCode: a question whose text is
// Markdown shows formatted; a run started from the phone whose answer has a heading, bold, italic,
// inline code, a fenced ts block, a link and a list ends in a Done notice carrying those as
// Telegram entities (no ** or fence left as text); a 12,000-character answer keeps every message
// within Telegram's limit and comes whole as answer.md, a reply to which reaches the session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatKind } from "../support/chat-kind.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import type { SentMessage } from "../support/telegram/types.ts";
import { MAX_TEXT } from "../support/telegram/validate.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const ANSWER = [
  "## Fixed the login flow",
  "",
  "The bug was in **session refresh**: the token was read *before* it was saved. See `refresh<T>()` and [the PR](https://github.com/acme/app/pull/42).",
  "",
  "- moved the read after the save",
  "- added a test",
  "",
  "```ts",
  "const token = await save(session) && read<Token>(session);",
  "```",
].join("\n");

/** About 12,000 characters of Markdown; its last line is what matters. */
const LONG_ANSWER = `# Migration report\n\n${Array.from({ length: 420 }, (_, i) => `- table **t${i}** migrated: \`ok\` ✅`).join("\n")}\n\nNext: *drop the old tables*.`;

function visible(message: SentMessage): string {
  const parsed = parseTelegramHtml(message.text);
  if (!parsed.ok) throw new Error(`invalid HTML in message ${message.messageId}: ${parsed.error}`);
  return parsed.plain;
}

// Every version in a private chat; one in a supergroup (Telegram's flood limits on: answer.md is one more message).
const CASES: Array<{ version: OpencodeVersion; chat: ChatKind }> = [
  ...([...OPENCODE_VERSIONS, OPENCODE2_VERSION] as OpencodeVersion[]).map((version) => ({ version, chat: "private" as ChatKind })),
  { version: OPENCODE2_VERSION, chat: "supergroup" },
];

describe.each(CASES)("the agent's Markdown on the phone, on OpenCode $version in a $chat chat", ({ version, chat }) => {
  let rig: Rig;
  let question: SentMessage;
  let sessionID: string;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "4s" }, undefined, { chat });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("a question whose text is Markdown shows formatted, its option descriptions too", async () => {
    const session = await rig.opencode.createSession();
    sessionID = session.id;
    const questions = [
      {
        question: "Which **database** should `db.ts` use?",
        header: "Database",
        options: [
          { label: "Postgres", description: "*robust*, see [docs](https://www.postgresql.org)" },
          { label: "SQLite", description: "a `file:` URL" },
        ],
      },
    ];
    await rig.opencode.prompt(session.id, directive({ tool: "question", args: { questions }, then: [{ text: "Noted." }] }));
    question = await rig.telegram.waitForMessage((m) => m.text.includes("database") && rig.telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "the question",
    });
    expect(question.text).toContain("Which <b>database</b> should <code>db.ts</code> use?");
    expect(question.text).toContain('<i>robust</i>, see <a href="https://www.postgresql.org">docs</a>');
    expect(visible(question)).not.toContain("**");
    await rig.telegram.tapButton(question, "Postgres");
    await rig.llm.waitForToolResult((r) => r.content.includes("Postgres"), { what: "the answer at the LLM" });
  });

  it("a run started from the phone: the Done notice carries bold, italic, code, a ts block and a link, no Markdown left", async () => {
    await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, what: "the session idle" });
    // A reply to the question's message reaches its session: a run started from the phone always reports its end.
    rig.telegram.sendText(rig.chatId, directive({ text: ANSWER }), { replyTo: question.messageId });
    const done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("login flow"), { timeoutMs: 40_000, what: "Done" });
    expect(done.text).toContain("<b>Fixed the login flow</b>");
    expect(done.text).toContain("<b>session refresh</b>");
    expect(done.text).toContain("<i>before</i>");
    expect(done.text).toContain("<code>refresh&lt;T&gt;()</code>");
    expect(done.text).toContain('<a href="https://github.com/acme/app/pull/42">the PR</a>');
    expect(done.text).toContain('<pre><code class="language-ts">const token = await save(session) &amp;&amp; read&lt;Token&gt;(session);</code></pre>');
    expect(done.text).toContain("• moved the read after the save\n• added a test");
    const shown = visible(done);
    expect(shown).not.toContain("**");
    expect(shown).not.toContain("```");
    expect(shown).not.toContain("## ");
  });

  it("a 12,000-character answer: no message over the limit, the end shown, and answer.md holds it all (a reply to it reaches the session)", async () => {
    expect(LONG_ANSWER.length).toBeGreaterThan(12_000);
    const before = rig.telegram.messages().length;
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ ...toolsOf(version).shell("sleep 5"), then: [{ text: LONG_ANSWER }] }));
    const done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("drop the old tables"), {
      timeoutMs: 60_000,
      what: "Done for the long answer",
    });
    expect(done.text).toContain("Shortened");
    expect(done.text).toContain("• table <b>t419</b> migrated: <code>ok</code> ✅\n\nNext: <i>drop the old tables</i>.");
    const file = await rig.telegram.waitForMessage((m) => m.document?.filename === "answer.md" && m.replyToMessageId === done.messageId, {
      what: "answer.md",
    });
    expect(file.document!.content).toBe(LONG_ANSWER);
    for (const message of rig.telegram.messages().slice(before)) expect(visible(message).length).toBeLessThanOrEqual(MAX_TEXT);
    rig.telegram.sendText(rig.chatId, "now vacuum the database", { replyTo: file.messageId });
    await pollUntil(() => rig.llm.userMessages().some((text) => text.includes("now vacuum the database")), { timeoutMs: 20_000, what: "the reply at the LLM" });
  }, 90_000);
});
