// The whole loop, offline, for `npm run demo` and `npm run screenshots`: the real OpenCode 1.18.33
// with Hermes loaded from plugin.ts, the scripted LLM and the fake Telegram. One run in a git
// project: the agent writes its todo list, works (live progress on the phone), asks a question,
// reads and edits src/api.ts (a permission with its diff), runs the tests, and answers in Markdown:
// the Done notice shows the answer formatted, the files it changed, and the whole diff as a file.
// The caller taps (or lets the user tap) through hooks, and sees each step as it comes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type SentMessage } from "./fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "./mock-llm.ts";
import { startOpencode, type OpencodeServer } from "./opencode.ts";

const PLUGIN = path.resolve(import.meta.dirname, "../../plugin.ts");

export const LOOP_QUESTION = {
  header: "Cache",
  question: "Which cache should I put in front of `getUser()`?",
  options: [
    { label: "Redis", description: "shared by every instance" },
    { label: "SQLite", description: "one file, no server" },
    { label: "In-memory", description: "simplest, lost on restart" },
  ],
};

const API_BEFORE = `export async function getUser(id: string) {
  return db.users.find(id);
}
`;

const API_AFTER = `export async function getUser(id: string) {
  const cached = await cache.get(\`user:\${id}\`);
  if (cached) return cached;
  const user = await db.users.find(id);
  await cache.set(\`user:\${id}\`, user, { ttl: 300 });
  return user;
}
`;

/** What the agent next does with each cache, in the answer's last line. */
const NEXT_STEP: Record<string, string> = {
  Redis: "set `REDIS_URL` in production",
  SQLite: "keep `cache.db` out of git",
  "In-memory": "mind that a restart empties it",
};

/** The agent's answer, for the cache the phone picked (the scripted LLM picks it from the question's answer). */
export function loopAnswer(cache: string): string {
  return [
    "## Cache wired in",
    "",
    `\`getUser()\` now reads through **${cache}** before it asks the database.`,
    "",
    "- a hit skips the query",
    "- entries expire after _5 minutes_",
    "",
    "```ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the agent's answer quotes TypeScript
    "const cached = await cache.get(`user:${id}`);",
    "```",
    "",
    `All 14 tests pass. Next: ${NEXT_STEP[cache] ?? "deploy it"}.`,
  ].join("\n");
}

export const LOOP_ANSWER = loopAnswer("Redis");

function todos(...statuses: string[]) {
  const items = ["Pick a cache", "Cache getUser()", "Run the tests"].map((content, index) => ({ content, status: statuses[index], priority: "high" }));
  return { tool: "todowrite", args: { todos: items } };
}

export interface LoopHooks {
  /** The question is on the phone: the label to tap. */
  question(message: SentMessage, labels: string[]): Promise<string>;
  /** The permission is on the phone: the button to tap ("Allow once", "Reject", …). */
  permission(message: SentMessage): Promise<string>;
  /** Each message as it first shows on the phone (narration). */
  shown?(message: SentMessage): void;
}

export interface LoopWorld {
  telegram: FakeTelegram;
  llm: MockLlm;
  opencode: OpencodeServer;
  chatId: number;
  /** The project the run works in (a git repository named acme-api). */
  directory: string;
  stop(): Promise<void>;
}

/**
 * `directory`: where the project goes (made afresh; the phone shows its path in the permission's
 * diff, which the screenshots write as a fixed one); default a new temporary acme-api folder.
 * `telegram`: the fake's options (rich messages for the rich picture).
 */
