import { describe, expect, it } from "vitest";
import {
  armDismiss,
  confirmTicked,
  createQuestionPrompt,
  currentQuestion,
  isComplete,
  refuseAnswers,
  reopenLastAnswer,
  tapOption,
  typeAnswer,
  type QuestionPrompt,
} from "../../lib/registry/question-prompt.ts";
import type { QuestionInfo, QuestionRequest } from "../../lib/hermes-events.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { TapResult } from "../../lib/registry/question-prompt.ts";

/** The tap's note, worded in English. */
const worded = (result: TapResult) => ({ ok: result.ok, note: result.note(CATALOGS.en) });

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
    { label: "M", description: "" },
    { label: "L", description: "" },
  ],
  multiple: true,
  custom: true,
};
const closed: QuestionInfo = { ...single, header: "Closed", custom: false };

function make(questions: QuestionInfo[]): QuestionPrompt {
  return createQuestionPrompt({ id: "que_1", sessionID: "ses_1", questions }, "/dir", "KEYKEY12", 1234);
}

describe("createQuestionPrompt", () => {
  it("starts pending with no answers, nothing ticked, not armed, not busy", () => {
    const request: QuestionRequest = { id: "que_1", sessionID: "ses_1", questions: [single, multi] };
    const prompt = createQuestionPrompt(request, "/dir", "KEYKEY12", 1234);
    expect(prompt).toEqual({
      kind: "question",
      key: "KEYKEY12",
      requestID: "que_1",
      sessionID: "ses_1",
      directory: "/dir",
      questions: [single, multi],
      createdAt: 1234,
      state: "pending",
      answers: [undefined, undefined],
      ticked: [new Set(), new Set()],
      pages: [0, 0],
      dismissArmed: false,
      busy: false,
    });
  });

  it("gives each question its own ticked set", () => {
    const prompt = make([multi, multi]);
    prompt.ticked[0]!.add(1);
    expect(prompt.ticked[1]!.size).toBe(0);
  });
});

describe("currentQuestion / isComplete", () => {
  it("is the first unanswered question", () => {
    const prompt = make([single, single, single]);
    expect(currentQuestion(prompt)).toBe(0);
    prompt.answers[0] = ["Red"];
    expect(currentQuestion(prompt)).toBe(1);
    prompt.answers[2] = ["Red"];
    expect(currentQuestion(prompt)).toBe(1);
    expect(isComplete(prompt)).toBe(false);
    prompt.answers[1] = ["Blue"];
    expect(currentQuestion(prompt)).toBe(-1);
    expect(isComplete(prompt)).toBe(true);
  });

  it("a prompt without questions is complete", () => {
    const prompt = make([]);
    expect(currentQuestion(prompt)).toBe(-1);
    expect(isComplete(prompt)).toBe(true);
  });
});

describe("tapOption", () => {
  it("answers a single-choice question with the option label", () => {
    const prompt = make([single, multi]);
    expect(worded(tapOption(prompt, 0, 1))).toEqual({ ok: true, note: "Chosen: Blue" });
    expect(prompt.answers).toEqual([["Blue"], undefined]);
    expect(currentQuestion(prompt)).toBe(1);
  });

  it("toggles options of a multiple-choice question without answering it", () => {
    const prompt = make([multi]);
    expect(worded(tapOption(prompt, 0, 2))).toEqual({ ok: true, note: "Selected: L" });
    expect(worded(tapOption(prompt, 0, 0))).toEqual({ ok: true, note: "Selected: S" });
    expect([...prompt.ticked[0]!].sort()).toEqual([0, 2]);
    expect(worded(tapOption(prompt, 0, 2))).toEqual({ ok: true, note: "Unselected: L" });
    expect([...prompt.ticked[0]!]).toEqual([0]);
    expect(prompt.answers).toEqual([undefined]);
  });

  it("disarms Dismiss and clears the notice", () => {
    const prompt = make([single]);
    prompt.dismissArmed = true;
    prompt.notice = () => "failed";
    tapOption(prompt, 0, 0);
    expect(prompt.dismissArmed).toBe(false);
    expect(prompt.notice).toBeUndefined();
  });

  it.each([
    ["an answered question", 0, 0],
    ["a later question", 2, 0],
    ["a missing question", 9, 0],
    ["a negative question", -1, 0],
    ["a missing option", 1, 5],
    ["a negative option", 1, -1],
    ["a fractional option", 1, 0.5],
    ["a NaN option", 1, NaN],
  ])("refuses %s and changes nothing", (_name, question, option) => {
    const prompt = make([single, single, single]);
    prompt.answers[0] = ["Red"];
    prompt.dismissArmed = true;
    const before = structuredClone(prompt);
    expect(worded(tapOption(prompt, question, option))).toEqual({ ok: false, note: "That choice is no longer open" });
    expect(prompt).toEqual(before);
  });
});

describe("confirmTicked", () => {
  it("answers with the ticked labels in option order", () => {
    const prompt = make([multi, single]);
    tapOption(prompt, 0, 2);
    tapOption(prompt, 0, 0);
    prompt.dismissArmed = true;
    expect(worded(confirmTicked(prompt, 0))).toEqual({ ok: true, note: "Done" });
    expect(prompt.answers[0]).toEqual(["S", "L"]);
    expect(prompt.dismissArmed).toBe(false);
    expect(currentQuestion(prompt)).toBe(1);
  });

  it("needs at least one ticked option", () => {
    const prompt = make([multi]);
    expect(worded(confirmTicked(prompt, 0))).toEqual({ ok: false, note: "Pick at least one option, or type an answer" });
    expect(prompt.answers[0]).toBeUndefined();
  });

  it("refuses a question that is not current", () => {
    const prompt = make([multi, multi]);
    prompt.ticked[1]!.add(0);
    expect(worded(confirmTicked(prompt, 1))).toEqual({ ok: false, note: "That choice is no longer open" });
    expect(worded(confirmTicked(prompt, 7))).toEqual({ ok: false, note: "That choice is no longer open" });
    expect(prompt.answers).toEqual([undefined, undefined]);
  });

  it("refuses a second Done on an answered question", () => {
    const prompt = make([multi, multi]);
    tapOption(prompt, 0, 1);
    confirmTicked(prompt, 0);
    expect(confirmTicked(prompt, 0).ok).toBe(false);
    expect(prompt.answers[0]).toEqual(["M"]);
  });
});

