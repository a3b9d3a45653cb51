// Renders a permission prompt: what exactly is being approved (command, file, diff, patterns) and
// what "Always" would cover. Rule: everything Allow or Always approves is visible before the tap,
// in the message or in a file sent just before it that the message points to; without that file,
// Allow and Always are not offered. Pure.
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { PermissionRequest } from "../../hermes-events.ts";
import { encodeCallback } from "../codec.ts";
import { cutHtml, EMPTY_HTML, escapedHead, escapedTail, escapeHtml, escapeWithin, html, type Html, joinHtml, trimHtml } from "../../text/html.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import { reveal, revealDiff } from "../../text/reveal.ts";
import { withStop, type ButtonStyle, type InlineButton, type RenderedMessage } from "../wire/rendered-message.ts";
import { commandOf, diffOf as diffOfRequest, fileOf } from "../../approvals/permission-subject.ts";
import { flagLines, offersSession, sessionScopeLine } from "./render-flags.ts";
import { escapeRich, joinRich, rich, richBlocksFromHtml, richDetails, richFromHtml, type RichHtml } from "../../rich/rich-html.ts";

export { commandOf, fileOf } from "../../approvals/permission-subject.ts";

/** The file a shortened request comes with (see render-permission-file.ts). */
export const FULL_REQUEST_FILE = "permission.txt";
/** Room for the diff inside one message; a longer diff also goes out as a file. */
const DIFF_PREVIEW_LIMIT = 1500;
/**
 * Escaped lengths. The body's room is fixed (header and footer have their own, bounded room), so
 * whether a request is shortened never depends on a session title that arrives later.
 */
const LIMITS = { title: 60, command: 1300, path: 250, pattern: 160, patternList: 400, feedback: 500, notice: 300 };

/** How the request's own text is shown, decided from the request alone. */
export interface PermissionLayout {
  title: Html;
  command?: Html;
  file?: Html;
  diff?: { html: Html; cut: boolean };
  patterns?: Html;
  always?: Html;
  /** Something Allow or Always approves is not shown whole: the full text goes out as a file. */
  shortened: boolean;
}

export function layoutPermission(request: PermissionRequest, t: Strings): PermissionLayout {
  let shortened = false;
  const show = (text: string, max: number, separator: "\n" | " "): Html => {
    const shown = headAndTail(reveal(text, t), max, separator, t);
    shortened ||= shown.cut;
    return shown.html;
  };
  const layout: PermissionLayout = { title: show(request.permission, LIMITS.title, " "), shortened };
  const command = commandOf(request);
  const file = fileOf(request);
  if (command) layout.command = show(command, LIMITS.command, "\n");
  if (file) layout.file = show(file, LIMITS.path, " ");
  const diff = diffOfRequest(request);
  // A request with both a command and a diff (not one OpenCode makes) shares the room between them.
  if (diff)
    layout.diff = escapedPreview(
      revealDiff(diff, t),
      layout.command === undefined ? DIFF_PREVIEW_LIMIT : Math.max(300, DIFF_PREVIEW_LIMIT - layout.command.length),
    );
  const list = (items: string[], room: number): Html => {
    const each = Math.max(LIMITS.pattern, Math.floor(room / items.length) - 15);
    const shown = codeList(items, room, (item) => show(item, each, " "), t);
    shortened ||= shown.cut;
    return shown.html;
  };
  // Without a command or a file (OpenCode ≤ 1.15 sends no metadata), the patterns are what runs: they get the command's room.
  const primary = !command && !file;
  if (request.patterns.length > 0 && (!command || request.patterns.some((pattern) => pattern !== command)))
    layout.patterns = list(request.patterns, primary ? LIMITS.command : LIMITS.patternList);
  if (request.always.length > 0) layout.always = list(request.always, LIMITS.patternList);
  layout.shortened = shortened;
  return layout;
}

/** Allow and Always are offered only when the message, with the files it points to, shows everything. */
export function mayAllow(prompt: PermissionPrompt, t: Strings): boolean {
  return !missesFile(prompt, layoutPermission(prompt.request, t));
}

function missesFile(prompt: PermissionPrompt, layout: PermissionLayout, wholeDiff = prompt.wholeDiff === true): boolean {
  return (layout.shortened || (layout.diff?.cut === true && !wholeDiff)) && prompt.files?.sent !== true;
}

export function renderPermission(prompt: PermissionPrompt, context: PromptContext, options: { wholeDiff?: boolean } = {}): RenderedMessage {
  const parts = permissionParts(prompt, context, options.wholeDiff === true || prompt.wholeDiff === true);
  return { text: cutHtml(trimHtml(joinHtml([...parts.before, ...parts.after], "\n"))), keyboard: parts.keyboard };
}

/** A diff longer than this is never one rich message's block: it goes as a file, as today. */
const RICH_DIFF_LIMIT = 28_000;

