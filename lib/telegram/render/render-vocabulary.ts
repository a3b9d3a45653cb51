// What OpenCode's own vocabulary looks like on the phone (issue 43): the /commands list a page at a
// time with a button per command, /compact's fill before and after, a fork's first message, and
// /history's prompts with Go back here and Fork here. Pure. Command names, descriptions, prompts,
// titles and file names come from the project or the LLM: escaped and marked (reveal). Where the Bot
// API has rich messages, /history's list is a table (renderHistoryRich): a row a prompt, its files.
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback, type VocabularyAction } from "../codec.ts";
import { EMPTY_HTML, escapeHtml, escapeWithin, html, joinHtml, type Html, MESSAGE_LIMIT } from "../../text/html.ts";
import { LABEL_ROOM } from "./machine-label.ts";
import { headAndTail } from "./render-permission.ts";
import { flagLines } from "./render-flags.ts";
import type { RiskFlag } from "../../approvals/risk.ts";
import { reveal } from "../../text/reveal.ts";
import { compactCount } from "./render-usage.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { joinRich, rich, richFromHtml, richInline, type RichHtml } from "../../rich/rich-html.ts";

/** A command as /commands shows it (OpenCode's CommandView). */
export interface CommandView {
  name: string;
  description?: string;
  source?: string;
  /** What the command sends (OpenCode 1.x says; on 2.0.15 Hermes reads it where OpenCode does). */
  template?: string;
  /** Other definitions whose shell lines are shown too. */
  others?: string[];
  /** Why Hermes cannot be sure what it runs. */
  unsure?: "unknown" | "ambiguous";
}

/** A prompt as /history shows it (OpenCode's PromptView). */
export interface PromptView {
  messageID: string;
  text: string;
  files: string[];
  /** What the run left in its files (lib/opencode/run-left.ts): what "changed since by hand" compares. */
  left?: Record<string, string | null>;
}

/** Buttons (and lines) per page of /commands and /history. */
export const COMMANDS_PER_PAGE = 8;
export const PROMPTS_PER_PAGE = 5;
const NAME_LIMIT = 40;
const DESCRIPTION_LIMIT = 120;
const PROMPT_LIMIT = 140;
const LISTED_FILES = 6;

export function vocabularyButton(key: string, action: VocabularyAction, text: string, index = 0, danger = false): InlineButton {
  return { text, callback_data: encodeCallback({ key, action, question: index, option: 0 }), ...(danger ? { style: "danger" as const } : {}) };
}

const show = (text: string, limit: number, t: Strings) => escapeWithin(reveal(text, t), limit);

/** How many pages a list of `count` entries takes, and a page number kept within them. */
export function pageOf(page: number, count: number, perPage: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(count / perPage));
  return { page: Math.min(Math.max(0, page), pages - 1), pages };
}

function pager(key: string, action: VocabularyAction, page: number, pages: number): InlineButton[] {
  const buttons: InlineButton[] = [];
  if (page > 0) buttons.push(vocabularyButton(key, action, "◀", page - 1));
  if (page < pages - 1) buttons.push(vocabularyButton(key, action, "▶", page + 1));
  return buttons;
}

/** /commands: one page; `hermes`: the names Hermes keeps for its own commands. */
export function renderCommands(
  commands: readonly CommandView[],
  project: string,
  key: string,
  at: number,
  hermes: ReadonlySet<string>,
  t: Strings,
): RenderedMessage {
  const v = t.vocabulary.commands;
  const projectHtml = show(project, 80, t);
  if (commands.length === 0) return { text: v.none(projectHtml), keyboard: [] };
  const { page, pages } = pageOf(at, commands.length, COMMANDS_PER_PAGE);
  const first = page * COMMANDS_PER_PAGE;
  const shown = commands.slice(first, first + COMMANDS_PER_PAGE);
  const lines: Html[] = [v.title(projectHtml, commands.length), EMPTY_HTML];
  for (const command of shown)
    lines.push(
      v.item(
        show(command.name, NAME_LIMIT, t),
        command.description ? show(command.description, DESCRIPTION_LIMIT, t) : undefined,
        command.source ? show(command.source, 20, t) : undefined,
      ),
    );
  const shadowed = commands.filter((command) => hermes.has(command.name.toLowerCase())).map((command) => html`/${show(command.name, NAME_LIMIT, t)}`);
  if (shadowed.length > 0) lines.push(EMPTY_HTML, v.shadowed(joinHtml(shadowed, html`, `)));
  if (pages > 1) lines.push(EMPTY_HTML, v.page(page + 1, pages));
  const buttons = shown.map((command, index) => vocabularyButton(key, "commandRun", `/${command.name}`.slice(0, NAME_LIMIT), first + index));
  const rows: InlineButton[][] = [];
  for (let index = 0; index < buttons.length; index += 2) rows.push(buttons.slice(index, index + 2));
  const more = pager(key, "commandPage", page, pages);
  if (more.length > 0) rows.push(more);
  return { text: joinHtml(lines, "\n"), keyboard: rows };
}

