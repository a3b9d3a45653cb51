// `npm run screenshots`: the pictures of the phone in the README (docs/phone.png) and in
// docs/phone.md's "Rich messages" (docs/phone-rich.png), made from real runs. tests/support/whole-loop.ts drives the real OpenCode 1.18.33 with Hermes, the scripted LLM
// and the fake Telegram through a question, a permission with its diff, live progress and the Done
// notice; the conversation is taken twice (while the permission waits, and when the run is done),
// rendered as a chat page (tests/support/telegram/chat-page.ts) and photographed by a headless
// Chromium (`apt-get install chromium`; CHROMIUM=/path overrides). The rich picture: a fake Bot API
// with rich messages, the agent writing a new 60-line file (the permission as a rich message, its
// whole diff in a collapsible block, drawn closed while it waits and open after) and answering
// with a table (the rich Done notice). Only this script needs Chromium: the tests render the page
// without it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sleep } from "../lib/util/sleep.ts";
import { chatEntries, renderChatPage, type ChatEntry, type ChatSnapshot } from "../tests/support/telegram/chat-page.ts";
import type { RichNode } from "../tests/support/telegram/rich.ts";
import { directive } from "../tests/support/mock-llm.ts";
import { runWholeLoop, startLoopWorld, type LoopWorld } from "../tests/support/whole-loop.ts";
import { screenshotDir, type ScreenshotDir } from "./screenshot-dir.ts";

const OUTPUT = path.resolve(import.meta.dirname, "../docs/phone.png");
const RICH_OUTPUT = path.resolve(import.meta.dirname, "../docs/phone-rich.png");
const WIDTH = 860;
/** Crisp on high-density screens, still small: GitHub shows it at the README's width. */
const SCALE = 1.5;
const CHROMIUM = process.env.CHROMIUM ?? "chromium";

function snapshot(world: LoopWorld, dir: ScreenshotDir): ChatEntry[] {
  return chatEntries(world.telegram.messages(world.chatId), world.telegram.humanMessages(world.chatId)).map((entry) => ({
    ...entry,
    text: dir.shown(entry.text),
    ...(entry.rich ? { rich: entry.rich.map((node) => shownNode(node, dir)) } : {}),
  }));
}

/** A rich message's tree with the project's real path written as the picture shows it. */
function shownNode(node: RichNode, dir: ScreenshotDir): RichNode {
  return { ...node, children: node.children.map((child) => (typeof child === "string" ? dir.shown(child) : shownNode(child, dir))) };
}

function chromium(profile: string, ...args: string[]): string {
  return execFileSync(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--hide-scrollbars",
      `--user-data-dir=${profile}`,
      ...args,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 60_000 },
  );
}

async function main(): Promise<void> {
  // A fresh private directory (scripts/screenshot-dir.ts) each; the picture shows the project under a fixed path.
  for (const shoot of [photograph, photographRich]) {
    const dir = screenshotDir();
    try {
      await shoot(dir);
    } finally {
      dir.remove();
    }
  }
}

const CACHE_TS = [
  "// A read-through cache in front of the database.",
  'import { createClient } from "redis";',
  "",
  "const client = createClient({ url: process.env.REDIS_URL });",
  ...Array.from({ length: 14 }, (_, i) => [
    `export async function cached${i}<T>(key: string, load: () => Promise<T>): Promise<T> {`,
    `  const hit = await client.get(\`c${i}:\${key}\`);`,
    "  if (hit) return JSON.parse(hit) as T;",
    "  const value = await load();",
    `  await client.set(\`c${i}:\${key}\`, JSON.stringify(value), { EX: ${60 * (i + 1)} });`,
    "  return value;",
    "}",
  ]).flat(),
].join("\n");

const RICH_ANSWER = [
  "## Cache added",
  "",
  "`src/cache.ts` puts **Redis** in front of every lookup:",
  "",
  "| lookup | expires | hit rate |",
  "|---|:-:|--:|",
  "| users | 1 min | 92 % |",
  "| orders | 2 min | 81 % |",
  "| prices | 3 min | 97 % |",
  "",
  "```ts",
  "const user = await cached0(id, () => db.users.find(id));",
  "```",
  "",
  "- [x] tests pass",
  "- [ ] set `REDIS_URL` in production",
].join("\n");

