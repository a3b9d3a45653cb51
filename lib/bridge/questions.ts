// Question prompts: taps build the answers, a complete set goes to OpenCode, Dismiss rejects.
import type { Outcome } from "../opencode/api.ts";
import { validateAnswers } from "../registry/answers.ts";
import {
  confirmTicked,
  currentQuestion,
  isComplete,
  reopenLastAnswer,
  tapOption,
  turnPage,
  typeAnswer,
  type QuestionPrompt,
} from "../registry/question-prompt.ts";
import type { CallbackData } from "../telegram/codec.ts";
import { escapeHtml } from "../telegram/html.ts";
import { pageCount } from "../telegram/option-pages.ts";
import type { Desk, Tap } from "./desk.ts";

export function tapQuestion(desk: Desk, prompt: QuestionPrompt, data: CallbackData): Tap {
  const proceed = () => (isComplete(prompt) ? submitQuestion(desk, prompt) : desk.refresh(prompt));
  switch (data.action) {
    case "option": {
      const result = tapOption(prompt, data.question, data.option);
      return result.ok ? { ...result, then: proceed } : result;
    }
    case "page": {
      const question = prompt.questions[data.question];
      const result = turnPage(prompt, data.question, data.option, pageCount(question?.options.length ?? 0));
      return result.ok ? { ...result, then: () => desk.refresh(prompt) } : result;
    }
    case "done": {
      const result = confirmTicked(prompt, data.question);
      return result.ok ? { ...result, then: proceed } : result;
    }
    case "type": {
      const question = prompt.questions[data.question];
      if (data.question !== currentQuestion(prompt) || !question?.custom) return { ok: false, note: (t) => t.note.alreadyAnswered };
      return { ok: true, note: (t) => t.note.replyWithAnswer, then: () => desk.askForText(prompt, data.question, question.header || question.question) };
    }
    case "dismiss":
      prompt.dismissArmed = true;
      return { ok: true, note: (t) => t.note.tapConfirm, then: () => desk.refresh(prompt) };
    case "confirm":
      if (!prompt.dismissArmed) return { ok: false, note: (t) => t.note.tapDismissFirst };
      return { ok: true, note: (t) => t.note.dismissing, then: () => dismissQuestion(desk, prompt) };
    default:
      return { ok: false, note: (t) => t.note.wrongButton };
  }
}

export async function typeQuestionAnswer(desk: Desk, prompt: QuestionPrompt, questionIndex: number, text: string, replyTo: number): Promise<void> {
  const result = typeAnswer(prompt, questionIndex, text);
  if (!result.ok) {
    await desk.reply(`⚠️ ${escapeHtml(result.note(desk.t))}`, replyTo);
    return;
  }
  await (isComplete(prompt) ? submitQuestion(desk, prompt) : desk.refresh(prompt));
}

async function submitQuestion(desk: Desk, prompt: QuestionPrompt): Promise<void> {
  if (prompt.state !== "pending") return;
  const checked = validateAnswers(prompt.questions, prompt.answers);
  if (!checked.ok) {
    const detail = checked.error;
    prompt.notice = (t) => t.note.invalidAnswer(detail);
    reopenLastAnswer(prompt);
    return desk.refresh(prompt);
  }
  prompt.sentAnswers = checked.answers;
  await send(desk, prompt, "reply", (link) => link.opencode.replyQuestion(prompt.requestID, checked.answers));
}

export async function dismissQuestion(desk: Desk, prompt: QuestionPrompt): Promise<void> {
  if (prompt.state !== "pending") return;
  prompt.sentAnswers = undefined;
  prompt.dismissArmed = false;
  await send(desk, prompt, "dismiss", (link) => link.opencode.rejectQuestion(prompt.requestID));
}

/** Sends a reply or a dismissal, waits for OpenCode to confirm it, and shows the outcome. */
async function send(desk: Desk, prompt: QuestionPrompt, what: "reply" | "dismiss", call: (link: NonNullable<ReturnType<Desk["linkFor"]>>) => Promise<Outcome>): Promise<void> {
  const link = desk.linkFor(prompt.directory);
  if (!link) return desk.settle(prompt, "gone");
  prompt.busy = true;
  const outcome = await desk.sending(prompt, async (): Promise<Outcome> => {
    const sent = await call(link);
    return sent.ok && !(await desk.confirm(prompt)) ? { ok: false, gone: false, error: desk.t.note.notApplied } : sent;
  });
  prompt.busy = false;
  desk.log.info({ requestID: prompt.requestID, what, outcome }, "question answer sent");
  if (prompt.state !== "pending") return; // settled meanwhile by an event
  if (outcome.ok) {
    if (what === "reply") prompt.finalAnswers = prompt.sentAnswers;
    return desk.settle(prompt, what === "reply" ? "answered" : "dismissed");
  }
  if (outcome.gone) return desk.settle(prompt, "gone");
  // Keep it answerable: the user sees why and can tap again.
  const error = outcome.error;
  prompt.notice = (t) => t.note.unreachable(error);
  if (what === "reply") reopenLastAnswer(prompt);
  await desk.refresh(prompt);
}