/** `🧠 87% → 12% of 200k`, or `🧠 174k → 20k tokens` when the model's window is unknown. */
export function fillChange(before: number | undefined, after: number | undefined, window: number | undefined, t: Strings): Html | undefined {
  if (before === undefined || after === undefined) return undefined;
  const count = (tokens: number) => escapeHtml(compactCount(tokens));
  if (!window) return t.vocabulary.compact.fillTokens(count(before), count(after));
  const percent = (tokens: number) => Math.min(999, Math.round((tokens / window) * 100));
  return t.vocabulary.compact.fill(percent(before), percent(after), count(window));
}

/** The fork's first message: its title, and the original (a link to its message when Telegram has one). */
export function renderForked(title: string, original: string, link: string | undefined, t: Strings): Html {
  return t.vocabulary.fork.made(show(title, 160, t), show(original, 160, t), link === undefined ? undefined : escapeHtml(link));
}

function fileList(files: readonly string[], t: Strings): Html {
  if (files.length === 0) return t.vocabulary.history.noFiles;
  const named = files.slice(0, LISTED_FILES).map((file) => html`<code>${show(file, 80, t)}</code>`);
  return joinHtml([...named, ...(files.length > LISTED_FILES ? [html`+${files.length - LISTED_FILES}`] : [])], html`, `);
}

/** /history: one page of the prompts (newest first), a button per prompt. */
export function renderHistory(entries: readonly PromptView[], title: Html, key: string, at: number, t: Strings): RenderedMessage {
  const h = t.vocabulary.history;
  if (entries.length === 0) return { text: h.none, keyboard: [] };
  const { page, pages } = pageOf(at, entries.length, PROMPTS_PER_PAGE);
  const first = page * PROMPTS_PER_PAGE;
  const shown = entries.slice(first, first + PROMPTS_PER_PAGE);
  const lines: Html[] = [h.title(title, entries.length), EMPTY_HTML];
  for (const [index, entry] of shown.entries()) lines.push(h.item(first + index + 1, show(entry.text, PROMPT_LIMIT, t), fileList(entry.files, t)));
  if (pages > 1) lines.push(EMPTY_HTML, t.vocabulary.commands.page(page + 1, pages));
  const rows = [shown.map((_, index) => vocabularyButton(key, "historyPick", h.pick(first + index + 1), first + index))];
  const more = pager(key, "historyPage", page, pages);
  if (more.length > 0) rows.push(more);
  return { text: joinHtml(lines, "\n"), keyboard: rows };
}

/**
 * /history's page as a rich message: the title, a table with a row a prompt (its number as on its
 * button, the prompt, the files its run changed), the page line; undefined when a line has no rich
 * form. The buttons are renderHistory's.
 */
export function renderHistoryRich(entries: readonly PromptView[], title: Html, at: number, t: Strings): RichHtml | undefined {
  const h = t.vocabulary.history;
  if (entries.length === 0) return richFromHtml(h.none);
  const { page, pages } = pageOf(at, entries.length, PROMPTS_PER_PAGE);
  const first = page * PROMPTS_PER_PAGE;
  const head = richFromHtml(h.title(title, entries.length));
  const columns = t.rich.historyColumns.map((name) => richInline(escapeHtml(name)));
  const rows = entries
    .slice(first, first + PROMPTS_PER_PAGE)
    .map((entry, index) => [richInline(html`${first + index + 1}`), richInline(show(entry.text, PROMPT_LIMIT, t)), richInline(fileList(entry.files, t))]);
  const footer = pages > 1 ? richFromHtml(t.vocabulary.commands.page(page + 1, pages)) : rich``;
  const cells = [...columns, ...rows.flat()];
  if (head === undefined || footer === undefined || cells.some((cell) => cell === undefined)) return undefined;
  const row = (tag: "th" | "td", values: Array<RichHtml | undefined>) =>
    rich`<tr>${joinRich(values.map((value) => (tag === "th" ? rich`<th>${value!}</th>` : rich`<td>${value!}</td>`)))}</tr>`;
  return rich`${head}<table bordered>${row("th", columns)}${joinRich(rows.map((values) => row("td", values)))}</table>${footer}`;
}

/** One prompt of /history picked: Go back here and Fork here. */
export function renderHistoryPick(entry: PromptView, index: number, key: string, t: Strings): RenderedMessage {
  const h = t.vocabulary.history;
  return {
    text: h.item(index + 1, show(entry.text, PROMPT_LIMIT, t), fileList(entry.files, t)),
    keyboard: [[vocabularyButton(key, "historyBack", h.back, index), vocabularyButton(key, "historyFork", h.forkHere, index)]],
  };
}

