import { describe, expect, it } from "vitest";
import type { PromptDesk, Tap } from "../../lib/bridge/core/desk.ts";
import { tapPermission } from "../../lib/bridge/prompts/permissions.ts";
import { tapQuestion } from "../../lib/bridge/prompts/questions.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { createPermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import { colorQuestion } from "../support/fixtures.ts";

/** A desk that only counts what a tap's work would do. */
function countingDesk(): { desk: PromptDesk; calls: string[] } {
  const calls: string[] = [];
  const desk: PromptDesk = {
    t: CATALOGS.en,
    refresh: async () => void calls.push("refresh"),
    reply: async () => void calls.push("reply"),
    askForText: async () => void calls.push("askForText"),
    answerQuestion: async () => void calls.push("answerQuestion"),
    decidePermission: async () => void calls.push("decidePermission"),
    allowInSession: async () => void calls.push("allowInSession"),
  };
  return { desk, calls };
}

/** Hands the tap to a promise, as `await tap` would, and lets every microtask run. */
async function settleAsAwaited(tap: Tap): Promise<void> {
  void Promise.resolve(tap);
  await new Promise((resolve) => setImmediate(resolve));
}

describe("a tap's outcome is a plain value, not a thenable", () => {
  it("a permission tap's work runs only when called, never because the outcome was awaited", async () => {
    const { desk, calls } = countingDesk();
    const request = { id: "per_1", sessionID: "ses_1", permission: "bash", patterns: ["ls"], always: [], metadata: {} };
    const prompt = createPermissionPrompt(request, "/a", "KeyKey12", 0);
    const tap = tapPermission(desk, prompt, { key: "KeyKey12", action: "reject", question: 0, option: 0 });
    expect(tap.ok).toBe(true);
    expect("then" in tap).toBe(false);
    await settleAsAwaited(tap);
    expect(calls).toEqual([]);
    await tap.next?.();
    expect(calls).toEqual(["decidePermission"]);
  });

  it("a question tap's work runs only when called", async () => {
    const { desk, calls } = countingDesk();
    const prompt = createQuestionPrompt({ id: "que_1", sessionID: "ses_1", questions: [colorQuestion()] }, "/a", "KeyKey12", 0);
    const tap = tapQuestion(desk, prompt, { key: "KeyKey12", action: "dismiss", question: 0, option: 0 });
    expect(tap.ok).toBe(true);
    expect("then" in tap).toBe(false);
    await settleAsAwaited(tap);
    expect(calls).toEqual([]);
    await tap.next?.();
    expect(calls).toEqual(["refresh"]);
  });
});
