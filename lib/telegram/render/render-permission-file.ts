// The files a permission prompt sends just before its message when the message can't show all
// that Allow or Always approves: the full request (every character of the command, the path and
// every pattern) and the full diff. The message then points to them. Pure.
import path from "node:path";
import type { Strings } from "../../i18n/catalog.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import { cutText, escapeHtml, type Html } from "../../text/html.ts";
import { commandOf, diffOf, fileOf, FULL_REQUEST_FILE, layoutPermission } from "./render-permission.ts";
import { escapeHiddenInJson, reveal } from "../../text/reveal.ts";

export interface PromptFile {
  filename: string;
  content: string;
  /** Telegram HTML. */
  caption: Html;
}

export function permissionFiles(prompt: PermissionPrompt, t: Strings): PromptFile[] {
  const layout = layoutPermission(prompt.request, t);
  const files: PromptFile[] = [];
  if (layout.shortened) files.push({ filename: FULL_REQUEST_FILE, content: fullRequest(prompt, t), caption: t.permissionFile.caption });
  const diff = layout.diff?.cut ? diffOf(prompt) : undefined;
  if (diff) {
    const file = fileOf(prompt.request) ?? "change";
    const name = `${path.basename(file).replace(/[^\w.-]+/g, "_") || "change"}.diff`;
    files.push({ filename: name, content: diff, caption: t.permission.diffCaption(escapeHtml(cutText(reveal(file, t), 200))) });
  }
  return files;
}

/**
 * The request in full: first as shown on the phone (invisible characters and long blank runs
 * marked, nothing cut), then the exact text as JSON, so nothing is lost or ambiguous.
 */
function fullRequest(prompt: PermissionPrompt, t: Strings): string {
  const { request } = prompt;
  const f = t.permissionFile;
  const command = commandOf(request);
  const file = fileOf(request);
  const list = (items: string[]) => items.map((item) => `  ${reveal(item, t)}`);
  const lines = [f.heading(reveal(request.permission, t)), f.marked, ""];
  if (command !== undefined) lines.push(`${f.command}:`, reveal(command, t), "");
  if (file !== undefined) lines.push(`${f.file}: ${reveal(file, t)}`, "");
  if (request.patterns.length > 0) lines.push(f.patterns(request.patterns.length), ...list(request.patterns), "");
  if (request.always.length > 0) lines.push(f.always(request.always.length), ...list(request.always), "");
  const exact = {
    permission: request.permission,
    ...(command !== undefined ? { command } : {}),
    ...(file !== undefined ? { file } : {}),
    patterns: request.patterns,
    always: request.always,
  };
  lines.push(`${f.exact}:`, escapeHiddenInJson(JSON.stringify(exact, null, 2)), "");
  return lines.join("\n");
}
