import { describe, expect, it } from "vitest";
import { parseStatusPart } from "../../lib/bridge/status-part.ts";

describe("parseStatusPart (a part of /status from another process)", () => {
  it("accepts the shape render-status expects", () => {
    const part = {
      sessions: [
        { busy: true, busyMs: 1200, title: "t", project: "p", context: { tokens: 82_000, window: 200_000 } },
        { busy: true, context: { tokens: 5 } },
        { busy: false },
      ],
      prompts: [{ kind: "question", summary: "s", project: "p", chatId: -1001, title: "t", messageId: 4 }],
    };
    expect(parseStatusPart(part)).toEqual(part);
  });

  it("refuses anything else: a chat id that is not a number, wrong kinds, missing fields", () => {
    const prompt = { kind: "question", summary: "s", project: "p", chatId: 1 };
    for (const bad of [
      null,
      [],
      { sessions: [] },
      { sessions: [{}], prompts: [] },
      { sessions: [{ busy: "yes" }], prompts: [] },
      { sessions: [{ busy: true, busyMs: -1 }], prompts: [] },
      { sessions: [{ busy: true, context: { tokens: "5" } }], prompts: [] },
      { sessions: [{ busy: true, context: { tokens: 5, window: -1 } }], prompts: [] },
      { sessions: [{ busy: true, context: 41 }], prompts: [] },
      { sessions: [], prompts: [{ ...prompt, chatId: '1"><a href="https://evil.example">' }] },
      { sessions: [], prompts: [{ ...prompt, chatId: 1.5 }] },
      { sessions: [], prompts: [{ ...prompt, kind: "other" }] },
      { sessions: [], prompts: [{ ...prompt, summary: 5 }] },
      { sessions: [], prompts: [{ ...prompt, messageId: "4" }] },
      { sessions: [], prompts: [{ ...prompt, title: {} }] },
    ]) {
      expect(parseStatusPart(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it("cuts floods: at most 500 entries, texts of at most 1000 characters", () => {
    const part = parseStatusPart({ sessions: Array.from({ length: 5_000 }, () => ({ busy: false, title: "x".repeat(50_000) })), prompts: [] });
    expect(part?.sessions).toHaveLength(500);
    expect(part?.sessions[0]?.title).toHaveLength(1_000);
  });
});
