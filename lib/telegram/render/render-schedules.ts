// What scheduled runs look like (pure): the project picker of /every and /at, what was understood,
// the /schedules list with a cancel button per schedule (its second tap confirms), a run's first
// message, and the notice of a missed run. Instructions and project names are the user's own text:
// shown through reveal, cut by visible characters, escaped. Where the Bot API has rich messages,
// /schedules is a table (renderScheduleListRich): a row a schedule, its buttons as today.
import type { Strings } from "../../i18n/catalog.ts";
import { describeMoment, describeWhen, describeZone } from "../../schedules/describe.ts";
import type { WhenError, When } from "../../schedules/when.ts";
import { encodeCallback } from "../codec.ts";
import { cutText, EMPTY_HTML, escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { RenderedMessage } from "../wire/rendered-message.ts";
import { escapeRich, joinRich, rich, richFromHtml, trustedRich, type RichHtml } from "../../rich/rich-html.ts";
import { projectLabels, PROJECT_ROWS, type ProjectChoice } from "./render-new.ts";
import { projectName } from "./render-context.ts";

/** A schedule as the phone sees it. */
export interface ScheduleView {
  id: string;
  directory: string;
  when: When;
  instruction: string;
  next: number;
}

const LABEL_LIMIT = 60;
/** An instruction in a list or notice, in visible characters; in a run's first message, more. */
const LISTED_INSTRUCTION = 160;
const RUN_INSTRUCTION = 1_000;
/** /schedules shows at most this many: 10 × (160 + the rest) stays well within a message. */
export const LISTED_SCHEDULES = 10;

function project(directory: string, t: Strings): Html {
  return escapeHtml(cutText(reveal(projectName(directory), t), LABEL_LIMIT));
}

function instruction(text: string, t: Strings, max = LISTED_INSTRUCTION): Html {
  return escapeWithin(reveal(text, t), max);
}

export function renderScheduleError(error: WhenError, t: Strings): Html {
  return html`${escapeHtml(t.schedule.errors[error])}\n${t.schedule.usage}`;
}

/** One button per project, as /new's picker. */
export function renderSchedulePicker(choices: readonly ProjectChoice[], t: Strings): RenderedMessage {
  const labels = projectLabels(choices.map((choice) => choice.directory));
  const sorted = [...choices].sort((a, b) => labels.get(a.directory)!.localeCompare(labels.get(b.directory)!));
  const keyboard = sorted.slice(0, PROJECT_ROWS).map(({ key, directory }) => [
    {
      text: `📁 ${cutText(reveal(labels.get(directory)!, t), LABEL_LIMIT)}`,
      callback_data: encodeCallback({ key, action: "scheduleIn", question: 0, option: 0 }),
    },
  ]);
  const rest = sorted.length - keyboard.length;
  return { text: html`${t.schedule.pick}${rest > 0 ? html`\n${escapeHtml(t.status.andMore(rest))}` : EMPTY_HTML}`, keyboard };
}

export function renderSchedulePicked(directory: string, t: Strings): RenderedMessage {
  return { text: t.schedule.picked(project(directory, t)), keyboard: [] };
}

/** What was understood: "every weekday at 09:00, in app: run the tests…, next run Mon 09:00". */
export function renderScheduleCreated(view: ScheduleView, now: number, t: Strings): Html {
  return t.schedule.created(
    escapeHtml(describeWhen(view.when, t)),
    project(view.directory, t),
    instruction(view.instruction, t),
    escapeHtml(describeMoment(view.next, now, t)),
  );
}

/** /schedules: each schedule (project, when, next run, instruction) with its cancel button; `confirming`'s asks for the second tap. */
export function renderScheduleList(views: readonly ScheduleView[], now: number, t: Strings, confirming?: string): RenderedMessage {
  if (views.length === 0) return { text: t.schedule.none, keyboard: [] };
  const shown = [...views].sort((a, b) => a.next - b.next).slice(0, LISTED_SCHEDULES);
  const items = shown.map((view, index) =>
    t.schedule.item(
      index + 1,
      escapeHtml(describeWhen(view.when, t)),
      project(view.directory, t),
      escapeHtml(describeMoment(view.next, now, t)),
      instruction(view.instruction, t),
    ),
  );
  const rest = views.length - shown.length;
  const more = rest > 0 ? [escapeHtml(t.status.andMore(rest))] : [];
  const text = joinHtml([t.schedule.listTitle(views.length, escapeHtml(describeZone(now))), ...items, ...more], "\n\n");
  const keyboard = shown.map((view, index) => [
    view.id === confirming
      ? {
          text: t.schedule.confirmButton(index + 1),
          callback_data: encodeCallback({ key: view.id, action: "scheduleDrop", question: 0, option: 0 }),
          style: "danger" as const,
        }
      : { text: t.schedule.cancelButton(index + 1), callback_data: encodeCallback({ key: view.id, action: "scheduleCancel", question: 0, option: 0 }) },
  ]);
  return { text, keyboard };
}

/**
 * /schedules as a rich message: the title, then a table with a row a schedule (its number as on
 * its cancel button, when, project, next run, instruction), the rest counted; undefined when a
 * line has no rich form. The buttons are renderScheduleList's.
 */
export function renderScheduleListRich(views: readonly ScheduleView[], now: number, t: Strings): RichHtml | undefined {
  const title = richFromHtml(views.length === 0 ? t.schedule.none : t.schedule.listTitle(views.length, escapeHtml(describeZone(now))));
  if (title === undefined || views.length === 0) return title;
  const shown = [...views].sort((a, b) => a.next - b.next).slice(0, LISTED_SCHEDULES);
  // Cells hold inline text only: the Html of one line, its own markup kept (it is Hermes' escaped text).
  const cell = (tag: "th" | "td", value: Html) => trustedRich(`<${tag}>${value}</${tag}>`);
  const head = rich`<tr>${joinRich(t.rich.scheduleColumns.map((name) => cell("th", escapeHtml(name))))}</tr>`;
  const rows = shown.map(
    (view, index) =>
      rich`<tr>${joinRich([
        cell("td", html`${index + 1}`),
        cell("td", escapeHtml(describeWhen(view.when, t))),
        cell("td", html`<b>${project(view.directory, t)}</b>`),
        cell("td", escapeHtml(describeMoment(view.next, now, t))),
        cell("td", instruction(view.instruction, t)),
      ])}</tr>`,
  );
  const rest = views.length - shown.length;
  const more = rest > 0 ? rich`<p>${escapeRich(t.status.andMore(rest))}</p>` : rich``;
  return rich`${title}<table bordered>${head}${joinRich(rows)}</table>${more}`;
}

/** A run's first message: the instruction the new session gets, and why it runs now. */
export function renderScheduledRun(view: ScheduleView, t: Strings): Html {
  return t.schedule.running(escapeHtml(describeWhen(view.when, t)), project(view.directory, t), instruction(view.instruction, t, RUN_INSTRUCTION));
}

/** The session's title: the instruction's start, plain text. */
export function scheduledTitle(text: string, t: Strings): string {
  return t.schedule.title(cutText(text.replace(/\s+/g, " ").trim(), 60));
}

export function renderMissed(view: ScheduleView, due: number, now: number, t: Strings): Html {
  const at = escapeHtml(describeMoment(due, now, t));
  return t.schedule.missed(escapeHtml(describeWhen(view.when, t)), project(view.directory, t), at, instruction(view.instruction, t));
}