describe("typeAnswer", () => {
  it("answers with the trimmed text", () => {
    const prompt = make([single]);
    prompt.notice = () => "x";
    prompt.dismissArmed = true;
    expect(worded(typeAnswer(prompt, 0, "  Green \n"))).toEqual({ ok: true, note: "Answer received" });
    expect(prompt.answers[0]).toEqual(["Green"]);
    expect(prompt.notice).toBeUndefined();
    expect(prompt.dismissArmed).toBe(false);
  });

  it("keeps inner newlines of a multi-line answer", () => {
    const prompt = make([single]);
    typeAnswer(prompt, 0, "line 1\nline 2");
    expect(prompt.answers[0]).toEqual(["line 1\nline 2"]);
  });

  it("joins the ticked options before the typed text on a multiple-choice question", () => {
    const prompt = make([multi]);
    tapOption(prompt, 0, 2);
    tapOption(prompt, 0, 0);
    expect(typeAnswer(prompt, 0, "XL").ok).toBe(true);
    expect(prompt.answers[0]).toEqual(["S", "L", "XL"]);
  });

  it("refuses free text when custom is false", () => {
    const prompt = make([closed]);
    expect(worded(typeAnswer(prompt, 0, "Green"))).toEqual({ ok: false, note: "This question only accepts its options" });
    expect(prompt.answers[0]).toBeUndefined();
  });

  it.each(["", "   ", "\n\t"])("refuses the empty answer %j", (text) => {
    const prompt = make([single]);
    expect(worded(typeAnswer(prompt, 0, text))).toEqual({ ok: false, note: "An empty answer can't be sent" });
    expect(prompt.answers[0]).toBeUndefined();
  });

  it("refuses an answered, later or missing question", () => {
    const prompt = make([single, single]);
    typeAnswer(prompt, 0, "first");
    expect(worded(typeAnswer(prompt, 0, "again"))).toEqual({ ok: false, note: "That question is already answered" });
    expect(prompt.answers[0]).toEqual(["first"]);
    const fresh = make([single, single]);
    expect(typeAnswer(fresh, 1, "skip ahead").ok).toBe(false);
    expect(typeAnswer(fresh, 5, "nowhere").ok).toBe(false);
    expect(fresh.answers).toEqual([undefined, undefined]);
  });
});

describe("reopenLastAnswer", () => {
  it("takes back the last answer only", () => {
    const prompt = make([single, single, single]);
    prompt.answers = [["a"], ["b"], ["c"]];
    reopenLastAnswer(prompt);
    expect(prompt.answers).toEqual([["a"], ["b"], undefined]);
    expect(currentQuestion(prompt)).toBe(2);
    reopenLastAnswer(prompt);
    expect(prompt.answers).toEqual([["a"], undefined, undefined]);
  });

  it("skips trailing unanswered questions", () => {
    const prompt = make([single, single, single]);
    prompt.answers = [["a"], undefined, undefined];
    reopenLastAnswer(prompt);
    expect(prompt.answers).toEqual([undefined, undefined, undefined]);
  });

  it("does nothing when nothing is answered", () => {
    const prompt = make([single, single]);
    reopenLastAnswer(prompt);
    expect(prompt.answers).toEqual([undefined, undefined]);
    const empty = make([]);
    expect(() => reopenLastAnswer(empty)).not.toThrow();
  });

  it("lets the reopened question be answered again with one tap", () => {
    const prompt = make([single]);
    tapOption(prompt, 0, 0);
    reopenLastAnswer(prompt);
    expect(tapOption(prompt, 0, 1).ok).toBe(true);
    expect(prompt.answers[0]).toEqual(["Blue"]);
  });
});

describe("a full session", () => {
  it("answers three questions of every kind in order", () => {
    const prompt = make([single, multi, closed]);
    expect(tapOption(prompt, 1, 0).ok).toBe(false);
    expect(tapOption(prompt, 0, 0).ok).toBe(true);
    expect(tapOption(prompt, 1, 1).ok).toBe(true);
    expect(typeAnswer(prompt, 1, "custom size").ok).toBe(true);
    expect(typeAnswer(prompt, 2, "free").ok).toBe(false);
    expect(tapOption(prompt, 2, 1).ok).toBe(true);
    expect(isComplete(prompt)).toBe(true);
    expect(prompt.answers).toEqual([["Red"], ["M", "custom size"], ["Blue"]]);
  });
});

describe("armDismiss and refuseAnswers", () => {
  it("arms Dismiss until an answer disarms it", () => {
    const prompt = make([single]);
    armDismiss(prompt);
    expect(prompt.dismissArmed).toBe(true);
    tapOption(prompt, 0, 0);
    expect(prompt.dismissArmed).toBe(false);
  });

  it("refused answers: the last one is reopened and the notice says why", () => {
    const prompt = make([single, single]);
    prompt.answers = [["Red"], ["Blue"]];
    refuseAnswers(prompt, '"Color" only accepts its options');
    expect(prompt.answers).toEqual([["Red"], undefined]);
    expect(prompt.notice?.(CATALOGS.en)).toContain('"Color" only accepts its options');
  });
});
