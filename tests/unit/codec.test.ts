import { describe, expect, it } from "vitest";
import {
  CALLBACK_ACTIONS,
  CALLBACK_DATA_LIMIT,
  decodeCallback,
  encodeCallback,
  isActionOn,
  type CallbackAction,
  type CallbackData,
} from "../../lib/telegram/codec.ts";

const KEY = "Ab3dEf9H";
const ACTIONS: CallbackAction[] = ["option", "done", "type", "dismiss", "confirm"];

/** What a decoded value looks like: indexes an action doesn't carry come back as 0. */
function canonical(data: CallbackData): CallbackData {
  switch (data.action) {
    case "option":
      return data;
    case "done":
    case "type":
      return { ...data, option: 0 };
    default:
      return { ...data, question: 0, option: 0 };
  }
}

describe("encodeCallback", () => {
  it.each<[CallbackData, string]>([
    [{ key: KEY, action: "option", question: 2, option: 7 }, `h1:${KEY}:o:2:7`],
    [{ key: KEY, action: "done", question: 1, option: 5 }, `h1:${KEY}:d:1`],
    [{ key: KEY, action: "type", question: 3, option: 9 }, `h1:${KEY}:t:3`],
    [{ key: KEY, action: "dismiss", question: 4, option: 4 }, `h1:${KEY}:x`],
    [{ key: KEY, action: "confirm", question: 4, option: 4 }, `h1:${KEY}:c`],
  ])("encodes %j compactly", (data, encoded) => {
    expect(encodeCallback(data)).toBe(encoded);
  });

  it("round-trips every action over a grid of indexes", () => {
    for (const action of ACTIONS) {
      for (const question of [0, 1, 9, 10, 99, 100, 999]) {
        for (const option of [0, 1, 42, 999]) {
          const data: CallbackData = { key: KEY, action, question, option };
          const encoded = encodeCallback(data);
          expect(decodeCallback(encoded)).toEqual(canonical(data));
          expect(Buffer.byteLength(encoded)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
        }
      }
    }
  });

  it("gives every action its own code and one kind of message, and round-trips each", () => {
    const codes = new Set<string>();
    for (const action of CALLBACK_ACTIONS) {
      const encoded = encodeCallback({ key: KEY, action, question: 5, option: 6 });
      codes.add(encoded.split(":")[2]!);
      expect(decodeCallback(encoded)?.action).toBe(action);
      expect(
        [
          isActionOn(action, "question"),
          isActionOn(action, "permission"),
          isActionOn(action, "session"),
          isActionOn(action, "project"),
          isActionOn(action, "choice"),
          isActionOn(action, "listing"),
          isActionOn(action, "run"),
          isActionOn(action, "schedule"),
          isActionOn(action, "vocabulary"),
          isActionOn(action, "git"),
          isActionOn(action, "rule"),
          isActionOn(action, "budget"),
          isActionOn(action, "mcp"),
          isActionOn(action, "shell"),
          isActionOn(action, "pause"),
          isActionOn(action, "stall"),
          isActionOn(action, "queue"),
        ].filter(Boolean),
      ).toHaveLength(1);
    }
    expect(codes.size).toBe(CALLBACK_ACTIONS.length);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "queue"))).toEqual(["queueRemove", "queueSendNow", "queueConfirm", "queueBack"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "question"))).toEqual(["option", "done", "type", "dismiss", "confirm", "page"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "permission"))).toEqual(["once", "always", "reject", "feedback", "session"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "session"))).toEqual(["stop", "halt"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "vocabulary"))).toEqual([
      "commandRun",
      "commandPage",
      "fork",
      "historyPick",
      "historyPage",
      "historyBack",
      "historyConfirm",
      "historyFork",
      "commandSend",
    ]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "run"))).toEqual(["undo", "undoConfirm", "redo"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "schedule"))).toEqual(["scheduleCancel", "scheduleDrop"]);
    expect(CALLBACK_ACTIONS.filter((action) => isActionOn(action, "git"))).toEqual([
      "commit",
      "commitConfirm",
      "push",
      "pushConfirm",
      "pullRequest",
      "removeWorktree",
      "removeConfirm",
    ]);
  });

  it("round-trips keys from 4 to 16 characters", () => {
    for (const key of ["abcd", "ABCDEFGH", "0123456789abcdef", "zZ09"]) {
      expect(decodeCallback(encodeCallback({ key, action: "option", question: 1, option: 2 }))).toEqual({ key, action: "option", question: 1, option: 2 });
    }
  });

  it("stays far below Telegram's 64-byte limit", () => {
    expect(CALLBACK_DATA_LIMIT).toBe(64);
    const longest = encodeCallback({ key: "x".repeat(16), action: "option", question: 999, option: 999 });
    expect(Buffer.byteLength(longest)).toBeLessThanOrEqual(32);
  });

  it("never carries labels, questions or request ids: only the prefix, key, action code and digits", () => {
    for (const action of ACTIONS) {
      const encoded = encodeCallback({ key: KEY, action, question: 12, option: 34 });
      expect(encoded).toMatch(new RegExp(`^h1:${KEY}:[odtxc](:\\d+){0,2}$`));
    }
  });

  it("throws rather than produce data over 64 bytes", () => {
    expect(() => encodeCallback({ key: "k".repeat(60), action: "option", question: 1, option: 1 })).toThrow(/64 bytes/);
    expect(() => encodeCallback({ key: "é".repeat(30), action: "dismiss", question: 0, option: 0 })).toThrow(/64 bytes/);
  });
});

