// Question prompts: taps build the answers, a complete set goes to OpenCode, Dismiss rejects.
import { validateAnswers } from "../../registry/answers.ts";
import {
  armDismiss,
  confirmTicked,
  currentQuestion,
  isComplete,
  refuseAnswers,
  tapOption,
  turnPage,
  typeAnswer,
  type QuestionPrompt,
} from "../../registry/question-prompt.ts";
import { isActionOn, type CallbackData, type QuestionAction } from "../../telegram/codec.ts";
import { escapeHtml, html } from "../../text/html.ts";
import { pageCount } from "../../telegram/render/option-pages.ts";
import type { PromptDesk, Tap, TapHandler } from "../core/desk.ts";

/** What each button of a question prompt does (the compiler wants one entry per QuestionAction in telegram/codec.ts). */
const QUESTION_TAPS: Record<QuestionAction, TapHandler<QuestionPrompt>> = {
  option(desk, prompt, data) {
    const result = tapOption(prompt, data.question, data.option);
    return result.ok ? { ...result, next: () => proceed(desk, prompt) } : result;
  },
  page(desk, prompt, data) {
    const question = prompt.questions[data.question];
    const result = turnPage(prompt, data.question, data.option, pageCount(question?.options.length ?? 0));
    return result.ok ? { ...result, next: () => desk.refresh(prompt) } : result;
  },
  done(desk, prompt, data) {
    const result = confirmTicked(prompt, data.question);
    return result.ok ? { ...result, next: () => proceed(desk, prompt) } : result;
  },
  type(desk, prompt, data) {
    const question = prompt.questions[data.question];
    if (data.question !== currentQuestion(prompt) || !question?.custom) return { ok: false, note: (t) => t.note.alreadyAnswered };
    return { ok: true, note: (t) => t.note.replyWithAnswer, next: () => desk.askForText(prompt, data.question, question.header || question.question) };
  },
  dismiss(desk, prompt) {
    armDismiss(prompt);
    return { ok: true, note: (t) => t.note.tapConfirm, next: () => desk.refresh(prompt) };
  },
  confirm(desk, prompt) {
    if (!prompt.dismissArmed) return { ok: false, note: (t) => t.note.tapDismissFirst };
    return { ok: true, note: (t) => t.note.dismissing, next: () => desk.answerQuestion(prompt, undefined) };
  },
};

/** A tap on a question prompt; another kind's button (stale or forged) changes nothing. */
export function tapQuestion(desk: PromptDesk, prompt: QuestionPrompt, data: CallbackData): Tap {
  if (!isActionOn(data.action, "question")) return { ok: false, note: (t) => t.note.wrongButton };
  return QUESTION_TAPS[data.action](desk, prompt, data);
}

/** After an answer: the complete set goes to OpenCode, else the keyboard moves on. */
function proceed(desk: PromptDesk, prompt: QuestionPrompt): Promise<void> {
  return isComplete(prompt) ? submitQuestion(desk, prompt) : desk.refresh(prompt);
}

export async function typeQuestionAnswer(desk: PromptDesk, prompt: QuestionPrompt, questionIndex: number, text: string, replyTo: number): Promise<void> {
  const result = typeAnswer(prompt, questionIndex, text);
  if (!result.ok) {
    await desk.reply(html`⚠️ ${escapeHtml(result.note(desk.t))}`, replyTo);
    return;
  }
  await proceed(desk, prompt);
}

/** A complete set of answers goes to OpenCode, unless OpenCode would refuse it: then the last answer is reopened, with why. */
async function submitQuestion(desk: PromptDesk, prompt: QuestionPrompt): Promise<void> {
  if (prompt.state !== "pending") return;
  const checked = validateAnswers(prompt.questions, prompt.answers);
  if (!checked.ok) {
    refuseAnswers(prompt, checked.error);
    return desk.refresh(prompt);
  }
  await desk.answerQuestion(prompt, checked.answers);
}
