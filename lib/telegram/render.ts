// Renders a question prompt to a Telegram message: HTML text and inline keyboard. Pure.
import type { QuestionPrompt } from "../registry/question-prompt.ts";
import { currentQuestion } from "../registry/question-prompt.ts";
import { encodeCallback } from "./codec.ts";
import { cutHtml, cutText, escapeHtml } from "./html.ts";
import { contextLine, type PromptContext } from "./render-context.ts";

export interface InlineButton {
  text: string;
  callback_data: string;
}

export interface RenderedMessage {
  text: string;
  /** Empty when the prompt is finished: the message keeps no live buttons. */
  keyboard: InlineButton[][];
}

export type { PromptContext } from "./render-context.ts";

export const BUTTON = {
  done: "Done",
  type: "Type an answer",
  dismiss: "Dismiss",
  confirm: "Confirm",
} as const;

const LIMITS = { question: 1500, header: 100, label: 200, description: 300, answer: 600, button: 60 };

export function renderQuestion(prompt: QuestionPrompt, context: PromptContext): RenderedMessage {
  const lines: string[] = [statusLine(prompt), contextLine(context), ""];
  const current = prompt.state === "pending" && !prompt.busy ? currentQuestion(prompt) : -1;
  const count = prompt.questions.length;

  prompt.questions.forEach((question, index) => {
    const number = count > 1 ? `${index + 1}/${count} · ` : "";
    const marker = index === current && count > 1 ? "▶ " : "";
    const hint = question.multiple ? " <i>(choose any, then Done)</i>" : "";
    lines.push(`${marker}<b>${escapeHtml(number + cutText(question.header || "Question", LIMITS.header))}</b>${hint}`);
    lines.push(escapeHtml(cutText(question.question, LIMITS.question)));
    for (const option of question.options) {
      const description = option.description ? ` — ${escapeHtml(cutText(option.description, LIMITS.description))}` : "";
      lines.push(`• <b>${escapeHtml(cutText(option.label, LIMITS.label))}</b>${description}`);
    }
    const answer = answerFor(prompt, index);
    if (answer) lines.push(`<b>→ ${escapeHtml(cutText(answer.join(", "), LIMITS.answer))}</b>`);
    lines.push("");
  });

  if (prompt.notice) lines.push(`⚠️ ${escapeHtml(prompt.notice)}`);
  if (current !== -1 && prompt.dismissArmed) lines.push("⚠️ Dismissing stops the agent's run. Tap <b>Confirm</b> to dismiss, or pick an answer.");
  const text = cutHtml(lines.join("\n").trim());
  return { text, keyboard: current === -1 ? [] : keyboardFor(prompt, current) };
}

function statusLine(prompt: QuestionPrompt): string {
  switch (prompt.state) {
    case "pending":
      return prompt.busy ? "⏳ <b>Sending your answer…</b>" : "❓ <b>OpenCode is asking</b>";
    case "answered":
      return "✅ <b>Answered from Telegram</b>";
    case "answered_elsewhere":
      return "✅ <b>Answered in the terminal</b>";
    case "dismissed":
      return "🚫 <b>Dismissed from Telegram</b>";
    case "dismissed_elsewhere":
      return "🚫 <b>Dismissed in the terminal</b>";
    case "expired":
      return "⌛ <b>Expired</b>: nobody answered in time, so the question was dismissed";
    case "gone":
      return "⚪ <b>No longer pending</b>: OpenCode closed this question";
  }
}

/** The answer shown under a question: what OpenCode recorded if known, else what the user picked. */
function answerFor(prompt: QuestionPrompt, index: number): string[] | undefined {
  return prompt.finalAnswers?.[index] ?? prompt.answers[index];
}

function keyboardFor(prompt: QuestionPrompt, index: number): InlineButton[][] {
  const question = prompt.questions[index]!;
  const key = prompt.key;
  const rows: InlineButton[][] = question.options.map((option, optionIndex) => {
    const ticked = question.multiple && prompt.ticked[index]!.has(optionIndex) ? "✅ " : "";
    return [{ text: ticked + cutText(option.label, LIMITS.button), callback_data: encodeCallback({ key, action: "option", question: index, option: optionIndex }) }];
  });
  const last: InlineButton[] = [];
  if (question.multiple) last.push({ text: BUTTON.done, callback_data: encodeCallback({ key, action: "done", question: index, option: 0 }) });
  if (question.custom) last.push({ text: BUTTON.type, callback_data: encodeCallback({ key, action: "type", question: index, option: 0 }) });
  if (last.length) rows.push(last);
  rows.push([
    prompt.dismissArmed
      ? { text: BUTTON.confirm, callback_data: encodeCallback({ key, action: "confirm", question: 0, option: 0 }) }
      : { text: BUTTON.dismiss, callback_data: encodeCallback({ key, action: "dismiss", question: 0, option: 0 }) },
  ]);
  return rows;
}
