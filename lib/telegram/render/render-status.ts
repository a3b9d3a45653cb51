// Renders the answers to /status, /help and /pending. Pure.
import { formatDuration } from "../../i18n/duration.ts";
import { CATALOGS, type Strings } from "../../i18n/catalog.ts";
import { cutHtml, EMPTY_HTML, escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import { contextUse, type ContextView } from "./render-usage.ts";

/** One process' part of /status: what it knows (every process sharing the bot adds its own). */
export interface StatusPart {
  sessions: Array<{ title?: string; project?: string; busy: boolean; busyMs?: number; context?: ContextView }>;
  prompts: Array<{ kind: "question" | "permission"; summary: string; project: string; title?: string; chatId: number; messageId?: number }>;
}

/** The bot's command menu, in the chat's language. */
export function commandsFor(t: Strings): Array<{ command: string; description: string }> {
  const menu = (["new", "sessions", "model", "agent", "status", "pending", "stop", "undo", "help", "start"] as const).map((command) => ({
    command,
    description: t.commands[command],
  }));
  // Scheduled runs (issue 35), after /sessions.
  const schedules = (["every", "at", "schedules"] as const).map((command) => ({ command, description: t.scheduleCommands[command] }));
  // Spoken answers (issue 45) and OpenCode's own vocabulary (issue 43), after /undo; git's /diff (issue 44) after them.
  const voice = { command: "voice", description: t.speech.command };
  const vocabulary = (["commands", "compact", "fork", "history"] as const).map((command) => ({ command, description: t.vocabulary.menu[command] }));
  const diff = { command: "diff", description: t.git.menu };
  // The desk's MCP servers (issue 53), after /diff.
  const mcp = { command: "mcp", description: t.mcp.menu };
  // The queue (issue 53), after /stop and /budget.
  const queue = { command: "queue", description: t.queue.menu };
  // The run budget (issue 42), after /stop.
  const budget = { command: "budget", description: t.approvals.budgetCommand };
  // Walking away (issue 51): /digest and /away, after /budget.
  const walkaway = [
    { command: "digest", description: t.walkaway.digestCommand },
    { command: "away", description: t.walkaway.awayCommand },
  ];
  const stop = menu.findIndex((entry) => entry.command === "stop") + 1;
  return [
    ...menu.slice(0, 2),
    ...schedules,
    ...menu.slice(2, stop),
    budget,
    queue,
    ...walkaway,
    ...menu.slice(stop, 8),
    voice,
    ...vocabulary,
    diff,
    mcp,
    ...menu.slice(8),
  ];
}

/** Room for each list, so /status stays within one message whatever the titles (escaped lengths). */
const SECTION_LIMIT = 1800;
const LISTED = 20;

/**
 * Parts from other processes come over the relay: lib/bridge/bot/status-part.ts checks their shape
 * first; here every text is still escaped and marked, and links are built only from integer ids.
 */
export function renderStatus(parts: readonly StatusPart[], t: Strings = CATALOGS.en): Html {
  const sessions = parts.flatMap((part) => part.sessions);
  const prompts = parts.flatMap((part) => part.prompts);
  const lines = [t.status.title, EMPTY_HTML];
  if (sessions.length === 0) lines.push(escapeHtml(t.status.noSessions));
  else {
    lines.push(t.status.sessions(sessions.length));
    const shown = sessions.map((session) => {
      const state = session.busy ? (session.busyMs !== undefined ? t.status.busyFor(formatDuration(session.busyMs, t)) : t.status.busy) : t.status.idle;
      const used = contextUse(session.context, t);
      return html`• ${escapeHtml(state)}${used ? html` · ${used}` : EMPTY_HTML} · <code>${show(session.project ?? "?", 80, t)}</code> · ${show(session.title ?? t.status.untitled, 80, t)}`;
    });
    lines.push(...within(shown, t));
  }
  lines.push(EMPTY_HTML);
  if (prompts.length === 0) lines.push(escapeHtml(t.status.nothingWaiting));
  else {
    lines.push(t.status.waiting(prompts.length));
    const shown = prompts.map((prompt) => {
      const icon = prompt.kind === "question" ? html`❓` : html`🔐`;
      const summary = show(prompt.summary, 100, t);
      const link = messageLink(prompt.chatId, prompt.messageId);
      return html`• ${icon} ${link ? html`<a href="${escapeHtml(link)}">${summary}</a>` : summary} · <code>${show(prompt.project, 60, t)}</code>`;
    });
    lines.push(...within(shown, t), EMPTY_HTML, t.status.pendingHint);
  }
  return cutHtml(joinHtml(lines, "\n"));
}

/** The first lines that fit the section's room (at most 20), then how many more there are. */
function within(lines: Html[], t: Strings): Html[] {
  const kept: Html[] = [];
  let length = 0;
  for (const line of lines.slice(0, LISTED)) {
    if (length + line.length + 1 > SECTION_LIMIT) break;
    kept.push(line);
    length += line.length + 1;
  }
  return kept.length < lines.length ? [...kept, escapeHtml(t.status.andMore(lines.length - kept.length))] : kept;
}

function show(text: string, max: number, t: Strings): Html {
  return escapeWithin(reveal(text, t), max);
}

/** One process' part as far as it is well-formed: sessions and prompts with the wrong shape are dropped. */

export function renderHelp(t: Strings = CATALOGS.en): Html {
  return joinHtml(
    [
      ...t.help.lines,
      t.git.help,
      t.mcp.help,
      t.shell.help,
      t.queue.help,
      EMPTY_HTML,
      ...commandsFor(t).map((entry) => escapeHtml(`/${entry.command} — ${entry.description}`)),
    ],
    "\n",
  );
}

/** Telegram links to a message exist for supergroups and channels only ("-100…" ids). */
export function messageLink(chatId: number, messageId: number | undefined): string | undefined {
  if (messageId === undefined || !Number.isSafeInteger(chatId) || !Number.isSafeInteger(messageId)) return undefined;
  const id = String(chatId);
  return id.startsWith("-100") ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}
