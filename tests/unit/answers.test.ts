import { describe, expect, it } from "vitest";
import { validateAnswers } from "../../lib/registry/answers.ts";
import { createQuestionPrompt, tapOption } from "../../lib/registry/question-prompt.ts";
import type { QuestionInfo } from "../../lib/hermes-events.ts";

const single: QuestionInfo = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "" },
    { label: "Blue", description: "" },
  ],
  multiple: false,
  custom: true,
};
const multi: QuestionInfo = {
  question: "Which sizes?",
  header: "Sizes",
  options: [
    { label: "S", description: "" },
    { label: "L", description: "" },
  ],
  multiple: true,
  custom: true,
};
const closed: QuestionInfo = { ...single, header: "Closed", custom: false };
const closedMulti: QuestionInfo = { ...multi, header: "ClosedMulti", custom: false };

describe("validateAnswers", () => {
  it("accepts one answer per question and returns them trimmed", () => {
    expect(validateAnswers([single, multi, closed], [[" Red "], ["S", " custom \n"], ["Blue"]])).toEqual({
      ok: true,
      answers: [["Red"], ["S", "custom"], ["Blue"]],
    });
  });

  it("accepts an empty question list with no answers", () => {
    expect(validateAnswers([], [])).toEqual({ ok: true, answers: [] });
  });

  it("returns fresh arrays, not the caller's", () => {
    const answer = ["Red"];
    const result = validateAnswers([single], [answer]);
    expect(result.ok && result.answers[0]).not.toBe(answer);
  });

  it.each<[number, number]>([
    [1, 0],
    [1, 2],
    [2, 1],
    [0, 1],
  ])("rejects %i question(s) with %i answer(s)", (questions, answers) => {
    const result = validateAnswers(Array(questions).fill(single), Array(answers).fill(["Red"]));
    expect(result).toEqual({ ok: false, error: `expected ${questions} answer(s), got ${answers}` });
  });

  it("rejects a missing or empty answer, naming the question by header", () => {
    expect(validateAnswers([single, multi], [["Red"], undefined])).toEqual({ ok: false, error: '"Sizes" has no answer yet' });
    expect(validateAnswers([single, multi], [["Red"], []])).toEqual({ ok: false, error: '"Sizes" has no answer yet' });
  });

  it("names a question without header by its position", () => {
    expect(validateAnswers([single, { ...single, header: "" }], [["Red"], undefined])).toEqual({ ok: false, error: '"question 2" has no answer yet' });
  });

  it.each([[[""]], [["   "]], [["\n\t"]], [["S", " "]]])("rejects blank items %j", (answer) => {
    const result = validateAnswers([multi], [answer]);
    expect(result).toEqual({ ok: false, error: '"Sizes" has an empty answer' });
  });

  it("rejects two answers to a single-choice question", () => {
    expect(validateAnswers([single], [["Red", "Blue"]])).toEqual({ ok: false, error: '"Color" takes one answer, got 2' });
  });

  it("accepts several answers to a multiple-choice question", () => {
    expect(validateAnswers([multi], [["S", "L", "XL"]])).toEqual({ ok: true, answers: [["S", "L", "XL"]] });
  });

  it("rejects foreign text when custom is false", () => {
    expect(validateAnswers([closed], [["Green"]])).toEqual({ ok: false, error: '"Closed" only accepts its options' });
    expect(validateAnswers([closedMulti], [["S", "XL"]])).toEqual({ ok: false, error: '"ClosedMulti" only accepts its options' });
    expect(validateAnswers([closed], [["red"]])).toEqual({ ok: false, error: '"Closed" only accepts its options' });
  });

  it("accepts option labels (even padded) when custom is false", () => {
    expect(validateAnswers([closed], [[" Blue "]])).toEqual({ ok: true, answers: [["Blue"]] });
    expect(validateAnswers([closedMulti], [["S", "L"]])).toEqual({ ok: true, answers: [["S", "L"]] });
  });

  it("is not fooled by inherited property names when custom is false", () => {
    expect(validateAnswers([closed], [["constructor"]]).ok).toBe(false);
    expect(validateAnswers([closed], [["__proto__"]]).ok).toBe(false);
  });

  it("reports the first failing question", () => {
    const result = validateAnswers([single, closed, multi], [["Red", "Blue"], ["Green"], []]);
    expect(result).toEqual({ ok: false, error: '"Color" takes one answer, got 2' });
  });

  // BUG: a custom:false question whose option label has surrounding whitespace (" Red ", as
  // OpenCode passes LLM-written labels through untouched) can never be answered from Telegram:
  // tapping the option records the exact label, validateAnswers trims it to "Red" and then looks
  // it up in the set of *untrimmed* labels, so it fails with "only accepts its options"
  // (lib/registry/answers.ts:19-20). With custom:true the answer is sent trimmed, no longer equal
  // to the option label. Fix: compare against trimmed labels
  // (`new Set(question.options.map((option) => option.label.trim()))`).
  it("accepts the answer produced by tapping an option whose label has surrounding spaces", () => {
    const padded: QuestionInfo = {
      ...closed,
      options: [
        { label: " Red ", description: "" },
        { label: "Blue", description: "" },
      ],
    };
    const prompt = createQuestionPrompt({ id: "que_1", sessionID: "ses_1", questions: [padded] }, "/d", "KEYKEY12", 0);
    expect(tapOption(prompt, 0, 0).ok).toBe(true);
    expect(validateAnswers(prompt.questions, prompt.answers).ok).toBe(true);
  });
});
