// Renders a question prompt to a Telegram message: HTML text and inline keyboard. Pure.
import type { QuestionPrompt } from "../../registry/question-prompt.ts";
import { currentQuestion } from "../../registry/question-prompt.ts";
import { encodeCallback } from "../codec.ts";
import { cutText, EMPTY_HTML, escapeHtml, escapeWithin, fitHtml, html, type Html, joinHtml, trimHtml } from "../../text/html.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import { pageCount, pageRange } from "./option-pages.ts";
import { renderAgentText } from "./render-agent-text.ts";
import { reveal } from "../../text/reveal.ts";
import { withStop, type InlineButton, type RenderedMessage } from "../wire/rendered-message.ts";

// Escaped lengths (entities count, so text full of "<&>" can't overflow the message); the agent's
// own text (question, description) is Markdown, counted as Telegram counts: visible units.
const LIMITS = { question: 1200, header: 200, label: 200, description: 300, answer: 600, button: 60, notice: 300 };
/** Characters (escaped) shared by every option line of a prompt, so 50 options still fit one message. */
const OPTIONS_BUDGET = 2000;
/** "• <b>12. </b> — " and the newline around each option's own text. */
const OPTION_LINE_MARKUP = 20;
/** Labels this short sit several to a row. */
const SHORT_LABEL = 12;

export function renderQuestion(prompt: QuestionPrompt, context: PromptContext): RenderedMessage {
  const t = stringsOf(context);
  const lines: Html[] = [statusLine(prompt, t), contextLine(context), EMPTY_HTML];
  const current = prompt.state === "pending" && !prompt.busy ? currentQuestion(prompt) : -1;
  const count = prompt.questions.length;

  // Long prompts share the message fairly: every question and option keeps a visible line.
  const ranges = prompt.questions.map((question, index) => pageRange(prompt.pages[index] ?? 0, question.options.length));
  const optionCount = ranges.reduce((sum, range) => sum + range.end - range.start, 0);
  const perOption = (optionCount > 0 ? Math.floor(OPTIONS_BUDGET / optionCount) : OPTIONS_BUDGET) - OPTION_LINE_MARKUP;
  const withDescriptions = perOption * 0.6 >= 16;
  const labelMax = Math.min(LIMITS.label, Math.max(12, Math.floor(withDescriptions ? perOption * 0.4 : perOption)));
  const descriptionMax = withDescriptions ? Math.min(LIMITS.description, Math.floor(perOption * 0.6)) : 0;
  const questionMax = Math.max(300, Math.floor(LIMITS.question / count));

  prompt.questions.forEach((question, index) => {
    const number = count > 1 ? `${index + 1}/${count} · ` : "";
    const marker = index === current && count > 1 ? html`▶ ` : EMPTY_HTML;
    const hint = question.multiple ? t.question.chooseAny : EMPTY_HTML;
    lines.push(html`${marker}<b>${escapeHtml(number)}${escapeWithin(reveal(question.header || t.question.defaultHeader, t), LIMITS.header)}</b>${hint}`);
    const text = renderAgentText(question.question, context.markdown, questionMax, t);
    lines.push(html`${text.html}${text.cut ? t.question.cut : EMPTY_HTML}`);
    const numbered = isNumbered(question);
    const { start, end } = ranges[index]!;
    question.options.slice(start, end).forEach((option, offset) => {
      const optionIndex = start + offset;
      const description =
        option.description && withDescriptions ? html` — ${renderAgentText(option.description, context.markdown, descriptionMax, t).html}` : EMPTY_HTML;
      const prefix = numbered ? html`${optionIndex + 1}. ` : EMPTY_HTML;
      lines.push(html`• <b>${prefix}${escapeWithin(reveal(option.label, t), labelMax)}</b>${description}`);
    });
    if (pageCount(question.options.length) > 1) lines.push(t.question.page(start + 1, end, question.options.length));
    const answer = answerFor(prompt, index);
    if (answer) lines.push(html`<b>→ ${escapeWithin(reveal(answer.join(", "), t), LIMITS.answer)}</b>`);
    lines.push(EMPTY_HTML);
  });

  if (prompt.notice) lines.push(html`⚠️ ${escapeWithin(reveal(prompt.notice(t), t), LIMITS.notice)}`);
  if (current !== -1 && prompt.dismissArmed) lines.push(t.question.dismissWarning);
  const text = fitHtml(trimHtml(joinHtml(lines, "\n")));
  return { text, keyboard: current === -1 ? [] : withStop(keyboardFor(prompt, current, t), context) };
}

