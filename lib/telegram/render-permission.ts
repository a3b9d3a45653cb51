// Renders a permission prompt: what exactly is being approved (command, file, diff, patterns) and
// what "Always" would cover. Pure.
import type { PermissionPrompt } from "../registry/permission-prompt.ts";
import { encodeCallback } from "./codec.ts";
import { cutHtml, cutText, escapeHtml } from "./html.ts";
import { contextLine, type PromptContext } from "./render-context.ts";
import type { InlineButton, RenderedMessage } from "./render.ts";

export const PERMISSION_BUTTON = {
  once: "Allow once",
  always: "Always",
  reject: "Reject",
  feedback: "Reject with feedback",
} as const;

/** Room for the diff inside one message; a longer diff also goes out as a file. */
export const DIFF_PREVIEW_LIMIT = 2500;
const LIMITS = { command: 1500, path: 300, pattern: 200, patterns: 10, feedback: 500 };

export function renderPermission(prompt: PermissionPrompt, context: PromptContext): RenderedMessage {
  const { request } = prompt;
  const lines = [statusLine(prompt), contextLine(context), ""];
  lines.push(`🔐 <b>Permission: ${escapeHtml(cutText(request.permission, 60))}</b>`);

  const command = stringField(request.metadata, "command");
  const file = stringField(request.metadata, "filepath") ?? stringField(request.metadata, "filePath") ?? stringField(request.metadata, "path");
  if (command) lines.push(`<pre>${escapeHtml(cutText(command, LIMITS.command))}</pre>`);
  if (file) lines.push(`File: <code>${escapeHtml(cutText(file, LIMITS.path))}</code>`);
  const diff = diffOf(prompt);
  if (diff) {
    const preview = escapedPreview(diff, DIFF_PREVIEW_LIMIT);
    if (preview.cut) lines.push("<i>The diff is longer than this preview: the whole diff is attached below.</i>");
    lines.push(`<pre><code class="language-diff">${preview.html}</code></pre>`);
  }
  if (request.patterns.length > 0 && (!command || request.patterns.some((pattern) => pattern !== command))) {
    lines.push(`Patterns: ${codeList(request.patterns)}`);
  }
  if (request.always.length > 0) lines.push(`<b>Always</b> also allows, from now on in this project: ${codeList(request.always)}`);

  if (prompt.final?.message) lines.push("", `💬 Feedback: <i>${escapeHtml(cutText(prompt.final.message, LIMITS.feedback))}</i>`);
  if (prompt.notice) lines.push("", `⚠️ ${escapeHtml(prompt.notice)}`);
  const live = prompt.state === "pending" && !prompt.busy;
  return { text: cutHtml(lines.join("\n").trim()), keyboard: live ? keyboardFor(prompt) : [] };
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

function statusLine(prompt: PermissionPrompt): string {
  const final = prompt.final;
  switch (prompt.state) {
    case "pending":
      return prompt.busy ? "⏳ <b>Sending your decision…</b>" : "❓ <b>OpenCode asks for permission</b>";
    case "expired":
      return "⌛ <b>Expired</b>: rejected because nobody answered in time";
    case "gone":
      return "⚪ <b>No longer pending</b>: OpenCode closed this request";
    default:
      break;
  }
  const reply = final?.reply ?? "reject";
  if (final?.by === "cascade") {
    return reply === "reject" ? "🚫 <b>Rejected</b> together with another request of this session" : "✅ <b>Auto-approved</b>: an earlier “Always” covers it";
  }
  const where = final?.by === "telegram" ? "from Telegram" : "in the terminal";
  const verdict = reply === "once" ? "✅ <b>Allowed once</b>" : reply === "always" ? "✅ <b>Always allowed</b>" : final?.message ? "↩️ <b>Rejected with feedback</b>" : "🚫 <b>Rejected</b>";
  return `${verdict} ${where}`;
}

function keyboardFor(prompt: PermissionPrompt): InlineButton[][] {
  const button = (text: string, action: "once" | "always" | "reject" | "feedback"): InlineButton => ({
    text,
    callback_data: encodeCallback({ key: prompt.key, action, question: 0, option: 0 }),
  });
  const first = [button(PERMISSION_BUTTON.once, "once")];
  if (prompt.request.always.length > 0) first.push(button(PERMISSION_BUTTON.always, "always"));
  return [first, [button(PERMISSION_BUTTON.reject, "reject"), button(PERMISSION_BUTTON.feedback, "feedback")]];
}

function codeList(items: string[]): string {
  const shown = items.slice(0, LIMITS.patterns).map((item) => `<code>${escapeHtml(cutText(item, LIMITS.pattern))}</code>`);
  const more = items.length > LIMITS.patterns ? ` and ${items.length - LIMITS.patterns} more` : "";
  return shown.join(", ") + more;
}

function stringField(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = metadata[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
