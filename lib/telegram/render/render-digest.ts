// /digest, pure: what every process sharing the bot ran and decided since a time, per project and
// session, each run (who started it, how it ended, its cost, the files it changed) and each
// decision in order with who or what decided it. One message; when it is longer than a message can
// hold, the message shows its start and "… N more in the file", and the whole goes as a file.
// Everything that came from OpenCode or the phone (titles, questions, answers, names) is escaped here.
import { formatDuration } from "../../i18n/duration.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { escapeHtml, escapeWithin, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { Decision, DecisionSource, RunRecord } from "../../walkaway/digest-log.ts";
import type { DigestPart } from "../../walkaway/digest-part.ts";
import { projectName } from "./render-context.ts";
import { clockTime } from "./render-walkaway.ts";
import { dollars } from "./render-usage.ts";

/** What the message itself holds at most (Telegram's 4,096, less the heading and the "more" line). */
const MESSAGE_BUDGET = 3_500;
const ASKED_SHOWN = 120;
const ANSWER_SHOWN = 80;
const TITLE_SHOWN = 80;

export interface RenderedDigest {
  text: Html;
  /** The whole digest as plain text, when the message could not hold it. */
  file?: string;
}

type Entry = { at: number; line: Html };

export function renderDigest(parts: readonly DigestPart[], view: { since: number; now: number }, t: Strings): RenderedDigest {
  const w = t.walkaway;
  const title = w.digestTitle(escapeHtml(clockTime(view.since)), escapeHtml(formatDuration(view.now - view.since, t)));
  const lines = bodyLines(parts, t);
  if (lines.length === 0) return { text: joinHtml([title, w.digestNothing], "\n") };
  const whole = joinHtml([title, ...lines], "\n");
  if (whole.length <= MESSAGE_BUDGET) return { text: whole };
  const shown: Html[] = [];
  let length = title.length;
  for (const line of lines) {
    if (length + line.length + 1 > MESSAGE_BUDGET) break;
    shown.push(line);
    length += line.length + 1;
  }
  return { text: joinHtml([title, ...shown, w.digestMore(lines.length - shown.length)], "\n"), file: plainText(whole) };
}

/** Per project (by name), per session (by its first run or decision), runs and decisions in time order. */
function bodyLines(parts: readonly DigestPart[], t: Strings): Html[] {
  const projects = new Map<string, Map<string, { title?: string; entries: Entry[] }>>();
  const sessionOf = (directory: string | undefined, sessionID: string) => {
    const name = directory ? projectName(directory) : "";
    const sessions = projects.get(name) ?? new Map<string, { title?: string; entries: Entry[] }>();
    projects.set(name, sessions);
    const session = sessions.get(sessionID) ?? { entries: [] };
    sessions.set(sessionID, session);
    return session;
  };
  const directories = new Map<string, string>();
  for (const part of parts) for (const run of part.runs) if (run.directory) directories.set(run.sessionID, run.directory);
  for (const part of parts) {
    for (const run of part.runs) {
      const session = sessionOf(run.directory, run.sessionID);
      if (run.title) session.title = run.title;
      session.entries.push({ at: run.startedAt, line: runLine(run, t) });
    }
    for (const decision of part.decisions) {
      const session = sessionOf(decision.directory ?? directories.get(decision.sessionID), decision.sessionID);
      session.entries.push({ at: decision.at, line: decisionLine(decision, t) });
    }
  }
  const w = t.walkaway;
  const lines: Html[] = [];
  for (const [name, sessions] of projects) {
    lines.push(html(""), w.digestProject(escapeHtml(name || "?")));
    const ordered = [...sessions.entries()].sort((a, b) => first(a[1].entries) - first(b[1].entries));
    for (const [sessionID, session] of ordered) {
      lines.push(w.digestSession(escapeWithin(reveal(session.title ?? sessionID, t), TITLE_SHOWN)));
      for (const entry of session.entries.sort((a, b) => a.at - b.at)) lines.push(entry.line);
    }
  }
  return lines;
}

function runLine(run: RunRecord, t: Strings): Html {
  const w = t.walkaway;
  const cost = run.cost > 0 ? dollars(run.cost) : undefined;
  return w.digestRun(
    escapeHtml(clockTime(run.startedAt)),
    escapeHtml(w.starters[run.startedBy]),
    escapeHtml(w.outcomes[run.outcome]),
    cost === undefined ? undefined : escapeHtml(cost),
    run.filesChanged,
  );
}

function decisionLine(decision: Decision, t: Strings): Html {
  const w = t.walkaway;
  const at = escapeHtml(clockTime(decision.at));
  const source = sourceWords(decision.source, t);
  if (decision.kind === "budget") return w.digestBudget(at, source);
  const asked = escapeWithin(reveal(decision.asked, t), ASKED_SHOWN);
  const answer = decision.answerKind === "labels" ? escapeWithin(reveal(decision.answer, t), ANSWER_SHOWN) : escapeHtml(w.answers[decision.answerKind]);
  return decision.kind === "question" ? w.digestQuestion(at, asked, answer, source) : w.digestPermission(at, asked, answer, source);
}

function sourceWords(source: DecisionSource, t: Strings): Html {
  const s = t.walkaway.sources;
  switch (source.kind) {
    case "phone":
      return s.phone(escapeWithin(reveal(source.by || "?", t), 64));
    case "terminal":
      return s.terminal;
    case "session-rule":
      return s.sessionRule(escapeWithin(reveal(source.rule, t), 80));
    case "opencode-always":
      return s.opencodeAlways;
    case "budget-stop":
      return s.budgetStop;
    case "run-stopped":
      return s.runStopped;
    case "timeout":
      return s.timeout;
    default:
      return s.unanswered;
  }
}

function first(entries: Entry[]): number {
  return entries.reduce((min, entry) => Math.min(min, entry.at), Number.POSITIVE_INFINITY);
}

function html(text: string): Html {
  return escapeHtml(text);
}

/** The digest's HTML as the file's plain text (the templates' own tags and entities only). */
function plainText(text: Html): string {
  return text
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}
