// What a run's live progress message says: elapsed time and steps, what the agent does now (the
// tool and its target: the shell command, the file, the sub-agent and its task), OpenCode's todo
// list with a count, the last few steps, and Stop while the run works; at the end one short line
// without buttons. Pure. Commands, paths and todo items are the LLM's text: revealed, escaped and
// cut on graphemes, and the whole message stays within Telegram's limit.
import { formatDuration } from "../../i18n/duration.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { todoCount, type RunProgress, type StepView } from "../../progress/run-progress.ts";
import { cutHtml, EMPTY_HTML, escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";
import { contextUse, type ContextView } from "./render-usage.ts";

/** Escaped lengths of what the LLM wrote. */
const LIMITS = { command: 600, target: 200, task: 160, todo: 140, recent: 90 };
/** Todo items shown; a longer list shows a window around the first unfinished item. */
export const TODOS_SHOWN = 12;
const TODO_MARK: Record<string, string> = { completed: "✅", in_progress: "🔄", cancelled: "✖️" };
const PENDING_MARK = "⬜";

export interface RenderedProgress extends RenderedMessage {
  /** The message without its clock: equal bodies mean an edit would change nothing the user needs. */
  body: Html;
}

/**
 * The message for the run's state at `now`; `stop` is the run's Stop button (shown while it works);
 * `answer`: the answer's last lines as they are written (HTML), below the steps;
 * `used`: how full the context is (`🧠 41% of 200k`), on the clock's line: it changes with every
 * answer, so like the clock it never makes an edit by itself.
 */
export function renderProgress(
  state: RunProgress,
  now: number,
  context: PromptContext & { stop?: InlineButton; used?: ContextView; answer?: Html; budget?: Html; notes?: readonly Html[] },
): RenderedProgress {
  const t = stringsOf(context);
  const title = contextLine(context);
  const duration = formatDuration(Math.max(0, now - state.startedAt), t);
  if (state.ended) {
    const line = t.progress[state.ended === "done" ? "finished" : state.ended](title, escapeHtml(duration));
    const { done, total } = todoCount(state.todos);
    const text = cutHtml(total > 0 ? html`${line}\n${t.progress.todos(done, total)}` : line);
    return { text, keyboard: [], body: text };
  }
  const lines: Html[] = [];
  const current = state.running.at(-1);
  if (current) lines.push(html`▸ ${stepLine(current, t, true)}`);
  lines.push(...todoLines(state, t));
  const earlier = state.recent
    .filter((step) => step !== current)
    .slice()
    .reverse();
  if (earlier.length > 0)
    lines.push(
      html`<i>${escapeHtml(t.progress.earlier)}</i>`,
      ...earlier.map((step) => (step.state === "failed" ? html`✗ ${stepLine(step, t, false)}` : html`✓ ${stepLine(step, t, false)}`)),
    );
  // Requests a session rule answered (issue 42).
  lines.push(...(context.notes ?? []));
  // The answer as it is written (a group's stream, render-draft.ts): its last lines, under the steps.
  if (context.answer) lines.push(EMPTY_HTML, html`✍️ ${context.answer}`);
  const body = joinHtml([t.progress.running(title), ...lines], "\n");
  const used = contextUse(context.used, t);
  const budget = context.budget ? html` · ${context.budget}` : EMPTY_HTML;
  const clock = html`${escapeHtml(t.progress.elapsed(duration, state.steps))}${used ? html` · ${used}` : EMPTY_HTML}${budget}`;
  const hint = context.stop ? html`\n${t.progress.stopHint}` : EMPTY_HTML;
  const text = cutHtml(html`${joinHtml([t.progress.running(title), clock, ...lines], "\n")}${hint}`);
  return { text, keyboard: context.stop ? [[context.stop]] : [], body };
}

function stepLine(step: StepView, t: Strings, full: boolean): Html {
  const show = (text: string, max: number) => escapeWithin(reveal(text, t), max);
  const sub = step.subagent ? html`↳ ` : EMPTY_HTML;
  if (step.tool === "todowrite") return html`${sub}${escapeHtml(t.progress.todoStep)}`;
  const name = html`<b>${show(step.tool, 40)}</b>`;
  const target = step.target;
  if (!target) return html`${sub}${name}`;
  if (target.kind === "agent") {
    const task = target.detail ? html`: ${show(target.detail, full ? LIMITS.task : LIMITS.recent)}` : EMPTY_HTML;
    return html`${sub}${name} <i>${show(target.text, 60)}</i>${task}`;
  }
  const max = !full ? LIMITS.recent : target.kind === "command" ? LIMITS.command : LIMITS.target;
  return html`${sub}${name} <code>${show(target.text, max)}</code>`;
}

function todoLines(state: RunProgress, t: Strings): Html[] {
  const { todos } = state;
  if (todos.length === 0) return [];
  const { done, total } = todoCount(todos);
  const firstOpen = Math.max(
    0,
    todos.findIndex((item) => item.status !== "completed" && item.status !== "cancelled"),
  );
  const start = todos.length <= TODOS_SHOWN ? 0 : Math.min(Math.max(0, firstOpen - 2), todos.length - TODOS_SHOWN);
  const shown = todos.slice(start, start + TODOS_SHOWN);
  const lines = [t.progress.todos(done, total)];
  if (start > 0) lines.push(escapeHtml(t.progress.moreTodos(start)));
  for (const item of shown) lines.push(html`${escapeHtml(TODO_MARK[item.status] ?? PENDING_MARK)} ${escapeWithin(reveal(item.content, t), LIMITS.todo)}`);
  const after = todos.length - start - shown.length;
  if (after > 0) lines.push(escapeHtml(t.progress.moreTodos(after)));
  return lines;
}
