// Renders the answers to /status, /help and /pending. Pure.
import { escapeWithin } from "./html.ts";
import { formatDuration } from "./render-notice.ts";

/** One process' part of /status: what it knows (every process sharing the bot adds its own). */
export interface StatusPart {
  sessions: Array<{ title?: string; project?: string; busy: boolean; busyMs?: number }>;
  prompts: Array<{ kind: "question" | "permission"; summary: string; project: string; title?: string; chatId: number; messageId?: number }>;
}

export const COMMANDS = [
  { command: "status", description: "Sessions and pending prompts" },
  { command: "pending", description: "Send every pending prompt again" },
  { command: "help", description: "What Hermes does and how to use it" },
  { command: "start", description: "This chat's id and a setup check" },
] as const;

export function renderStatus(parts: StatusPart[]): string {
  const sessions = parts.flatMap((part) => part.sessions);
  const prompts = parts.flatMap((part) => part.prompts);
  const lines = ["📊 <b>Hermes status</b>", ""];
  if (sessions.length === 0) lines.push("No sessions seen yet.");
  else {
    lines.push(`<b>Sessions</b> (${sessions.length})`);
    for (const session of sessions.slice(0, 20)) {
      const state = session.busy ? `🟢 busy${session.busyMs !== undefined ? ` for ${formatDuration(session.busyMs)}` : ""}` : "⚪ idle";
      lines.push(`• ${state} · <code>${escapeWithin(session.project ?? "?", 80)}</code> · ${escapeWithin(session.title ?? "untitled", 80)}`);
    }
    if (sessions.length > 20) lines.push(`… and ${sessions.length - 20} more`);
  }
  lines.push("");
  if (prompts.length === 0) lines.push("Nothing is waiting for you.");
  else {
    lines.push(`<b>Waiting for you</b> (${prompts.length})`);
    for (const prompt of prompts.slice(0, 20)) {
      const icon = prompt.kind === "question" ? "❓" : "🔐";
      const summary = escapeWithin(prompt.summary, 100);
      const link = messageLink(prompt.chatId, prompt.messageId);
      lines.push(`• ${icon} ${link ? `<a href="${link}">${summary}</a>` : summary} · <code>${escapeWithin(prompt.project, 60)}</code>`);
    }
    lines.push("", "<i>/pending sends them all again, at the bottom of the chat.</i>");
  }
  return lines.join("\n");
}

export function renderHelp(): string {
  return [
    "🪽 <b>Hermes</b> puts OpenCode's questions and permission prompts on this chat.",
    "",
    "• Tap a button to answer; the agent carries on. Answers given in the terminal show up here too.",
    "• <b>Type an answer</b> and <b>Reject with feedback</b> ask for a reply with your text.",
    "• Reply to any Hermes message to send that session your next instruction.",
    "",
    ...COMMANDS.map((entry) => `/${entry.command} — ${entry.description}`),
  ].join("\n");
}

/** Telegram links to a message exist for supergroups and channels only ("-100…" ids). */
export function messageLink(chatId: number, messageId: number | undefined): string | undefined {
  if (messageId === undefined) return undefined;
  const id = String(chatId);
  return id.startsWith("-100") ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}
