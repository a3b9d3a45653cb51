// Renders the answers to /status, /help and /pending. Pure.
import { CATALOGS, type Strings } from "../i18n/catalog.ts";
import { escapeWithin } from "./html.ts";
import { formatDuration } from "./render-notice.ts";

/** One process' part of /status: what it knows (every process sharing the bot adds its own). */
export interface StatusPart {
  sessions: Array<{ title?: string; project?: string; busy: boolean; busyMs?: number }>;
  prompts: Array<{ kind: "question" | "permission"; summary: string; project: string; title?: string; chatId: number; messageId?: number }>;
}

/** The bot's command menu, in the chat's language. */
export function commandsFor(t: Strings): Array<{ command: string; description: string }> {
  return (["status", "pending", "help", "start"] as const).map((command) => ({ command, description: t.commands[command] }));
}

export function renderStatus(parts: StatusPart[], t: Strings = CATALOGS.en): string {
  const sessions = parts.flatMap((part) => part.sessions);
  const prompts = parts.flatMap((part) => part.prompts);
  const lines = [t.status.title, ""];
  if (sessions.length === 0) lines.push(t.status.noSessions);
  else {
    lines.push(t.status.sessions(sessions.length));
    for (const session of sessions.slice(0, 20)) {
      const state = session.busy ? (session.busyMs !== undefined ? t.status.busyFor(formatDuration(session.busyMs, t)) : t.status.busy) : t.status.idle;
      lines.push(`• ${state} · <code>${escapeWithin(session.project ?? "?", 80)}</code> · ${escapeWithin(session.title ?? t.status.untitled, 80)}`);
    }
    if (sessions.length > 20) lines.push(t.status.andMore(sessions.length - 20));
  }
  lines.push("");
  if (prompts.length === 0) lines.push(t.status.nothingWaiting);
  else {
    lines.push(t.status.waiting(prompts.length));
    for (const prompt of prompts.slice(0, 20)) {
      const icon = prompt.kind === "question" ? "❓" : "🔐";
      const summary = escapeWithin(prompt.summary, 100);
      const link = messageLink(prompt.chatId, prompt.messageId);
      lines.push(`• ${icon} ${link ? `<a href="${link}">${summary}</a>` : summary} · <code>${escapeWithin(prompt.project, 60)}</code>`);
    }
    lines.push("", t.status.pendingHint);
  }
  return lines.join("\n");
}

export function renderHelp(t: Strings = CATALOGS.en): string {
  return [...t.help.lines, "", ...commandsFor(t).map((entry) => `/${entry.command} — ${entry.description}`)].join("\n");
}

/** Telegram links to a message exist for supergroups and channels only ("-100…" ids). */
export function messageLink(chatId: number, messageId: number | undefined): string | undefined {
  if (messageId === undefined) return undefined;
  const id = String(chatId);
  return id.startsWith("-100") ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}