describe("decodeCallback", () => {
  it("decodes each action", () => {
    expect(decodeCallback(`h1:${KEY}:o:0:1`)).toEqual({ key: KEY, action: "option", question: 0, option: 1 });
    expect(decodeCallback(`h1:${KEY}:d:2`)).toEqual({ key: KEY, action: "done", question: 2, option: 0 });
    expect(decodeCallback(`h1:${KEY}:t:3`)).toEqual({ key: KEY, action: "type", question: 3, option: 0 });
    expect(decodeCallback(`h1:${KEY}:x`)).toEqual({ key: KEY, action: "dismiss", question: 0, option: 0 });
    expect(decodeCallback(`h1:${KEY}:c`)).toEqual({ key: KEY, action: "confirm", question: 0, option: 0 });
  });

  it.each([undefined, null, 0, 42, true, {}, [], ["h1:ABCD:x"], { data: `h1:${KEY}:x` }])("rejects the non-string %j", (value) => {
    expect(decodeCallback(value)).toBeUndefined();
  });

  it.each([
    "",
    "h1",
    "h1:",
    `h1:${KEY}`,
    `h1:${KEY}:`,
    `h2:${KEY}:x`,
    `H1:${KEY}:x`,
    `h1:${KEY}:q`,
    `h1:${KEY}:X`,
    `h1:${KEY}:O:1:2`,
    `h1:${KEY}:oo:1:2`,
    `h1:${KEY}:o:1:2:3`,
    `h1:${KEY}:o:1000:1`,
    `h1:${KEY}:o:1:1000`,
    `h1:${KEY}:o:-1:1`,
    `h1:${KEY}:o:1.5:1`,
    `h1:${KEY}:o:a:b`,
    `h1:${KEY}:o::1`,
    `h1:${KEY}:o:1:`,
    `h1:${KEY}:o: 1:1`,
    `h1:${KEY}:x `,
    ` h1:${KEY}:x`,
    `h1:${KEY}:x\n`,
    `\nh1:${KEY}:x`,
    `h1:${KEY}:x\nh1:${KEY}:c`,
    "h1:abc:x",
    `h1:${"a".repeat(17)}:x`,
    "h1:ab-cd:x",
    "h1:ab_cd:x",
    "h1:abcd efgh:x",
    "h1:äbcd:x",
    "h1::x",
    "h1:abcd:o:١:٢", // non-ASCII digits
    "h1:abcd:o:１:２", // full-width digits
    `h1:${KEY}:x`.repeat(3),
    `h1:${KEY}:o:1:2${"0".repeat(100)}`,
    "x".repeat(65),
    "x".repeat(10_000),
    "foreign-bot-data",
    "/start",
    '{"key":"ABCD","action":"option"}',
    "h1:__proto__:x",
    "h1:constr_ctor:o:1:1",
  ])("rejects foreign or malformed data %j", (text) => {
    expect(decodeCallback(text)).toBeUndefined();
  });

  it("returns numbers for indexes, not strings", () => {
    const decoded = decodeCallback(`h1:${KEY}:o:999:0`);
    expect(decoded).toEqual({ key: KEY, action: "option", question: 999, option: 0 });
    expect(typeof decoded?.question).toBe("number");
  });

  // BUG: decodeCallback is not canonical. It accepts data encodeCallback never produces and fills
  // missing indexes with 0: "h1:KEY:o" (an option tap with no indexes) decodes as option 0 of
  // question 0, "h1:KEY:x:5:7" as a dismiss, "h1:KEY:o:01:002" as option 2 of question 1.
  // lib/telegram/codec.ts:22 (PATTERN) and :40 (`Number(match[3] ?? 0)`); fix: check the number of
  // indexes per action (option 2, done/type 1, dismiss/confirm 0) and reject leading zeros
  // (`(0|[1-9]\d{0,2})`), so that decode(s) !== undefined implies encode(decode(s)) === s.
  it("only accepts the exact encoding of some CallbackData (field count per action, no leading zeros)", () => {
    const lenient = [`h1:${KEY}:o`, `h1:${KEY}:o:1`, `h1:${KEY}:d`, `h1:${KEY}:t`, `h1:${KEY}:d:1:2`, `h1:${KEY}:x:5:7`, `h1:${KEY}:c:1`, `h1:${KEY}:o:01:002`];
    for (const text of lenient) {
      const decoded = decodeCallback(text);
      if (decoded !== undefined) expect(encodeCallback(decoded)).toBe(text);
    }
  });

  it("rejects oversized data fast", () => {
    const started = performance.now();
    for (let index = 0; index < 100; index++) expect(decodeCallback(`h1:${"a".repeat(100_000)}:x`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("round-trips random valid data (property)", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 2000; run++) {
      const key = Array.from({ length: 4 + random(13) }, () => alphabet[random(alphabet.length)]).join("");
      const data: CallbackData = { key, action: ACTIONS[random(ACTIONS.length)]!, question: random(1000), option: random(1000) };
      const encoded = encodeCallback(data);
      expect(Buffer.byteLength(encoded)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
      expect(decodeCallback(encoded)).toEqual(canonical(data));
    }
  });
});

describe("Stop's callback data", () => {
  it("stop and halt carry a key and nothing else, well under 64 bytes", () => {
    for (const action of ["stop", "halt"] as const) {
      const encoded = encodeCallback({ key: "Ab3dEf7h", action, question: 0, option: 0 });
      expect(encoded).toBe(`h1:Ab3dEf7h:${action === "stop" ? "s" : "h"}`);
      expect(Buffer.byteLength(encoded)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
      expect(decodeCallback(encoded)).toEqual({ key: "Ab3dEf7h", action, question: 0, option: 0 });
    }
    expect(decodeCallback("h1:Ab3dEf7h:s:1")).toBeUndefined();
    expect(decodeCallback("h1:Ab3dEf7h:h:0:0")).toBeUndefined();
  });
});
