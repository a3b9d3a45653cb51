// `npm run demo`: Hermes end to end, offline. The real OpenCode runs with Hermes loaded from
// plugin.ts, a scripted LLM asks one question, a local Telegram emulator plays the phone, and the
// answer flows back to the agent. Interactive in a terminal; picks the first option otherwise.
import path from "node:path";
import readline from "node:readline/promises";
import { sleep } from "../lib/sleep.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type SentMessage } from "../tests/support/fake-telegram.ts";
import { directive, startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../tests/support/opencode.ts";

const PLUGIN = path.resolve(import.meta.dirname, "../plugin.ts");
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text);
const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[22m` : text);

function phoneView(message: SentMessage): string {
  const text = message.text
    .replace(/<b>(.*?)<\/b>/g, (_, inner: string) => bold(inner))
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  const rows: Array<Array<{ text: string }>> = message.replyMarkup?.inline_keyboard ?? [];
  const buttons = rows.map((row) => row.map((button) => `[ ${button.text} ]`).join(" "));
  const lines = [...text.split("\n"), ...(buttons.length ? ["", ...buttons] : [])];
  const width = Math.min(72, Math.max(...lines.map((line) => line.replace(/\x1b\[\d+m/g, "").length)) + 2);
  const border = "─".repeat(width);
  return [`┌${border}┐ 📱 Telegram`, ...lines.map((line) => `│ ${line}`), `└${border}┘`].join("\n");
}

/** What GET /session/:id/message gives, as far as the demo reads it. */
interface StoredMessage {
  info?: { role?: string };
  parts?: Array<{ type?: string; text?: unknown }>;
}

/** The agent's text after the tool call (the scripted LLM echoes what it received). */
async function agentText(opencode: OpencodeServer, sessionID: string, toolResult: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const messages = await opencode.request<StoredMessage[]>("GET", `/session/${sessionID}/message`);
    const texts = (messages.body ?? []).flatMap((m) => (m.info?.role === "assistant" ? (m.parts ?? []) : [])).filter((part) => part.type === "text");
    const last = texts.at(-1)?.text;
    if (typeof last === "string" && last.includes(toolResult.slice(0, 20))) return last;
    await sleep(100);
  }
  return undefined;
}

async function main(): Promise<void> {
  console.log(bold("Hermes demo") + dim(" — real OpenCode, scripted LLM, local Telegram emulator, no network"));
  const telegram = await startFakeTelegram();
  const llm = await startMockLlm();
  console.log(dim("starting OpenCode 1.18.33 with Hermes loaded from plugin.ts …"));
  const opencode = await startOpencode({
    version: "1.18.33",
    llmBaseURL: llm.baseURL,
    plugins: [PLUGIN],
    env: { HERMES_TELEGRAM_TOKEN: telegram.token, HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID), HERMES_TELEGRAM_API_ROOT: telegram.apiRoot },
  });
  try {
    const session = await opencode.createSession();
    const question = {
      header: "Cache backend",
      question: "Which cache backend should I wire into the API?",
      options: [
        { label: "Redis", description: "shared across instances" },
        { label: "SQLite", description: "one file, no server" },
        { label: "In-memory", description: "simplest, lost on restart" },
      ],
    };
    console.log(dim("the agent calls its question tool, and walks away from the terminal …\n"));
    await opencode.prompt(session.id, directive({ tool: "question", args: { questions: [question] } }));
    const message = await telegram.waitForMessage((m) => telegram.buttons(m).length > 0, { timeoutMs: 60_000, what: "the question on the phone" });
    console.log(phoneView(message));

    const options = question.options.map((option) => option.label);
    let choice = options[0]!;
    if (process.stdin.isTTY) {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
      const typed = await rl.question(`\nTap a button: ${options.map((label, index) => `${index + 1}) ${label}`).join("  ")} › `);
      rl.close();
      choice = options[Number(typed) - 1] ?? choice;
    } else {
      console.log(dim(`\n(no terminal: tapping "${choice}" as the phone would)`));
    }
    await telegram.tapButton(message, choice);
    const answered = await telegram.waitFor(() => telegram.messages().find((m) => m.messageId === message.messageId && m.text.includes("Answered")), {
      what: "the answered message",
    });
    console.log(`\n${phoneView(answered)}`);

    const result = await llm.waitForToolResult(() => true, { timeoutMs: 30_000, what: "the tool result" });
    console.log(`\n${bold("The agent received")}: ${result.content}`);
    const lastText = await agentText(opencode, session.id, result.content);
    if (lastText) console.log(`${bold("The agent carries on")}: ${lastText}`);
    console.log(dim("\nNext: create a real bot with @BotFather and follow the README's setup section."));
  } finally {
    await opencode.stop();
    await llm.close();
    await telegram.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
