// What the shell from the phone looks like (issue 53, docs/phone.md): a flagged command's question
// with its ⚠️ lines, **Run** (red) and **Cancel**; the command while it runs; the answer: the
// command exactly as OpenCode ran it, its exit status (or that it is unknown), and the last lines
// of its output within one message. Pure. Commands and output are untrusted: revealed, escaped, cut.
import type { RiskFlag } from "../../approvals/risk.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { outputTail } from "../../shell/bang.ts";
import { encodeCallback, type ShellAction } from "../codec.ts";
import { EMPTY_HTML, escapedTail, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { flagLines } from "./render-flags.ts";

const COMMAND_LIMIT = 600;
/** The output's tail: lines and characters (escaping may grow it; the message stays under 4096). */
export const TAIL_LINES = 40;
const TAIL_CHARS = 2_500;
const TAIL_HTML_LIMIT = 3_000;

const shown = (command: string, t: Strings) => escapeWithin(reveal(command, t), COMMAND_LIMIT);

export function shellButton(action: ShellAction, key: string, t: Strings): InlineButton {
  const run = action === "shellRun";
  const labels: Record<ShellAction, string> = { shellRun: t.shell.runButton, shellCancel: t.shell.cancelButton, shellStop: t.shell.stopButton };
  return {
    text: labels[action],
    callback_data: encodeCallback({ key, action, question: 0, option: 0 }),
    ...(run ? { style: "danger" as const } : {}),
  };
}

export function renderShellAsk(command: string, flags: readonly RiskFlag[], key: string, t: Strings): RenderedMessage {
  return {
    text: joinHtml([t.shell.ask(shown(command, t)), ...flagLines(flags, t)], "\n"),
    keyboard: [[shellButton("shellRun", key, t), shellButton("shellCancel", key, t)]],
  };
}

export function renderShellCancelled(command: string, t: Strings): RenderedMessage {
  return { text: t.shell.cancelled(shown(command, t)), keyboard: [] };
}

/** While it runs; `long`: after a minute, with Stop when `stopKey` is given (the version can stop it). */
export function renderShellRunning(command: string, t: Strings, long = false, stopKey?: string): RenderedMessage {
  if (!long) return { text: t.shell.running(shown(command, t)), keyboard: [] };
  return { text: t.shell.stillRunning(shown(command, t)), keyboard: stopKey ? [[shellButton("shellStop", stopKey, t)]] : [] };
}

/** The answer; `file` says whether the whole output must follow as output.txt (the tail left some out). */
export function renderShellResult(run: { command: string; output: string; exit?: number }, t: Strings): { message: RenderedMessage; file: boolean } {
  const s = t.shell;
  const head = run.exit === undefined ? s.exitUnknown(shown(run.command, t)) : s.exit(shown(run.command, t), run.exit);
  const tail = outputTail(run.output, TAIL_LINES, TAIL_CHARS);
  if (tail.total === 0 && run.output.trim() === "") return { message: { text: joinHtml([head, s.noOutput], "\n"), keyboard: [] }, file: false };
  const revealed = reveal(tail.text, t);
  const end = escapedTail(revealed, TAIL_HTML_LIMIT);
  const whole = tail.whole && end.length === revealed.length;
  const lines: Html[] = [head, html`<pre>${end.length < revealed.length ? html`…${end.html}` : end.html}</pre>`];
  if (!whole) lines.push(EMPTY_HTML, s.tailNote(tail.shown, tail.total));
  return { message: { text: joinHtml(lines, "\n"), keyboard: [] }, file: !whole };
}

export function renderShellFailed(command: string, why: string, t: Strings): RenderedMessage {
  return { text: t.shell.failed(shown(command, t), escapeWithin(reveal(why, t), 500)), keyboard: [] };
}
