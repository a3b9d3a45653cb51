// Validates a full reply before it goes to OpenCode: one non-empty answer per question, in order.
import type { QuestionInfo } from "../hermes-events.ts";

export type AnswerCheck = { ok: true; answers: string[][] } | { ok: false; error: string };

export function validateAnswers(questions: readonly QuestionInfo[], answers: readonly (readonly string[] | undefined)[]): AnswerCheck {
  if (answers.length !== questions.length) {
    return { ok: false, error: `expected ${questions.length} answer(s), got ${answers.length}` };
  }
  const out: string[][] = [];
  for (const [index, question] of questions.entries()) {
    const answer = answers[index];
    const label = question.header || `question ${index + 1}`;
    if (!answer || answer.length === 0) return { ok: false, error: `"${label}" has no answer yet` };
    const cleaned = answer.map((item) => item.trim());
    if (cleaned.some((item) => item === "")) return { ok: false, error: `"${label}" has an empty answer` };
    if (!question.multiple && cleaned.length > 1) return { ok: false, error: `"${label}" takes one answer, got ${cleaned.length}` };
    if (!question.custom) {
      const labels = new Set(question.options.map((option) => option.label.trim()));
      const foreign = cleaned.find((item) => !labels.has(item));
      if (foreign !== undefined) return { ok: false, error: `"${label}" only accepts its options` };
    }
    out.push(cleaned);
  }
  return { ok: true, answers: out };
}
