// `npm run demo`: the whole loop of Hermes, offline, in the terminal. The real OpenCode 1.18.33 runs
// with Hermes loaded from plugin.ts, a scripted LLM does the agent's part, and a local stand-in for
// Telegram plays the phone (tests/support/whole-loop.ts): live progress, a question, a permission
// with its diff, and the Done notice with the answer formatted and the files the run changed. Each
// message is drawn as the phone shows it. In a terminal you tap (press a key); otherwise the demo
// taps for you.
import { parseTelegramHtml, type SentMessage } from "../tests/support/fake-telegram.ts";
import { runWholeLoop, startLoopWorld } from "../tests/support/whole-loop.ts";

const tty = Boolean(process.stdout.isTTY);
const ansi = (open: string, close: string) => (text: string) => (tty ? `\x1b[${open}m${text}\x1b[${close}m` : text);
const bold = ansi("1", "22");
const dim = ansi("2", "22");
const STYLES: Record<string, [string, string]> = {
  bold: ["1", "22"],
  italic: ["3", "23"],
  underline: ["4", "24"],
  strikethrough: ["9", "29"],
  code: ["36", "39"],
  pre: ["36", "39"],
  text_link: ["4;34", "24;39"],
};

/** Telegram HTML as the phone shows it: the text with its formatting as terminal styles. */
function formatted(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) return html;
  if (!tty) return parsed.plain;
  const marks = new Map<number, string[]>();
  const mark = (at: number, code: string) => marks.set(at, [...(marks.get(at) ?? []), `\x1b[${code}m`]);
  for (const entity of parsed.entities) {
    const style = STYLES[entity.type];
    if (!style) continue;
    mark(entity.offset, style[0]);
    mark(entity.offset + entity.length, style[1]);
  }
  let out = "";
  for (let i = 0; i <= parsed.plain.length; i++) out += (marks.get(i) ?? []).join("") + (parsed.plain[i] ?? "");
  return out;
}

