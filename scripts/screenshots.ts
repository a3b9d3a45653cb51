// `npm run screenshots`: the picture of the phone in the README (docs/phone.png), made from a real
// run. tests/support/whole-loop.ts drives the real OpenCode 1.18.33 with Hermes, the scripted LLM
// and the fake Telegram through a question, a permission with its diff, live progress and the Done
// notice; the conversation is taken twice (while the permission waits, and when the run is done),
// rendered as a chat page (tests/support/telegram/chat-page.ts) and photographed by a headless
// Chromium (`apt-get install chromium`; CHROMIUM=/path overrides). Only this script needs Chromium:
// the tests render the page without it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sleep } from "../lib/util/sleep.ts";
import { chatEntries, renderChatPage, type ChatEntry } from "../tests/support/telegram/chat-page.ts";
import { runWholeLoop, startLoopWorld, type LoopWorld } from "../tests/support/whole-loop.ts";
import { screenshotDir, type ScreenshotDir } from "./screenshot-dir.ts";

const OUTPUT = path.resolve(import.meta.dirname, "../docs/phone.png");
const WIDTH = 860;
/** Crisp on high-density screens, still small: GitHub shows it at the README's width. */
const SCALE = 1.5;
const CHROMIUM = process.env.CHROMIUM ?? "chromium";

function snapshot(world: LoopWorld, dir: ScreenshotDir): ChatEntry[] {
  return chatEntries(world.telegram.messages(world.chatId), world.telegram.humanMessages(world.chatId)).map((entry) => ({
    ...entry,
    text: dir.shown(entry.text),
  }));
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
  // A fresh private directory (scripts/screenshot-dir.ts); the picture shows the project under a fixed path.
  const dir = screenshotDir();
  try {
    await photograph(dir);
  } finally {
    dir.remove();
  }
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
  const page = renderChatPage(
    [
      { title: "While the agent waits for you", entries: during },
      { title: "When the run is done", entries: done },
    ],
    "Hermes · the real OpenCode 1.18.33, a scripted LLM",
  ).replace("</body>", `<script>document.body.dataset.height = String(document.querySelector(".phones").scrollHeight)</script></body>`);

  const work = path.join(dir.root, "chromium");
  fs.mkdirSync(work);
  const html = path.join(work, "phone.html");
  fs.writeFileSync(html, page);
  const url = `file://${html}`;
  const dom = chromium(path.join(work, "profile-1"), `--window-size=${WIDTH},800`, "--dump-dom", url);
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1]);
  if (!Number.isFinite(height) || height <= 0) throw new Error("could not measure the chat page");
  const shot = path.join(work, "phone.png");
  chromium(path.join(work, "profile-2"), `--window-size=${WIDTH},${height}`, `--force-device-scale-factor=${SCALE}`, `--screenshot=${shot}`, url);
  fs.copyFileSync(shot, OUTPUT);
  if (process.env.KEEP_HTML) fs.copyFileSync(html, process.env.KEEP_HTML);
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${WIDTH}×${height} CSS pixels at ${SCALE}×, ${fs.statSync(OUTPUT).size} bytes)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