/** Room Go back here's confirmation may take: a message, less a machine's label and a margin. */
const GO_BACK_ROOM = MESSAGE_LIMIT - LABEL_ROOM - 100;
const GO_BACK_NAME_LIMIT = 100;

/**
 * The files going back to before `entries[index]` puts back: OpenCode's revert to a message undoes
 * that run and every later one (`entries` is newest first), so theirs too, each named once.
 */
export function filesGoingBack(entries: readonly PromptView[], index: number): string[] {
  return [
    ...new Set(
      entries
        .slice(0, index + 1)
        .reverse()
        .flatMap((entry) => entry.files),
    ),
  ];
}

/** A file going back: changed since by hand, or no way to tell (lib/bridge/vocabulary/hand-edits.ts). */
export type GoBackMark = "hand" | "unknown";

/**
 * Go back here's red confirmation: the prompt, how many later runs it undoes too, and every file
 * of them all (a long name by its start and end), each marked when it was changed since by hand
 * (or when that cannot be told), with how many; when they can't all be listed, no Confirm.
 */
export function renderGoBackConfirm(
  entries: readonly PromptView[],
  index: number,
  title: Html,
  key: string,
  t: Strings,
  marks: ReadonlyMap<string, GoBackMark> = new Map(),
): RenderedMessage {
  const h = t.vocabulary.history;
  const entry = entries[index]!;
  const files = filesGoingBack(entries, index);
  const mark = (file: string) => {
    const found = marks.get(file);
    return found === "hand" ? html` ${h.handMark}` : found === "unknown" ? html` ${h.unknownMark}` : EMPTY_HTML;
  };
  const listed =
    files.length === 0
      ? h.noFiles
      : joinHtml(
          files.map((file) => html`<code>${headAndTail(reveal(file, t), GO_BACK_NAME_LIMIT, " ", t).html}</code>${mark(file)}`),
          "\n",
        );
  const count = (kind: GoBackMark) => files.filter((file) => marks.get(file) === kind).length;
  const hand = count("hand");
  const unknown = count("unknown");
  const notes = joinHtml([...(hand > 0 ? [h.handCount(hand)] : []), ...(unknown > 0 ? [h.unknownCount(unknown)] : [])]);
  const text = h.confirm(title, show(entry.text, PROMPT_LIMIT, t), index, listed, notes);
  if (text.length > GO_BACK_ROOM) return { text: h.tooMany(title, files.length, index + 1), keyboard: [] };
  return { text, keyboard: [[vocabularyButton(key, "historyConfirm", h.confirmBack, index, true)]] };
}

/** A template's `` !`…` `` line with its risk flags. */
export interface FlaggedLine {
  line: string;
  flags: RiskFlag[];
}

const TEMPLATE_LIMIT = 1_200;
const SHELL_LINES_SHOWN = 5;
const SHELL_LINE_LIMIT = 200;

/**
 * A command before it runs: what it sends (its template, its start and end when long; or that this
 * OpenCode does not say), the arguments typed with it, and each `` !`…` `` line OpenCode will run
 * first with its risk flags; a Run button (red when a line is flagged).
 */
export function renderCommandPreview(
  command: CommandView,
  args: string,
  lines: readonly FlaggedLine[],
  title: Html,
  key: string,
  index: number,
  t: Strings,
): RenderedMessage {
  const v = t.vocabulary.commands;
  const body =
    command.template !== undefined
      ? html`<pre>${headAndTail(reveal(command.template, t), TEMPLATE_LIMIT, "\n", t).html}</pre>`
      : command.unsure
        ? v.unknownTemplate
        : v.noTemplate;
  const parts: Html[] = [v.preview(show(command.name, NAME_LIMIT, t), title, body)];
  if (command.unsure === "ambiguous") parts.push(v.ambiguous);
  if (args !== "") parts.push(v.args(show(args, 300, t)));
  if (lines.length > 0) {
    parts.push(v.shellLines(lines.length));
    for (const { line, flags } of lines.slice(0, SHELL_LINES_SHOWN))
      parts.push(html`<code>${headAndTail(reveal(line, t), SHELL_LINE_LIMIT, " ", t).html}</code>`, ...flagLines(flags, t));
    const hidden = lines.slice(SHELL_LINES_SHOWN);
    if (hidden.length > 0) parts.push(v.moreLines(hidden.length, hidden.filter((line) => line.flags.length > 0).length));
  }
  // Red when a line is flagged, or when Hermes cannot show what runs at all.
  const danger = lines.some((line) => line.flags.length > 0) || (command.unsure !== undefined && command.template === undefined);
  return { text: joinHtml(parts, "\n"), keyboard: [[vocabularyButton(key, "commandSend", v.run(command.name.slice(0, NAME_LIMIT)), index, danger)]] };
}