/** The rich picture: a write's permission with its whole diff one tap away, then a Done notice with a table. */
async function photographRich(dir: ScreenshotDir): Promise<void> {
  const world = await startLoopWorld({ directory: dir.project, telegram: { richMessages: "supported" } });
  let during: ChatEntry[] = [];
  let done: ChatEntry[] = [];
  try {
    const { telegram, opencode } = world;
    const session = await opencode.createSession({ title: "Cache every lookup", directory: world.directory });
    await opencode.prompt(
      session.id,
      // biome-ignore lint/suspicious/noThenProperty: the scripted LLM's next step, as in tests/support/whole-loop.ts
      directive({ tool: "write", args: { filePath: path.join(world.directory, "src", "cache.ts"), content: CACHE_TS }, then: [{ text: RICH_ANSWER }] }),
      { directory: world.directory },
    );
    const permission = await telegram.waitForMessage((m) => m.rich !== undefined && telegram.buttons(m).some((b) => b.text === "Allow once"), {
      timeoutMs: 60_000,
      what: "the rich permission",
    });
    await sleep(500);
    during = snapshot(world, dir);
    await telegram.tapButton(permission, "Allow once");
    await telegram.waitForMessage((m) => m.rich !== undefined && m.text.includes("Done") && m.text.includes("Cache added"), {
      timeoutMs: 60_000,
      what: "the rich Done notice",
    });
    await sleep(1_500);
    done = snapshot(world, dir);
  } finally {
    await world.stop().catch(() => undefined);
  }
  await shoot(
    dir,
    [
      { title: "A permission: the whole diff one tap away", entries: during },
      { title: "Tapped open, allowed, and done", entries: done, openDetails: true },
    ],
    RICH_OUTPUT,
  );
}

async function photograph(dir: ScreenshotDir): Promise<void> {
  const world = await startLoopWorld({ directory: dir.project });
  let during: ChatEntry[] = [];
  try {
    await runWholeLoop(world, {
      question: async () => "Redis",
      async permission(message) {
        // The progress message catches up with the edit that waits (edited at most every 3 s in a private chat).
        await world.telegram.waitFor(() => world.telegram.messages(world.chatId).find((m) => m.messageId < message.messageId && /api\.ts/.test(m.text)), {
          timeoutMs: 15_000,
          what: "progress showing the edit",
        });
        await sleep(500);
        during = snapshot(world, dir);
        return "Allow once";
      },
    });
  } finally {
    await world.stop().catch(() => undefined);
  }
  const done = snapshot(world, dir);
  await shoot(
    dir,
    [
      { title: "While the agent waits for you", entries: during },
      { title: "When the run is done", entries: done },
    ],
    OUTPUT,
  );
}

/** The chat page of these snapshots, photographed to `output`. */
async function shoot(dir: ScreenshotDir, snapshots: ChatSnapshot[], output: string): Promise<void> {
  const page = renderChatPage(snapshots, "Hermes · the real OpenCode 1.18.33, a scripted LLM").replace(
    "</body>",
    `<script>document.body.dataset.height = String(document.querySelector(".phones").scrollHeight)</script></body>`,
  );

  const work = path.join(dir.root, "chromium");
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work);
  const html = path.join(work, "phone.html");
  fs.writeFileSync(html, page);
  const url = `file://${html}`;
  const dom = chromium(path.join(work, "profile-1"), `--window-size=${WIDTH},800`, "--dump-dom", url);
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1]);
  if (!Number.isFinite(height) || height <= 0) throw new Error("could not measure the chat page");
  const shot = path.join(work, "phone.png");
  chromium(path.join(work, "profile-2"), `--window-size=${WIDTH},${height}`, `--force-device-scale-factor=${SCALE}`, `--screenshot=${shot}`, url);
  fs.copyFileSync(shot, output);
  if (process.env.KEEP_HTML) fs.copyFileSync(html, `${process.env.KEEP_HTML}.${path.basename(output, ".png")}.html`);
  console.log(`wrote ${path.relative(process.cwd(), output)} (${WIDTH}×${height} CSS pixels at ${SCALE}×, ${fs.statSync(output).size} bytes)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
