// The answer as it is written, pure: the text from deltas and whole texts, what a draft may show
// (a link being written held back), a group's last lines, and the drafts' pacing.
import { describe, expect, it } from "vitest";
import { draftDue, draftSource, lastLines, NO_ANSWER, reduceAnswer, type AnswerEvent, type AnswerText } from "../../lib/progress/answer-text.ts";

const delta = (delta: string, partID = "p1", messageID = "m1"): AnswerEvent => ({ type: "message.delta", sessionID: "s", messageID, partID, delta });
const whole = (text: string, partID = "p1", messageID = "m1"): AnswerEvent => ({ type: "message.text", sessionID: "s", messageID, partID, text });
const play = (...events: AnswerEvent[]): AnswerText => events.reduce(reduceAnswer, NO_ANSWER);

describe("reduceAnswer", () => {
  it("pieces of a part add up (1.18, 2.x); a new part starts the answer again; the whole text settles it", () => {
    expect(play(delta("Hello "), delta("world")).text).toBe("Hello world");
    expect(play(delta("first"), delta("second", "p2")).text).toBe("second");
    expect(play(delta("Hel"), whole("Hello, settled")).text).toBe("Hello, settled");
  });

  it("1.1.53's whole texts so far count only for an assistant's message: the user's own text part is never the answer", () => {
    const assistant: AnswerEvent = { type: "message.role", sessionID: "s", messageID: "m2", role: "assistant" };
    const user: AnswerEvent = { type: "message.role", sessionID: "s", messageID: "m1", role: "user" };
    expect(play(user, whole("HERMES_TEST my prompt", "u1", "m1")).text).toBe("");
    expect(play(user, assistant, whole("alpha", "a1", "m2"), whole("alpha beta", "a1", "m2")).text).toBe("alpha beta");
  });

  it("the same text again changes nothing (no draft, no edit)", () => {
    const state = play(delta("same"));
    expect(reduceAnswer(state, whole("same"))).toBe(state);
    expect(reduceAnswer(state, delta(""))).toBe(state);
  });
});

describe("draftSource", () => {
  it("holds back a link or image still being written, and nothing else", () => {
    expect(draftSource("See [the docs](https://exa")).toBe("See");
    expect(draftSource("See [the do")).toBe("See");
    expect(draftSource("![chart](http://x")).toBe("");
    expect(draftSource("See [the docs](https://example.com) now")).toBe("See [the docs](https://example.com) now");
    expect(draftSource("```ts\nconst a = 1;")).toBe("```ts\nconst a = 1;");
  });
});

describe("lastLines", () => {
  it("keeps the last non-empty lines", () => {
    expect(lastLines("a\n\nb\nc\n\nd\n", 2)).toBe("c\n\nd");
    expect(lastLines("only", 4)).toBe("only");
  });
});

describe("draftDue", () => {
  it("the first draft at once; the next only when the text changed and a second passed; a 429's wait holds", () => {
    expect(draftDue({}, "a", 1_000, 1_000)).toEqual({ now: true });
    expect(draftDue({ sentAt: 1_000, sent: "a" }, "a", 5_000, 1_000)).toBeUndefined();
    expect(draftDue({ sentAt: 1_000, sent: "a" }, "ab", 1_400, 1_000)).toEqual({ waitMs: 600 });
    expect(draftDue({ sentAt: 1_000, sent: "a" }, "ab", 2_000, 1_000)).toEqual({ now: true });
    expect(draftDue({ sentAt: 1_000, blockedUntil: 9_000 }, "ab", 2_000, 1_000)).toEqual({ waitMs: 7_000 });
    expect(draftDue({}, "", 2_000, 1_000)).toBeUndefined();
  });
});
