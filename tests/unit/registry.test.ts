import { describe, expect, it } from "vitest";
import { KEY_LENGTH, newPromptKey, Registry, type TextInput } from "../../lib/registry/registry.ts";
import { SessionIndex } from "../../lib/registry/sessions.ts";
import type { QuestionRequest } from "../../lib/hermes-events.ts";
import { decodeCallback, encodeCallback } from "../../lib/telegram/codec.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function request(id: string, sessionID = "ses_1"): QuestionRequest {
  return { id, sessionID, questions: [{ question: "Q?", header: "H", options: [{ label: "A", description: "" }], multiple: false, custom: true }] };
}

function sequentialKeys(...keys: string[]): () => string {
  return () => {
    const key = keys.shift();
    if (key === undefined) throw new Error("out of keys");
    return key;
  };
}

describe("newPromptKey", () => {
  it("is 8 characters from a letters-and-digits alphabet", () => {
    expect(KEY_LENGTH).toBe(8);
    for (let run = 0; run < 500; run++) expect(newPromptKey()).toMatch(/^[A-Za-z0-9]{8}$/);
  });

  it("maps random bytes onto the alphabet", () => {
    expect(newPromptKey(() => Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]))).toBe("ABCDEFGH");
    expect(newPromptKey(() => Uint8Array.from([26, 51, 52, 61, 62, 123, 124, 255]))).toBe("az09A9AH");
  });

  it("asks for exactly KEY_LENGTH random bytes", () => {
    const sizes: number[] = [];
    newPromptKey((size) => {
      sizes.push(size);
      return new Uint8Array(size);
    });
    expect(sizes).toEqual([KEY_LENGTH]);
  });

  it("is practically unique", () => {
    const keys = new Set(Array.from({ length: 10_000 }, () => newPromptKey()));
    expect(keys.size).toBe(10_000);
  });

  it("uses the whole alphabet", () => {
    const seen = new Set(Array.from({ length: 2_000 }, () => newPromptKey()).join(""));
    expect(seen.size).toBe(ALPHABET.length);
  });

  it("fits the callback codec", () => {
    const key = newPromptKey();
    expect(decodeCallback(encodeCallback({ key, action: "dismiss", question: 0, option: 0 }))?.key).toBe(key);
  });
});

describe("Registry: questions", () => {
  it("adds a question and finds it by request id and by key", () => {
    const registry = new Registry(sequentialKeys("KEY00001"));
    const prompt = registry.addQuestion(request("que_1"), "/a", 100);
    expect(prompt).toMatchObject({ key: "KEY00001", requestID: "que_1", sessionID: "ses_1", directory: "/a", createdAt: 100, state: "pending" });
    expect(registry.byRequest("que_1")).toBe(prompt);
    expect(registry.byKey("KEY00001")).toBe(prompt);
    expect(registry.all()).toEqual([prompt]);
  });

  it("dedupes by request id: a second report returns undefined and keeps the first", () => {
    const registry = new Registry(sequentialKeys("KEY00001", "KEY00002"));
    const first = registry.addQuestion(request("que_1"), "/a", 1);
    expect(registry.addQuestion(request("que_1"), "/b", 2)).toBeUndefined();
    expect(registry.all()).toEqual([first]);
    expect(registry.byRequest("que_1")?.directory).toBe("/a");
    expect(registry.byKey("KEY00002")).toBeUndefined();
  });

  it("draws a new key until it is unused", () => {
    const registry = new Registry(sequentialKeys("SAMEKEY1", "SAMEKEY1", "SAMEKEY1", "OTHERKEY"));
    const first = registry.addQuestion(request("que_1"), "/a", 1)!;
    const second = registry.addQuestion(request("que_2"), "/a", 1)!;
    expect(first.key).toBe("SAMEKEY1");
    expect(second.key).toBe("OTHERKEY");
    expect(registry.byKey("SAMEKEY1")).toBe(first);
    expect(registry.byKey("OTHERKEY")).toBe(second);
  });

  it("gives every prompt a distinct key by default", () => {
    const registry = new Registry();
    const keys = new Set(Array.from({ length: 200 }, (_, index) => registry.addQuestion(request(`que_${index}`), "/a", 0)!.key));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{8}$/);
  });

  it("returns undefined for unknown ids and keys, including inherited names", () => {
    const registry = new Registry();
    registry.addQuestion(request("que_1"), "/a", 0);
    expect(registry.byRequest("que_2")).toBeUndefined();
    expect(registry.byKey("nope")).toBeUndefined();
    expect(registry.byKey("__proto__")).toBeUndefined();
    expect(registry.byRequest("constructor")).toBeUndefined();
  });

  it("lists pending prompts, optionally per directory", () => {
    const registry = new Registry(sequentialKeys("KEY00001", "KEY00002", "KEY00003", "KEY00004"));
    const a1 = registry.addQuestion(request("que_1"), "/a", 0)!;
    const a2 = registry.addQuestion(request("que_2"), "/a", 0)!;
    const b1 = registry.addQuestion(request("que_3"), "/b", 0)!;
    const a3 = registry.addQuestion(request("que_4"), "/a", 0)!;
    a2.state = "answered";
    expect(registry.pending()).toEqual([a1, b1, a3]);
    expect(registry.pendingIn("/a")).toEqual([a1, a3]);
    expect(registry.pendingIn("/b")).toEqual([b1]);
    expect(registry.pendingIn("/c")).toEqual([]);
    expect(registry.pendingIn("/a/")).toEqual([]);
    expect(registry.all()).toHaveLength(4);
  });

  it("forgets a prompt by request id and key", () => {
    const registry = new Registry(sequentialKeys("KEY00001", "KEY00002", "KEY00003"));
    const first = registry.addQuestion(request("que_1"), "/a", 0)!;
    const second = registry.addQuestion(request("que_2"), "/a", 0)!;
    registry.forget(first);
    expect(registry.byRequest("que_1")).toBeUndefined();
    expect(registry.byKey("KEY00001")).toBeUndefined();
    expect(registry.all()).toEqual([second]);
    // The request can be registered again afterwards (e.g. listed again after a restart of OpenCode).
    expect(registry.addQuestion(request("que_1"), "/a", 0)?.key).toBe("KEY00003");
  });

  it("forgetting twice or an unknown prompt is harmless", () => {
    const registry = new Registry(sequentialKeys("KEY00001", "KEY00002"));
    const first = registry.addQuestion(request("que_1"), "/a", 0)!;
    const other = new Registry(sequentialKeys("KEY00002")).addQuestion(request("que_9"), "/a", 0)!;
    registry.forget(first);
    expect(() => registry.forget(first)).not.toThrow();
    expect(() => registry.forget(other)).not.toThrow();
    expect(registry.all()).toEqual([]);
  });
});

