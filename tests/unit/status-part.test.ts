import { describe, expect, it } from "vitest";
import { parseStatusPart } from "../../lib/bridge/bot/status-part.ts";

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

  it("refuses what is no part at all", () => {
    for (const bad of [null, [], { sessions: [] }, { prompts: [] }, { sessions: {}, prompts: [] }])
      expect(parseStatusPart(bad), JSON.stringify(bad)).toBeUndefined();
  });

  it("a bad field drops the field, a bad entry the entry, never the part: a chat id that is not a number never gets through", () => {
    const prompt = { kind: "question", summary: "s", project: "p", chatId: 1 };
    const good = { busy: true, title: "kept" };
    const sessions = (...entries: unknown[]) => parseStatusPart({ sessions: [...entries, good], prompts: [prompt] });
    for (const [entry, kept] of [
      [{}, []],
      [{ busy: "yes" }, []],
      [{ busy: true, busyMs: -1 }, [{ busy: true }]],
      [{ busy: true, title: 5, project: "p" }, [{ busy: true, project: "p" }]],
      [{ busy: true, context: { tokens: "5" } }, [{ busy: true }]],
      [{ busy: true, context: { tokens: 5, window: -1 } }, [{ busy: true, context: { tokens: 5 } }]],
      [{ busy: true, context: 41 }, [{ busy: true }]],
    ] as const) {
      expect(sessions(entry), JSON.stringify(entry)).toEqual({ sessions: [...kept, good], prompts: [prompt] });
    }
    for (const [entry, kept] of [
      [{ ...prompt, chatId: '1"><a href="https://evil.example">' }, []],
      [{ ...prompt, chatId: 1.5 }, []],
      [{ ...prompt, kind: "other" }, []],
      [{ ...prompt, summary: 5 }, []],
      [{ ...prompt, messageId: "4" }, [prompt]],
      [{ ...prompt, title: {} }, [prompt]],
    ] as const) {
      expect(parseStatusPart({ sessions: [good], prompts: [entry, prompt] }), JSON.stringify(entry)).toEqual({ sessions: [good], prompts: [...kept, prompt] });
    }
  });

  it("a context count past 2^53 is clamped: the process' busy sessions and pending prompts stay", () => {
    const part = parseStatusPart({
      sessions: [{ busy: true, title: "huge", context: { tokens: 2 ** 60, window: 1e300 } }],
      prompts: [{ kind: "permission", summary: "rm -rf", project: "p", chatId: 1 }],
    });
    expect(part).toEqual({
      sessions: [{ busy: true, title: "huge", context: { tokens: Number.MAX_SAFE_INTEGER, window: Number.MAX_SAFE_INTEGER } }],
      prompts: [{ kind: "permission", summary: "rm -rf", project: "p", chatId: 1 }],
    });
    expect(parseStatusPart({ sessions: [{ busy: true, context: { tokens: Number.POSITIVE_INFINITY } }], prompts: [] })).toEqual({
      sessions: [{ busy: true }],
      prompts: [],
    });
  });

  it("cuts floods: at most 500 entries, texts of at most 1000 characters", () => {
    const part = parseStatusPart({ sessions: Array.from({ length: 5_000 }, () => ({ busy: false, title: "x".repeat(50_000) })), prompts: [] });
    expect(part?.sessions).toHaveLength(500);
    expect(part?.sessions[0]?.title).toHaveLength(1_000);
  });
});
