// Renders a permission prompt: what exactly is being approved (command, file, diff, patterns) and
// what "Always" would cover. Pure.
import type { PermissionPrompt } from "../registry/permission-prompt.ts";
import { encodeCallback } from "./codec.ts";
import { cutHtml, cutText, escapeHtml } from "./html.ts";
import type { Strings } from "../i18n/catalog.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import type { InlineButton, RenderedMessage } from "./render.ts";

/** Room for the diff inside one message; a longer diff also goes out as a file. */
export const DIFF_PREVIEW_LIMIT = 2500;
const LIMITS = { command: 1500, path: 300, pattern: 200, patterns: 10, feedback: 500 };

export function renderPermission(prompt: PermissionPrompt, context: PromptContext): RenderedMessage {
  const { request } = prompt;
  const t = stringsOf(context);
  const lines = [statusLine(prompt, t), contextLine(context), ""];
  lines.push(t.permission.title(escapeHtml(cutText(request.permission, 60))));

  const command = stringField(request.metadata, "command");
  const file = stringField(request.metadata, "filepath") ?? stringField(request.metadata, "filePath") ?? stringField(request.metadata, "path");
  if (command) lines.push(`<pre>${escapeHtml(cutText(command, LIMITS.command))}</pre>`);
  if (file) lines.push(`${t.permission.file}: <code>${escapeHtml(cutText(file, LIMITS.path))}</code>`);
  const diff = diffOf(prompt);
  if (diff) {
    const preview = escapedPreview(diff, DIFF_PREVIEW_LIMIT);
    if (preview.cut) lines.push(t.permission.diffCut);
    lines.push(`<pre><code class="language-diff">${preview.html}</code></pre>`);
  }
  if (request.patterns.length > 0 && (!command || request.patterns.some((pattern) => pattern !== command))) {
    lines.push(`${t.permission.patterns}: ${codeList(request.patterns, t)}`);
  }
  if (request.always.length > 0) lines.push(`${t.permission.alwaysAllows} ${codeList(request.always, t)}`);

  if (prompt.final?.message) lines.push("", `${t.permission.feedback} <i>${escapeHtml(cutText(prompt.final.message, LIMITS.feedback))}</i>`);
  if (prompt.notice) lines.push("", `⚠️ ${escapeHtml(prompt.notice(t))}`);
  const live = prompt.state === "pending" && !prompt.busy;
  return { text: cutHtml(lines.join("\n").trim()), keyboard: live ? keyboardFor(prompt, t) : [] };
}

/** Escapes whole lines of `text` while the escaped result fits in `max` (entities make it grow). */
function escapedPreview(text: string, max: number): { html: string; cut: boolean } {
  let html = "";
  for (const line of text.split("\n")) {
    const next = (html ? "\n" : "") + escapeHtml(line);
    if (html.length + next.length > max - 2) return { html: html ? html + "\n…" : escapeHtml(cutText(line, Math.floor(max / 6))), cut: true };
    html += next;
  }
  return { html, cut: false };
}

/** The full diff, when the request carries one. */
export function diffOf(prompt: PermissionPrompt): string | undefined {
  return stringField(prompt.request.metadata, "diff");
}

/** The diff when the message can only show part of it (so it should also go out as a file). */
export function diffTooLongToShow(prompt: PermissionPrompt): string | undefined {
  const diff = diffOf(prompt);
  return diff && escapedPreview(diff, DIFF_PREVIEW_LIMIT).cut ? diff : undefined;
}

function statusLine(prompt: PermissionPrompt, t: Strings): string {
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
  const where = final?.by === "telegram" ? t.permission.fromTelegram : t.permission.inTerminal;
  const verdict = reply === "once" ? t.permission.allowedOnce : reply === "always" ? t.permission.alwaysAllowed : final?.message ? t.permission.rejectedWithFeedback : t.permission.rejected;
  return `${verdict} ${where}`;
}

function keyboardFor(prompt: PermissionPrompt, t: Strings): InlineButton[][] {
  const button = (text: string, action: "once" | "always" | "reject" | "feedback"): InlineButton => ({
    text,
    callback_data: encodeCallback({ key: prompt.key, action, question: 0, option: 0 }),
  });
  const first = [button(t.button.once, "once")];
  if (prompt.request.always.length > 0) first.push(button(t.button.always, "always"));
  return [first, [button(t.button.reject, "reject"), button(t.button.feedback, "feedback")]];
}

function codeList(items: string[], t: Strings): string {
  const shown = items.slice(0, LIMITS.patterns).map((item) => `<code>${escapeHtml(cutText(item, LIMITS.pattern))}</code>`);
  const more = items.length > LIMITS.patterns ? t.permission.more(items.length - LIMITS.patterns) : "";
  return shown.join(", ") + more;
}

function stringField(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = metadata[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
