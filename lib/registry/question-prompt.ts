// One pending question request and the answers the user is building for it on the phone.
// Pure state transitions; lib/bridge/prompts/prompt-life.ts applies them (the only writer of prompt state).
import type { QuestionInfo, QuestionRequest } from "../hermes-events.ts";
import type { Text } from "../i18n/catalog.ts";
import type { PromptBase } from "./prompt.ts";

export interface QuestionPrompt extends PromptBase {
  kind: "question";
  questions: QuestionInfo[];
  /** Confirmed answer per question, in order. */
  answers: (string[] | undefined)[];
  /** Options ticked so far on multiple-choice questions (indexes), before "Done". */
  ticked: Set<number>[];
  /** The page of options shown per question (questions with many options are paged). */
  pages: number[];
  dismissArmed: boolean;
  /** What was last sent for a reply we made, to recognise our own `question.replied`. */
  sentAnswers?: string[][];
  /** Answers OpenCode reports (ours or another client's). */
  finalAnswers?: string[][];
}

export function createQuestionPrompt(request: QuestionRequest, directory: string, key: string, now: number): QuestionPrompt {
  return {
    kind: "question",
    key,
    requestID: request.id,
    sessionID: request.sessionID,
    directory,
    questions: request.questions,
    createdAt: now,
    state: "pending",
    answers: request.questions.map(() => undefined),
    ticked: request.questions.map(() => new Set<number>()),
    pages: request.questions.map(() => 0),
    dismissArmed: false,
    busy: false,
  };
}

/** The question the keyboard is for: the first one without an answer, or -1 when all are answered. */
export function currentQuestion(prompt: QuestionPrompt): number {
  return prompt.answers.indexOf(undefined);
}

export function isComplete(prompt: QuestionPrompt): boolean {
  return currentQuestion(prompt) === -1;
}

/** `note` is what the tap's callback answer says. */
export type TapResult = { ok: boolean; note: Text };

/** A tap on option `optionIndex` of question `questionIndex`: single choice answers, multiple choice toggles. */
export function tapOption(prompt: QuestionPrompt, questionIndex: number, optionIndex: number): TapResult {
  const question = prompt.questions[questionIndex];
  const option = question?.options[optionIndex];
  if (!question || !option || questionIndex !== currentQuestion(prompt)) return { ok: false, note: (t) => t.note.choiceClosed };
  prompt.dismissArmed = false;
  prompt.notice = undefined;
  if (!question.multiple) {
    prompt.answers[questionIndex] = [option.label];
    return { ok: true, note: (t) => t.note.chosen(option.label) };
  }
  const ticked = prompt.ticked[questionIndex]!;
  if (ticked.has(optionIndex)) ticked.delete(optionIndex);
  else ticked.add(optionIndex);
  return { ok: true, note: (t) => (ticked.has(optionIndex) ? t.note.selected(option.label) : t.note.unselected(option.label)) };
}

/** ◀ or ▶ on a question with many options: shows page `page` of `pageCount`. */
export function turnPage(prompt: QuestionPrompt, questionIndex: number, page: number, pageCount: number): TapResult {
  if (!prompt.questions[questionIndex] || questionIndex !== currentQuestion(prompt)) return { ok: false, note: (t) => t.note.choiceClosed };
  if (page >= pageCount) return { ok: false, note: (t) => t.note.wrongButton };
  prompt.pages[questionIndex] = page;
  return { ok: true, note: (t) => t.note.page(page + 1, pageCount) };
}

/** "Done" on a multiple-choice question: its ticked options become its answer. */
export function confirmTicked(prompt: QuestionPrompt, questionIndex: number): TapResult {
  const question = prompt.questions[questionIndex];
  if (!question || questionIndex !== currentQuestion(prompt)) return { ok: false, note: (t) => t.note.choiceClosed };
  const ticked = [...prompt.ticked[questionIndex]!].sort((a, b) => a - b);
  if (ticked.length === 0) return { ok: false, note: (t) => t.note.pickOne };
  prompt.dismissArmed = false;
  prompt.notice = undefined;
  prompt.answers[questionIndex] = ticked.map((index) => question.options[index]!.label);
  return { ok: true, note: (t) => t.note.done };
}

/** Typed text answers a question; on a multiple-choice question it joins the ticked options. */
export function typeAnswer(prompt: QuestionPrompt, questionIndex: number, text: string): TapResult {
  const question = prompt.questions[questionIndex];
  const answer = text.trim();
  if (!question || questionIndex !== currentQuestion(prompt)) return { ok: false, note: (t) => t.note.alreadyAnswered };
  if (!question.custom) return { ok: false, note: (t) => t.note.onlyOptions };
  if (!answer) return { ok: false, note: (t) => t.note.emptyAnswer };
  prompt.dismissArmed = false;
  prompt.notice = undefined;
  const ticked = question.multiple ? [...prompt.ticked[questionIndex]!].sort((a, b) => a - b).map((index) => question.options[index]!.label) : [];
  prompt.answers[questionIndex] = [...ticked, answer];
  return { ok: true, note: (t) => t.note.answerReceived };
}

/** Dismiss's first tap: the prompt asks for Confirm. */
export function armDismiss(prompt: QuestionPrompt): void {
  prompt.dismissArmed = true;
}

/** Answers OpenCode would refuse (see answers.ts): the last one is taken back, and the prompt says why. */
export function refuseAnswers(prompt: QuestionPrompt, detail: string): void {
  prompt.notice = (t) => t.note.invalidAnswer(detail);
  reopenLastAnswer(prompt);
}

/** Takes back the last answer so a failed reply can be retried with one more tap. */
export function reopenLastAnswer(prompt: QuestionPrompt): void {
  for (let index = prompt.answers.length - 1; index >= 0; index--) {
    if (prompt.answers[index] !== undefined) {
      prompt.answers[index] = undefined;
      return;
    }
  }
}