const visibleLength = (text: string) => [...text.replace(/\x1b\[[\d;]*m/g, "")].length;

function phoneView(message: SentMessage, label: string): string {
  const body = message.document
    ? [`📄 ${message.document.filename} (${message.document.bytes} bytes)`, ...formatted(message.text).split("\n")]
    : formatted(message.text).split("\n");
  const rows: Array<Array<{ text: string }>> = message.replyMarkup?.inline_keyboard ?? [];
  const buttons = rows.map((row) => row.map((button) => `[ ${button.text} ]`).join(" "));
  const lines = [...body, ...(buttons.length ? ["", ...buttons] : [])];
  const width = Math.min(76, Math.max(20, ...lines.map(visibleLength)) + 2);
  return [`┌${"─".repeat(width)}┐ 📱 ${label}`, ...lines.map((line) => `│ ${line}`), `└${"─".repeat(width)}┘`].join("\n");
}

/** The progress message names what the run does at the permission: the edit it asks for, and the to-do list's first item done. */
function caughtUp(text: string): boolean {
  // The running step as the phone shows it, not any line naming the file: "▸ read src/api.ts" comes
  // just before the edit (CI's load once caught the message there, stop 56).
  const parsed = parseTelegramHtml(text);
  const seen = parsed.ok ? parsed.plain : text;
  return seen.includes("▸ edit src/api.ts") && seen.includes("1/3");
}

/** "8 s" of the Done notice's "Done after 8 s". */
function runTook(text: string): string | undefined {
  return /Done<\/b> after ([^·<]+?)\s*(?:·|<|$)/.exec(text)?.[1];
}

/** 8 of "8 s", 65 of "1 min 5 s" (the Done notice's words, lib/i18n/duration.ts), or undefined. */
function wholeSeconds(duration: string): number | undefined {
  const match = /^(?:(\d+) min\s*)?(?:(\d+) s)?$/.exec(duration.trim());
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** One key press from the terminal: the index of `choices` it picks (Enter or anything else: the first). */
async function tap(choices: string[]): Promise<string> {
  if (!process.stdin.isTTY) {
    // DEMO_TAP picks another button without a terminal (the demo's own test taps SQLite).
    const choice = choices.find((label) => label === process.env.DEMO_TAP) ?? choices[0]!;
    console.log(dim(`(no terminal: tapping "${choice}" as the phone would)`));
    return choice;
  }
  process.stdout.write(
    `${bold("Tap a button")}: ${choices.map((label, index) => `${index + 1}) ${label}`).join("  ")}  (press ${choices.map((_, i) => i + 1).join("/")}) › `,
  );
  process.stdin.setRawMode(true);
  process.stdin.resume();
  const key = await new Promise<string>((resolve) => process.stdin.once("data", (data) => resolve(data.toString("utf8"))));
  process.stdin.setRawMode(false);
  process.stdin.pause();
  if (key === "\u0003") {
    console.log("");
    process.exit(130);
  }
  const choice = choices[Number(key) - 1] ?? choices[0]!;
  console.log(choice);
  return choice;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(bold("Hermes demo") + dim(" — the real OpenCode 1.18.33, a scripted LLM, a local Telegram stand-in, no network"));
  console.log(dim("starting OpenCode with Hermes loaded from plugin.ts …"));
  const world = await startLoopWorld();
  const ready = Date.now();
  const show = (message: SentMessage, label: string) => {
    console.log(`\n${phoneView(message, label)}`);
  };
  try {
    console.log(dim("the agent starts a run: a todo list, a look around, then it needs you …"));
    const { done, diff } = await runWholeLoop(world, {
      async question(message, labels) {
        show(message, "a question");
        return tap(labels);
      },
      async permission(message) {
        const answered = world.telegram.messages(world.chatId).find((m) => m.text.includes("Answered from Telegram"));
        if (answered) show(answered, "the question, answered: the agent carries on");
        // The progress message is spare traffic (an edit every few seconds at most): shown once it has
        // caught up with the run, so what it says agrees with the permission beside it.
        const progress = await world.telegram
          .waitFor(() => world.telegram.messages(world.chatId).find((m) => /Running/.test(m.text) && caughtUp(m.text)), {
            timeoutMs: 30_000,
            what: "the progress message at the permission",
          })
          .catch(() => world.telegram.messages(world.chatId).find((m) => /Running/.test(m.text)));
        if (progress) show(progress, "live progress: one silent message, edited in place as the run goes");
        show(message, "a permission, with the diff it approves");
        console.log(dim("(Reject, or Reject with feedback, would stop or steer the run; this demo goes on)"));
        return tap(["Allow once", "Always"]);
      },
    });
    const progress = world.telegram.messages(world.chatId).find((m) => /Run finished/.test(m.text));
    if (progress) show(progress, "the progress message, at the end of the run");
    show(done, "Done: the answer formatted, and what changed");
    show(diff, "the whole diff, in reply to the notice");
    // The times add up: OpenCode's start, the prompt's way in and the notice's way out, the run (the
    // Done notice's own clock), and what came after the notice. Each part is measured, not made up
    // as a rest, except the ways in and out: what is left between OpenCode listening and the notice.
    const seconds = (from: number, to = Date.now()) => Math.round((to - from) / 1000);
    const doneAt = done.history[0]?.at ?? Date.now();
    const run = runTook(done.text);
    const runSeconds = run === undefined ? undefined : wholeSeconds(run);
    const around = runSeconds === undefined ? 0 : Math.max(0, seconds(ready, doneAt) - runSeconds);
    console.log(
      `\n${bold("The loop, end to end")} in ${seconds(started)} s: OpenCode started in ${seconds(started, ready)} s, the prompt's way to the agent and the notice's to the phone took ${around} s, the run took ${run ?? `${seconds(ready, doneAt)} s`} (its Done notice's time), and its diff and last edit came ${seconds(doneAt)} s after the notice. ${dim("A reply to the Done notice would be the session's next prompt.")}`,
    );
    console.log(dim("Next: create a bot with @BotFather and run node bin/opencode-hermes.mjs setup here (README, “Set it up”)."));
  } finally {
    await world.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
