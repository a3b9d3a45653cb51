// Property (issue 40): every renderer, fed text full of "<", "&", ">", quotes, entity and tag
// look-alikes ("&amp;", "<b>", "<$0.001", "&#128512;"), writes HTML that Telegram parses (the
// fakes' strict parser, tests/support/telegram/html.ts) and shows that text verbatim. The texts
// are short and printable, so nothing is marked (reveal.ts) and little is cut: what the user sees
// must hold them as typed. A seeded generator (no dependency): a failure names its seed and case.
import { describe, expect, it } from "vitest";
import { CATALOGS, type Strings } from "../../lib/i18n/catalog.ts";
import { createPermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import { endProgress, reduceProgress, startProgress } from "../../lib/progress/run-progress.ts";
import { labelLine } from "../../lib/telegram/render/machine-label.ts";
import { renderAgentFileCaption } from "../../lib/telegram/render/render-agent-file.ts";
import { renderAgentText, renderAnswer, renderAnswerMessage } from "../../lib/telegram/render/render-agent-text.ts";
import { renderChanges } from "../../lib/telegram/render/render-changes.ts";
import { renderChoicePicker } from "../../lib/telegram/render/render-choice.ts";
import { contextLine, type PromptContext } from "../../lib/telegram/render/render-context.ts";
import { renderAskText, renderPicked, renderProjectPicker } from "../../lib/telegram/render/render-new.ts";
import { renderNotice, renderNotSent } from "../../lib/telegram/render/render-notice.ts";
import { permissionFiles } from "../../lib/telegram/render/render-permission-file.ts";
import { renderPermission } from "../../lib/telegram/render/render-permission.ts";
import { renderProgress } from "../../lib/telegram/render/render-progress.ts";
import { renderQuestion } from "../../lib/telegram/render/render-question.ts";
import {
  renderMissed,
  renderScheduleCreated,
  renderScheduledRun,
  renderScheduleList,
  renderSchedulePicked,
  type ScheduleView,
} from "../../lib/telegram/render/render-schedules.ts";
import { renderAnswerHeader, renderSessionPicker } from "../../lib/telegram/render/render-sessions.ts";
import { renderHelp, renderStatus } from "../../lib/telegram/render/render-status.ts";
import { renderStop, renderStopFailed, renderStopPicker, type StopOutcome } from "../../lib/telegram/render/render-stop.ts";
import { renderUndo } from "../../lib/telegram/render/render-undo.ts";
import { spentLine } from "../../lib/telegram/render/render-usage.ts";
import { escapeHtml, type Html } from "../../lib/text/html.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";
import { seededRandom } from "../support/seeded-random.ts";

const SEED = 20261128;
const CASES = 60;

/** Printable text that looks like markup: every piece is something a title, a command or an answer may hold. */
function generator(seed: number) {
  const { int, pick } = seededRandom(seed);
  const ATOMS = [
    "<",
    ">",
    "&",
    '"',
    "'",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#128512;",
    "&nbsp;",
    "&",
    "<b>",
    "</i>",
    "<$0.001",
    '<a href="https://x.y">',
    "</a>",
    "<tg-spoiler>",
    "<br/>",
    "AT&T",
    "a<b && c>d",
    "x",
    "fix",
    " ",
    "漢字",
    "😀",
    "🇫🇷",
  ];
  /** 1–`parts` atoms, always one of <, & or > among them. */
  const text = (parts = 6): string => {
    const pieces = Array.from({ length: 1 + int(parts) }, () => pick(ATOMS));
    pieces.splice(int(pieces.length + 1), 0, pick(["<", "&", ">", "<$0.001"]));
    return `x${pieces.join("")}x`;
  };
  /** A name that can be a directory's last part. */
  const name = (): string => text(3).replace(/\//g, "|");
  return { int, pick, text, name };
}

type Gen = ReturnType<typeof generator>;

/** What Telegram shows for `html`, which must parse. */
function shown(html: Html, what: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`${what}: Telegram would refuse it: ${parsed.error}\n${html}`);
  return parsed.plain;
}

/**
 * Each text is shown as typed: whole, or (where a field's room is counted in escaped characters, a
 * tool's name, a title in /status) its start up to a cut marked "…". A text escaped twice, or not
 * at all, shows neither.
 */
function showsVerbatim(html: Html, texts: readonly string[], what: string): void {
  const plain = shown(html, what);
  for (const text of texts) {
    const whole = plain.includes(text);
    const cut = Array.from({ length: text.length - 1 }, (_, end) => text.slice(0, end + 1)).some((head) => plain.includes(`${head}…`));
    expect(whole || cut, `${what}: ${JSON.stringify(text)} not shown verbatim in ${JSON.stringify(plain)}`).toBe(true);
  }
}

function context(gen: Gen, t: Strings): PromptContext & { t: Strings; project: string; sessionTitle: string } {
  return { project: gen.text(3), sessionTitle: gen.text(3), t };
}

const NOW = Date.UTC(2026, 10, 28, 12, 0);

describe("property: every renderer shows text full of <, &, > and quotes verbatim, in HTML Telegram parses", () => {
  for (const language of ["en", "zh"] as const) {
    const t = CATALOGS[language];
    const seed = SEED + (language === "zh" ? 1 : 0);

    it(`prompts: question, permission and its files' captions (${language})`, () => {
      const gen = generator(seed);
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${seed} case ${index}`;
        const [question, header, label, description] = [gen.text(), gen.text(3), gen.text(3), gen.text(3)];
        const ask = createQuestionPrompt(
          { id: `que_${index}`, sessionID: "s", questions: [{ question, header, options: [{ label, description }], multiple: false, custom: true }] },
          "/p",
          "KeyKey12",
          0,
        );
        const where = context(gen, t);
        showsVerbatim(renderQuestion(ask, where).text, [question, header, label, description, where.project, where.sessionTitle], `${what} question`);
        ask.state = "answered";
        ask.answers = [[label]];
        showsVerbatim(renderQuestion(ask, where).text, [question, label], `${what} answered question`);

        const [command, file, pattern, always, feedback] = [gen.text(), gen.text(), gen.text(), gen.text(), gen.text()];
        const permission = createPermissionPrompt(
          { id: `per_${index}`, sessionID: "s", permission: "bash", patterns: [pattern], always: [always], metadata: { command, filepath: file } },
          "/p",
          "KeyKey12",
          0,
        );
        showsVerbatim(renderPermission(permission, where).text, [command, file, pattern, always, where.project], `${what} permission`);
        permission.state = "answered";
        permission.final = { reply: "reject", message: feedback, by: "telegram" };
        showsVerbatim(renderPermission(permission, where).text, [command, feedback], `${what} rejected permission`);
        const long = createPermissionPrompt(
          {
            id: `big_${index}`,
            sessionID: "s",
            permission: "edit",
            patterns: [],
            always: [],
            metadata: { filepath: file, diff: `+${gen.text()}\n`.repeat(200) },
          },
          "/p",
          "KeyKey12",
          0,
        );
        for (const attached of permissionFiles(long, t)) shown(attached.caption, `${what} caption of ${attached.filename}`);
      }
    });

    it(`a run: notices, usage, progress, changes, undo, stop (${language})`, () => {
      const gen = generator(seed + 10);
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${seed + 10} case ${index}`;
        const where = context(gen, t);
        const [answer, name, message, file, error, todo, tool] = [gen.text(), gen.text(), gen.text(), gen.text(), gen.text(), gen.text(), gen.text(2)];
        const changes = renderChanges([{ file, additions: 3, deletions: 1, status: gen.pick(["added", "deleted", "modified"]) }], t);
        showsVerbatim(changes, [file], `${what} changes`);
        const cost = gen.pick([0.0001, 0.0009, 0.031, 1.25]);
        const done = renderNotice({ kind: "done", sessionID: "s", busyMs: 3_000, lastText: answer }, where, changes, { tokens: 320, cost });
        showsVerbatim(done.html, [answer, file, where.project, where.sessionTitle, cost < 0.001 ? "<$0.001" : "$"], `${what} done`);
        showsVerbatim(spentLine({ tokens: 0, cost }, t)!, [cost < 0.001 ? "<$0.001" : "$"], `${what} usage`);
        showsVerbatim(renderNotice({ kind: "failed", sessionID: "s", name, message }, where).html, [name, message], `${what} failed`);
        showsVerbatim(renderNotice({ kind: "retrying", sessionID: "s", attempt: 2, message }, where).html, [message], `${what} retrying`);
        const why = gen.text();
        showsVerbatim(renderNotSent(why, message, t).html, [why, message], `${what} not sent`);

        let progress = reduceProgress(startProgress(NOW), { type: "todo.updated", sessionID: "s", todos: [{ content: todo, status: "in_progress" }] }, false);
        progress = reduceProgress(
          progress,
          { type: "tool.step", sessionID: "s", step: { callID: "c1", tool, input: { command: error }, state: "completed" } },
          false,
        );
        progress = reduceProgress(
          progress,
          { type: "tool.step", sessionID: "s", step: { callID: "c2", tool, input: { filePath: file }, state: "running" } },
          false,
        );
        showsVerbatim(
          renderProgress(progress, NOW + 5_000, { ...where, used: { tokens: 9_000, window: 200_000 } }).text,
          [todo, tool, file],
          `${what} progress`,
        );
        showsVerbatim(renderProgress(endProgress(progress, "done"), NOW + 9_000, where).text, [where.project], `${what} progress ended`);

        showsVerbatim(renderUndo({ kind: "confirm", files: [{ file, additions: 1, deletions: 0, status: "added" }] }, "k", where).text, [file], `${what} undo`);
        for (const view of [{ kind: "undone", restored: 2 }, { kind: "final", restored: 1 }, { kind: "redone" }, { kind: "noGit" }] as const)
          showsVerbatim(renderUndo(view, "k", where).text, [where.sessionTitle], `${what} undo ${view.kind}`);
        showsVerbatim(renderUndo({ kind: "failed", error, retry: "redo" }, "k", where).text, [error], `${what} undo failed`);

        for (const outcome of ["running", "confirm", "stopping", "stopped", "notRunning"] satisfies StopOutcome[])
          showsVerbatim(renderStop(outcome, "k", where).text, [where.project, where.sessionTitle], `${what} stop ${outcome}`);
        showsVerbatim(renderStopFailed("k", where, escapeHtml(error)).text, [error], `${what} stop failed`);
        shown(renderStopPicker([{ key: "k", project: where.project, title: name }], t).text, `${what} stop picker`);
      }
    });

    it(`the remote control: status, sessions, answers, files, /new, /model, schedules, help, the machine label (${language})`, () => {
      const gen = generator(seed + 20);
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${seed + 20} case ${index}`;
        const [title, summary, project, answer, caption, label, instruction] = [
          gen.text(),
          gen.text(),
          gen.name(),
          gen.text(),
          gen.text(),
          gen.text(),
          gen.text(),
        ];
        const status = renderStatus(
          [
            {
              sessions: [{ title, project, busy: true, busyMs: 4_000, context: { tokens: 8_000, window: 100_000 } }],
              prompts: [{ kind: "question", summary, project, chatId: -1001234, messageId: 5 }],
            },
          ],
          t,
        );
        showsVerbatim(status, [title, summary, project], `${what} status`);
        shown(renderSessionPicker([{ key: "k", project, title, busy: false, updated: NOW - 60_000 }], 0, NOW, t).text, `${what} sessions`);
        const header = renderAnswerHeader(project, title, t);
        showsVerbatim(renderAnswerMessage(header, answer, undefined, t).html, [project, title, answer], `${what} session's answer`);
        showsVerbatim(renderAnswer(answer, undefined, 4000, t).html, [answer], `${what} answer`);
        showsVerbatim(renderAgentText(answer, undefined, 4000, t).html, [answer], `${what} agent text`);
        const where = context(gen, t);
        showsVerbatim(renderAgentFileCaption(where, caption, undefined, t), [caption, where.project], `${what} agent file caption`);
        showsVerbatim(contextLine({ ...where, parentTitle: title }), [where.project, where.sessionTitle, title], `${what} context line`);

        const directory = `/home/dev/${project}`;
        shown(renderProjectPicker([{ key: "k", directory }], t).text, `${what} /new picker`);
        showsVerbatim(renderPicked(directory, t).text, [project], `${what} /new picked`);
        showsVerbatim(renderAskText(directory, t), [project], `${what} /new ask`);
        showsVerbatim(renderChoicePicker("model", { items: [{ key: "k", label }], current: "k" }, 0, t).text, [label], `${what} /model`);
        showsVerbatim(renderChoicePicker("agent", { items: [] }, 0, t).text, [t.steer.openCodeDefault], `${what} /agent`);

        const view: ScheduleView = { id: "s1", directory, when: { kind: "interval", minutes: 30, anchor: NOW }, instruction, next: NOW + 60_000 };
        showsVerbatim(renderScheduleCreated(view, NOW, t), [project, instruction], `${what} schedule made`);
        showsVerbatim(renderScheduleList([view], NOW, t).text, [project, instruction], `${what} /schedules`);
        showsVerbatim(renderScheduledRun(view, t), [project, instruction], `${what} scheduled run`);
        showsVerbatim(renderMissed(view, NOW - 60_000, NOW, t), [project, instruction], `${what} missed run`);
        showsVerbatim(renderSchedulePicked(directory, t).text, [project], `${what} schedule picked`);

        showsVerbatim(labelLine(title), [title], `${what} machine label`);
      }
      shown(renderHelp(t), "help");
    });
  }
});