function statusLine(prompt: QuestionPrompt, t: Strings): Html {
  switch (prompt.state) {
    case "pending":
      return prompt.busy ? t.question.sending : t.question.asking;
    case "answered":
      return t.question.answered;
    case "answered_elsewhere":
      return t.question.answeredElsewhere;
    case "dismissed":
      return t.question.dismissed;
    case "dismissed_elsewhere":
      return t.question.dismissedElsewhere;
    case "expired":
      return t.question.expired;
    case "gone":
      return t.question.gone;
  }
}

/** The answer shown under a question: what OpenCode recorded if known, else what the user picked. */
function answerFor(prompt: QuestionPrompt, index: number): string[] | undefined {
  return prompt.finalAnswers?.[index] ?? prompt.answers[index];
}

/** Many options, or labels too long for a button, get numbers so text and buttons match up. */
function isNumbered(question: QuestionPrompt["questions"][number]): boolean {
  return question.options.length > 8 || question.options.some((option) => Array.from(option.label).length > LIMITS.button);
}

function keyboardFor(prompt: QuestionPrompt, index: number, t: Strings): InlineButton[][] {
  const question = prompt.questions[index]!;
  const key = prompt.key;
  const numbered = isNumbered(question);
  const page = prompt.pages[index] ?? 0;
  const { start, end } = pageRange(page, question.options.length);
  const options = question.options.slice(start, end);
  const buttons = options.map((option, offset): InlineButton => {
    const optionIndex = start + offset;
    const ticked = question.multiple && prompt.ticked[index]!.has(optionIndex) ? "✅ " : "";
    const prefix = numbered ? `${optionIndex + 1}. ` : "";
    return {
      text: ticked + prefix + cutText(reveal(option.label, t), LIMITS.button),
      callback_data: encodeCallback({ key, action: "option", question: index, option: optionIndex }),
    };
  });
  const perRow = options.length > 4 && options.every((option) => Array.from(option.label).length <= SHORT_LABEL) ? 3 : 1;
  const rows: InlineButton[][] = [];
  for (let first = 0; first < buttons.length; first += perRow) rows.push(buttons.slice(first, first + perRow));
  const pages = pageCount(question.options.length);
  if (pages > 1) {
    const turn = (text: string, to: number): InlineButton => ({ text, callback_data: encodeCallback({ key, action: "page", question: index, option: to }) });
    const nav: InlineButton[] = [];
    if (page > 0) nav.push(turn(t.button.previous, page - 1));
    if (page < pages - 1) nav.push(turn(t.button.next, page + 1));
    rows.push(nav);
  }
  const last: InlineButton[] = [];
  if (question.multiple) last.push({ text: t.button.done, callback_data: encodeCallback({ key, action: "done", question: index, option: 0 }) });
  if (question.custom) last.push({ text: t.button.type, callback_data: encodeCallback({ key, action: "type", question: index, option: 0 }) });
  if (last.length) rows.push(last);
  rows.push([
    prompt.dismissArmed
      ? { text: t.button.confirm, callback_data: encodeCallback({ key, action: "confirm", question: 0, option: 0 }), style: "danger" }
      : { text: t.button.dismiss, callback_data: encodeCallback({ key, action: "dismiss", question: 0, option: 0 }) },
  ]);
  return rows;
}
