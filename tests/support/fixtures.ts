// Shared test data: the question most tests ask.
import type { QuestionInfo } from "../../lib/hermes-events.ts";

export function colorQuestion(overrides: Partial<QuestionInfo> = {}): QuestionInfo {
  return {
    question: "Which color?",
    header: "Color",
    options: [
      { label: "Red", description: "warm" },
      { label: "Blue", description: "cool" },
    ],
    multiple: false,
    custom: true,
    ...overrides,
  };
}