/**
 * The whole diff (hidden characters marked), when a rich message can show it and only it keeps
 * today's message from showing everything: the diff is longer than the message's preview, the rest
 * of the request fits, and the diff fits one rich message. Undefined otherwise.
 */
export function richPermissionDiff(prompt: PermissionPrompt, t: Strings): string | undefined {
  const layout = layoutPermission(prompt.request, t);
  if (!layout.diff?.cut || layout.shortened) return undefined;
  const diff = diffOfRequest(prompt.request);
  if (diff === undefined) return undefined;
  const shown = revealDiff(diff, t);
  return shown.length <= RICH_DIFF_LIMIT ? shown : undefined;
}

/**
 * The permission as a rich message (lib/rich/): today's lines, and the whole diff in a collapsible
 * block under them (the file and its +/− counts on its summary line), so Allow approves nothing
 * unseen and needs no file. Undefined when richPermissionDiff says no, or a line has no rich form.
 */
export function renderPermissionRich(prompt: PermissionPrompt, context: PromptContext): { rich: RichHtml; keyboard: InlineButton[][] } | undefined {
  const t = stringsOf(context);
  const diff = richPermissionDiff(prompt, t);
  if (diff === undefined) return undefined;
  const parts = permissionParts(prompt, context, true);
  const before = richBlocksFromHtml(joinHtml(parts.before, "\n"));
  const after = parts.after.length > 0 ? richBlocksFromHtml(joinHtml(parts.after, "\n")) : undefined;
  const file = fileOf(prompt.request) ?? "change";
  const lines = diff.split("\n");
  const added = lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length;
  const removed = lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).length;
  const summary = richFromHtml(t.rich.diffSummary(escapeWithin(reveal(file, t), LIMITS.path), added, removed));
  if (before === undefined || summary === undefined || (parts.after.length > 0 && after === undefined)) return undefined;
  const block = richDetails(summary, rich`<pre><code class="language-diff">${escapeRich(diff)}</code></pre>`);
  return { rich: joinRich([before, block, ...(after ? [after] : [])]), keyboard: parts.keyboard };
}

/**
 * The message's lines: `before` up to the diff, `after` from the patterns on. `wholeDiff`: the
 * diff is shown whole elsewhere (a rich message's collapsible block): no preview, and it needs no file.
 */
function permissionParts(prompt: PermissionPrompt, context: PromptContext, wholeDiff: boolean): { before: Html[]; after: Html[]; keyboard: InlineButton[][] } {
  const t = stringsOf(context);
  const layout = layoutPermission(prompt.request, t);
  const attached = prompt.files?.sent === true;
  const missingFile = missesFile(prompt, layout, wholeDiff);
  const lines = [statusLine(prompt, t), contextLine(context), EMPTY_HTML];
  lines.push(t.permission.title(layout.title));
  if (layout.command !== undefined) lines.push(html`<pre>${layout.command}</pre>`);
  if (layout.file !== undefined) lines.push(html`${escapeHtml(t.permission.file)}: <code>${layout.file}</code>`);
  if (layout.diff && !wholeDiff) {
    if (layout.diff.cut && attached) lines.push(t.permission.diffCut);
    lines.push(html`<pre><code class="language-diff">${layout.diff.html}</code></pre>`);
  }
  const before = lines.splice(0);
  if (layout.patterns !== undefined) lines.push(html`${escapeHtml(t.permission.patterns)}: ${layout.patterns}`);
  if (layout.always !== undefined) lines.push(html`${t.permission.alwaysAllows} ${layout.always}`);
  if (prompt.flags && prompt.flags.length > 0) lines.push(EMPTY_HTML, ...flagLines(prompt.flags, t));
  if (prompt.sessionScope && prompt.final) lines.push(EMPTY_HTML, sessionScopeLine(prompt.request.permission, prompt.sessionScope, t));
  if (layout.shortened && attached) lines.push(EMPTY_HTML, t.permission.shortened(escapeHtml(FULL_REQUEST_FILE)));
  if (missingFile) lines.push(EMPTY_HTML, t.permission.notAttached);

  if (prompt.final?.message)
    lines.push(EMPTY_HTML, html`${escapeHtml(t.permission.feedback)} <i>${escapeWithin(reveal(prompt.final.message, t), LIMITS.feedback)}</i>`);
  const asMessage = prompt.feedbackAsMessage;
  if (asMessage)
    lines.push(
      asMessage.sent
        ? escapeHtml(asMessage.toMain ? t.permission.feedbackAsMessageToMain : t.permission.feedbackAsMessage)
        : t.permission.feedbackNotSent(escapeWithin(reveal(asMessage.error, t), LIMITS.notice)),
    );
  if (prompt.notice) lines.push(EMPTY_HTML, html`⚠️ ${escapeWithin(reveal(prompt.notice(t), t), LIMITS.notice)}`);
  const live = prompt.state === "pending" && !prompt.busy;
  return { before, after: lines, keyboard: live ? withStop(keyboardFor(prompt, t, !missingFile), context) : [] };
}

