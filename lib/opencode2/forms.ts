// How an answer from the phone becomes an OpenCode 2 form reply. The bridge answers in 1.x terms
// (one list of chosen labels or typed text per question); a form wants `{ q0: "Red", q1: ["S"] }`,
// a string for a single-choice field and a list for a multiselect, with option values, not labels.
import type { QuestionForm } from "./events.ts";

export type FormAnswer = Record<string, string | string[]>;

export function formAnswer(form: QuestionForm, answers: string[][]): FormAnswer {
  const answer: FormAnswer = {};
  form.fields.forEach((field, index) => {
    const chosen = (answers[index] ?? []).map((label) => field.options.find((option) => option.label === label)?.value ?? label);
    answer[field.key] = field.multiple ? chosen : chosen.join(", ");
  });
  return answer;
}