export async function startLoopWorld(options: { directory?: string; telegram?: FakeTelegramOptions } = {}): Promise<LoopWorld> {
  const telegram = await startFakeTelegram(options.telegram);
  const llm = await startMockLlm();
  const opencode = await startOpencode({
    version: "1.18.33",
    llmBaseURL: llm.baseURL,
    plugins: [PLUGIN],
    permission: { edit: "ask", bash: "allow" },
    warmup: false,
    env: {
      HERMES_TELEGRAM_TOKEN: telegram.token,
      HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
      HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
      HERMES_DONE_AFTER: "1s",
    },
  });
  // OpenCode reports a run's changed files only in a git project: made one before its instance
  // starts, with the harness' project config (the plugin, the scripted model, the permissions).
  const directory = options.directory ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-loop-")), "acme-api");
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(path.join(directory, "src"), { recursive: true });
  fs.copyFileSync(path.join(opencode.directory, "opencode.json"), path.join(directory, "opencode.json"));
  fs.writeFileSync(path.join(directory, "src", "api.ts"), API_BEFORE);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=demo@example.com", "-c", "user.name=Demo", ...args], { cwd: directory, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "start");
  return {
    telegram,
    llm,
    opencode,
    chatId: DEFAULT_CHAT_ID,
    directory,
    async stop() {
      await opencode.stop();
      await llm.close();
      await telegram.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Runs the loop to the Done notice and its diff file; resolves with them. */
export async function runWholeLoop(world: LoopWorld, hooks: LoopHooks): Promise<{ done: SentMessage; diff: SentMessage }> {
  const { telegram, opencode } = world;
  const seen = new Set<number>();
  const watcher = setInterval(() => {
    for (const message of telegram.messages(world.chatId))
      if (!seen.has(message.messageId)) {
        seen.add(message.messageId);
        hooks.shown?.(message);
      }
  }, 100);
  try {
    const session = await opencode.createSession({ title: "Add a cache to the API", directory: world.directory });
    await opencode.prompt(
      session.id,
      directive({
        ...todos("in_progress", "pending", "pending"),
        then: [
          { tool: "bash", args: { command: "sleep 2 && ls src", description: "look at the project" } },
          { tool: "question", args: { questions: [LOOP_QUESTION] } },
          todos("completed", "in_progress", "pending"),
          { tool: "read", args: { filePath: "src/api.ts" } },
          { tool: "edit", args: { filePath: "src/api.ts", oldString: API_BEFORE, newString: API_AFTER } },
          todos("completed", "completed", "in_progress"),
          { tool: "bash", args: { command: "sleep 1 && echo '14 tests passed'", description: "run the tests" } },
          todos("completed", "completed", "completed"),
          { text: LOOP_ANSWER, byAnswer: Object.fromEntries(LOOP_QUESTION.options.map((option) => [option.label, loopAnswer(option.label)])) },
        ],
      }),
      { directory: world.directory },
    );
    const question = await telegram.waitForMessage((m) => m.text.includes("Which cache"), { timeoutMs: 60_000, what: "the question on the phone" });
    await telegram.tapButton(
      question,
      await hooks.question(
        question,
        LOOP_QUESTION.options.map((option) => option.label),
      ),
    );
    const permission = await telegram.waitForMessage((m) => telegram.buttons(m).some((b) => b.text === "Allow once"), {
      timeoutMs: 60_000,
      what: "the permission on the phone",
    });
    await telegram.tapButton(permission, await hooks.permission(permission));
    const done = await telegram.waitForMessage((m) => m.text.includes("<b>Done</b>"), { timeoutMs: 60_000, what: "the Done notice" });
    const diff = await telegram.waitForMessage((m) => m.document?.filename === "changes.diff", { timeoutMs: 30_000, what: "changes.diff" });
    // The progress message becomes its one-line summary once the run has ended.
    await telegram.waitFor(() => telegram.messages(world.chatId).find((m) => /Run finished/.test(m.text) && telegram.buttons(m).length === 0), {
      timeoutMs: 30_000,
      what: "the progress message's last edit",
    });
    for (const message of telegram.messages(world.chatId)) if (!seen.has(message.messageId)) hooks.shown?.(message);
    return { done, diff };
  } finally {
    clearInterval(watcher);
  }
}