describe("Registry: text inputs", () => {
  const input = (key: string, chatId: number, messageId: number, questionIndex = 0): TextInput => ({ key, questionIndex, message: { chatId, messageId } });

  it("arms an input and finds it by its message", () => {
    const registry = new Registry();
    const armed = input("KEY00001", 10, 500, 2);
    registry.armInput(armed);
    expect(registry.inputFor({ chatId: 10, messageId: 500 })).toBe(armed);
    expect(registry.inputFor({ chatId: 10, messageId: 501 })).toBeUndefined();
    expect(registry.inputFor({ chatId: 11, messageId: 500 })).toBeUndefined();
  });

  it("keeps chats apart even when ids could collide as text", () => {
    const registry = new Registry();
    registry.armInput(input("KEY00001", 1, 23));
    expect(registry.inputFor({ chatId: 12, messageId: 3 })).toBeUndefined();
    registry.armInput(input("KEY00002", -100, 5));
    expect(registry.inputFor({ chatId: 100, messageId: 5 })).toBeUndefined();
    expect(registry.inputFor({ chatId: -100, messageId: 5 })?.key).toBe("KEY00002");
  });

  it("re-arming the same message replaces the input", () => {
    const registry = new Registry();
    registry.armInput(input("KEY00001", 10, 500));
    registry.armInput(input("KEY00002", 10, 500));
    expect(registry.inputFor({ chatId: 10, messageId: 500 })?.key).toBe("KEY00002");
    expect(registry.inputsIn(10)).toHaveLength(1);
  });

  it("lists the inputs of a chat", () => {
    const registry = new Registry();
    registry.armInput(input("KEY00001", 10, 1));
    registry.armInput(input("KEY00002", 20, 2));
    registry.armInput(input("KEY00003", 10, 3));
    expect(registry.inputsIn(10).map((item) => item.key)).toEqual(["KEY00001", "KEY00003"]);
    expect(registry.inputsIn(20).map((item) => item.key)).toEqual(["KEY00002"]);
    expect(registry.inputsIn(30)).toEqual([]);
  });

  it("disarms every input of a key and returns them", () => {
    const registry = new Registry();
    registry.armInput(input("KEY00001", 10, 1));
    registry.armInput(input("KEY00002", 10, 2));
    registry.armInput(input("KEY00001", 10, 3));
    const removed = registry.disarmInputs("KEY00001");
    expect(removed.map((item) => item.message.messageId)).toEqual([1, 3]);
    expect(registry.inputsIn(10).map((item) => item.key)).toEqual(["KEY00002"]);
    expect(registry.disarmInputs("KEY00001")).toEqual([]);
    expect(registry.disarmInputs("unknown")).toEqual([]);
  });

  it("forget removes the prompt's inputs and only those", () => {
    const registry = new Registry(sequentialKeys("KEY00001", "KEY00002"));
    const first = registry.addQuestion(request("que_1"), "/a", 0)!;
    const second = registry.addQuestion(request("que_2"), "/a", 0)!;
    registry.armInput(input(first.key, 10, 1));
    registry.armInput(input(first.key, 10, 2));
    registry.armInput(input(second.key, 10, 3));
    registry.forget(first);
    expect(registry.inputFor({ chatId: 10, messageId: 1 })).toBeUndefined();
    expect(registry.inputFor({ chatId: 10, messageId: 2 })).toBeUndefined();
    expect(registry.inputFor({ chatId: 10, messageId: 3 })?.key).toBe(second.key);
  });
});

describe("Registry: sessions", () => {
  it("owns a session index", () => {
    const registry = new Registry();
    expect(registry.sessions).toBeInstanceOf(SessionIndex);
    registry.sessions.upsert({ id: "ses_1", title: "T" });
    expect(registry.sessions.title("ses_1")).toBe("T");
    expect(new Registry().sessions.title("ses_1")).toBeUndefined();
  });
});