/**
 * `text` escaped whole if it fits in `max`, else its head and its tail around a marker that says
 * how much is not shown: the end of a command is where a payload hides.
 */
export function headAndTail(text: string, max: number, separator: "\n" | " ", t: Strings): { html: Html; cut: boolean } {
  const escaped = escapeHtml(text);
  if (escaped.length <= max) return { html: escaped, cut: false };
  const room = max - t.permission.omitted(text.length).length - 2 * separator.length;
  const head = escapedHead(text, Math.floor(room * 0.6));
  const tail = escapedTail(text.slice(head.length), room - head.html.length);
  const omitted = Array.from(text.slice(head.length, text.length - tail.length)).length;
  return { html: joinHtml([head.html, escapeHtml(t.permission.omitted(omitted)), tail.html], separator), cut: true };
}

/** Escapes whole lines of `text` while the escaped result fits in `max` (entities make it grow). */
function escapedPreview(text: string, max: number): { html: Html; cut: boolean } {
  const lines: Html[] = [];
  let length = 0;
  for (const line of text.split("\n")) {
    const next = escapeHtml(line);
    const grown = length + (lines.length > 0 ? 1 : 0) + next.length;
    if (grown > max - 2) return { html: lines.length > 0 ? html`${joinHtml(lines, "\n")}\n…` : escapeWithin(line, Math.floor(max / 6)), cut: true };
    lines.push(next);
    length = grown;
  }
  return { html: joinHtml(lines, "\n"), cut: false };
}

/** The full diff, when the request carries one. */
export function diffOf(prompt: PermissionPrompt): string | undefined {
  return diffOfRequest(prompt.request);
}

function statusLine(prompt: PermissionPrompt, t: Strings): Html {
  const final = prompt.final;
  switch (prompt.state) {
    case "pending":
      return prompt.busy ? t.permission.sending : t.permission.asking;
    case "expired":
      return t.permission.expired;
    case "gone":
      return t.permission.gone;
    default:
      break;
  }
  const reply = final?.reply ?? "reject";
  if (final?.by === "cascade") return reply === "reject" ? t.permission.cascadeRejected : t.permission.cascadeApproved;
  const where = escapeHtml(final?.by === "telegram" ? t.permission.fromTelegram : t.permission.inTerminal);
  const verdict =
    reply === "once" && prompt.sessionScope
      ? t.approvals.allowedInSession
      : reply === "once"
        ? t.permission.allowedOnce
        : reply === "always"
          ? t.permission.alwaysAllowed
          : final?.message
            ? t.permission.rejectedWithFeedback
            : t.permission.rejected;
  return html`${verdict} ${where}`;
}

/** Green for what lets the agent go on, red for what stops it; feedback keeps the app's own colour. */
const COLOURS: Partial<Record<"once" | "always" | "reject" | "feedback", ButtonStyle>> = { once: "success", always: "success", reject: "danger" };

/** Allow and Always only when everything they approve can be seen. */
function keyboardFor(prompt: PermissionPrompt, t: Strings, canAllow: boolean): InlineButton[][] {
  const button = (text: string, action: "once" | "always" | "reject" | "feedback" | "session"): InlineButton => ({
    text,
    callback_data: encodeCallback({ key: prompt.key, action, question: 0, option: 0 }),
    ...(action !== "session" && COLOURS[action] ? { style: COLOURS[action] } : {}),
  });
  const rows: InlineButton[][] = [];
  if (canAllow)
    rows.push(prompt.request.always.length > 0 ? [button(t.button.once, "once"), button(t.button.always, "always")] : [button(t.button.once, "once")]);
  if (canAllow && offersSession(prompt)) rows.push([button(t.approvals.sessionButton, "session")]);
  rows.push([button(t.button.reject, "reject"), button(t.button.feedback, "feedback")]);
  return rows;
}

/** As many items as fit in `room`, each shown by `show`; the rest counted ("and 5 more"). */
function codeList(items: string[], room: number, show: (item: string) => Html, t: Strings): { html: Html; cut: boolean } {
  const shown: Html[] = [];
  let length = 0;
  for (const item of items) {
    const code = html`<code>${show(item)}</code>`;
    if (shown.length > 0 && length + code.length + 2 > room) break;
    shown.push(code);
    length += code.length + 2;
  }
  const rest = items.length - shown.length;
  return { html: html`${joinHtml(shown, html`, `)}${escapeHtml(rest > 0 ? t.permission.more(rest) : "")}`, cut: rest > 0 };
}
