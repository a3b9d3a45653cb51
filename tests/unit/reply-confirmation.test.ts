import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CASCADE_WINDOW_MS, ReplyConfirmation } from "../../lib/bridge/prompts/reply-confirmation.ts";
import { createPermissionPrompt, type PermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { createQuestionPrompt, type QuestionPrompt } from "../../lib/registry/question-prompt.ts";
import type { Prompt } from "../../lib/registry/registry.ts";
import { colorQuestion } from "../support/fixtures.ts";

const DIRECTORY = "/home/dev/project";

function questionPrompt(id = "que_1"): QuestionPrompt {
  return createQuestionPrompt({ id, sessionID: "ses_1", questions: [colorQuestion()] }, DIRECTORY, `k${id}`, 0);
}

function permissionPrompt(id: string, sessionID = "ses_1"): PermissionPrompt {
  return createPermissionPrompt({ id, sessionID, permission: "bash", patterns: ["ls"], always: ["ls *"], metadata: {} }, DIRECTORY, `k${id}`, 0);
}

describe("ReplyConfirmation", () => {
  let clock: number;
  let pending: Set<string>;
  let asked: string[];
  let replies: ReplyConfirmation;

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1_000_000;
    pending = new Set();
    asked = [];
    replies = new ReplyConfirmation({
      timeoutMs: 3_000,
      now: () => clock,
      links: {
        stillPending: async (prompt: Prompt) => {
          asked.push(prompt.requestID);
          return pending.has(prompt.requestID);
        },
      },
    });
  });

  afterEach(() => vi.useRealTimers());

  it("confirms a reply when its own echo arrives, without asking the pending list", async () => {
    const prompt = questionPrompt();
    prompt.busy = true;
    prompt.sentAnswers = [["Red"]];
    const confirmed = replies.confirm(prompt);
    expect(replies.questionReplied(prompt, [["Red"]])).toBe(true);
    await expect(confirmed).resolves.toBe(true);
    expect(asked).toEqual([]);
  });

  it("keeps an echo that beat the wait, once", async () => {
    const prompt = questionPrompt();
    prompt.busy = true;
    expect(replies.questionReplied(prompt, undefined)).toBe(true); // our dismissal's echo, before confirm()
    await expect(replies.confirm(prompt)).resolves.toBe(true);
    // Used up: the next confirmation waits again and falls back to the pending list.
    pending.add(prompt.requestID);
    const again = replies.confirm(prompt);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(again).resolves.toBe(false);
  });

  it("drops an unclaimed echo when the prompt settles", async () => {
    const prompt = questionPrompt();
    prompt.busy = true;
    replies.questionReplied(prompt, undefined);
    replies.settled(prompt.requestID);
    const confirmed = replies.confirm(prompt);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(confirmed).resolves.toBe(true); // decided by the list (not pending), not by the dropped echo
    expect(asked).toEqual([prompt.requestID]);
  });

  it("without an echo, asks the pending list after the timeout: still listed means the reply did not take", async () => {
    const kept = questionPrompt("que_kept");
    const taken = questionPrompt("que_taken");
    pending.add("que_kept");
    const first = replies.confirm(kept);
    const second = replies.confirm(taken);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
  });

  it("tells another client's answer from our own", () => {
    const prompt = questionPrompt();
    expect(replies.questionReplied(prompt, [["Red"]])).toBe(false); // not busy: not ours
    prompt.busy = true;
    prompt.sentAnswers = [["Blue"]];
    expect(replies.questionReplied(prompt, [["Red"]])).toBe(false);
    expect(replies.questionReplied(prompt, undefined)).toBe(false); // we answered, someone dismissed
  });

  it("names who made a permission reply: our echo, OpenCode's cascade within the window, or another client", async () => {
    const ours = permissionPrompt("per_1");
    ours.busy = true;
    ours.sent = { reply: "once" };
    const confirmed = replies.confirm(ours);
    expect(replies.permissionReplied("ses_1", "per_1", "once", ours)).toBe("own");
    await expect(confirmed).resolves.toBe(true);
    clock += 100;
    expect(replies.permissionReplied("ses_1", "per_2", "always", permissionPrompt("per_2"))).toBe("cascade");
    expect(replies.permissionReplied("ses_1", "per_3", "reject", permissionPrompt("per_3"))).toBe("elsewhere"); // a reject doesn't follow an allow
    clock += CASCADE_WINDOW_MS + 1;
    expect(replies.permissionReplied("ses_1", "per_4", "reject", permissionPrompt("per_4"))).toBe("elsewhere");
    expect(replies.permissionReplied("ses_2", "per_5", "reject", undefined)).toBe("elsewhere");
  });

  it("keeps no permission decision past the cascade window (no growth with the number of sessions)", () => {
    for (let index = 0; index < 1_000; index++) {
      replies.permissionReplied(`ses_${index}`, `per_${index}`, "once", undefined);
      clock += CASCADE_WINDOW_MS + 1;
    }
    expect(replies.rememberedDecisions).toBe(1);
    replies.permissionReplied("ses_a", "per_a", "once", undefined);
    replies.permissionReplied("ses_b", "per_b", "once", undefined);
    replies.forgetSession("ses_a");
    expect(replies.rememberedDecisions).toBe(1); // ses_b: the loop's last one expired, ses_a is gone with its session
  });
});
