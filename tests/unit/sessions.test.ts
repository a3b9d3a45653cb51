import { describe, expect, it } from "vitest";
import { SessionIndex } from "../../lib/registry/sessions.ts";

describe("SessionIndex", () => {
  it("stores and returns a session", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "Fix it", directory: "/p", parentID: "ses_0" });
    expect(index.get("ses_1")).toEqual({ id: "ses_1", title: "Fix it", directory: "/p", parentID: "ses_0" });
    expect(index.title("ses_1")).toBe("Fix it");
  });

  it("knows nothing about unknown sessions", () => {
    const index = new SessionIndex();
    expect(index.get("ses_x")).toBeUndefined();
    expect(index.title("ses_x")).toBeUndefined();
    expect(index.get("__proto__")).toBeUndefined();
    expect(index.title("constructor")).toBeUndefined();
  });

  it("merges updates: later fields win, missing fields are kept", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "Old", directory: "/p" });
    index.upsert({ id: "ses_1", title: "New" });
    expect(index.get("ses_1")).toEqual({ id: "ses_1", title: "New", directory: "/p" });
    index.upsert({ id: "ses_1", parentID: "ses_0" });
    expect(index.get("ses_1")).toEqual({ id: "ses_1", title: "New", directory: "/p", parentID: "ses_0" });
  });

  it("does not erase a known field with an explicit undefined", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "Kept" });
    index.upsert({ id: "ses_1", title: undefined, directory: undefined });
    expect(index.get("ses_1")).toEqual({ id: "ses_1", title: "Kept" });
    expect(Object.keys(index.get("ses_1")!)).toEqual(["id", "title"]);
  });

  it("updates to an empty title", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "Named" });
    index.upsert({ id: "ses_1", title: "" });
    expect(index.title("ses_1")).toBe("");
  });

  it("keeps sessions apart", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "One" });
    index.upsert({ id: "ses_2", title: "Two" });
    expect(index.title("ses_1")).toBe("One");
    expect(index.title("ses_2")).toBe("Two");
  });

  it("stores a copy, not the caller's object", () => {
    const index = new SessionIndex();
    const info = { id: "ses_1", title: "A" };
    index.upsert(info);
    info.title = "B";
    expect(index.title("ses_1")).toBe("A");
  });

  it("deletes a session, and deleting an unknown one is harmless", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "One" });
    index.upsert({ id: "ses_2", title: "Two" });
    index.delete("ses_1");
    expect(index.get("ses_1")).toBeUndefined();
    expect(index.title("ses_2")).toBe("Two");
    expect(() => index.delete("ses_1")).not.toThrow();
    expect(() => index.delete("nope")).not.toThrow();
  });

  it("starts fresh after a delete", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_1", title: "Old", directory: "/p" });
    index.delete("ses_1");
    index.upsert({ id: "ses_1" });
    expect(index.get("ses_1")).toEqual({ id: "ses_1" });
  });

  it("walks up to a session's root: the session itself without a known parent, its oldest known ancestor otherwise", () => {
    const index = new SessionIndex();
    expect(index.rootOf("ses_x")).toBe("ses_x");
    index.upsert({ id: "ses_0" });
    index.upsert({ id: "ses_1", parentID: "ses_0" });
    index.upsert({ id: "ses_2", parentID: "ses_1" });
    index.upsert({ id: "ses_orphan", parentID: "ses_gone" });
    expect(index.rootOf("ses_0")).toBe("ses_0");
    expect(index.rootOf("ses_2")).toBe("ses_0");
    expect(index.rootOf("ses_orphan")).toBe("ses_gone");
  });

  it("ends the walk up on a parent cycle, and after 20 steps on a deeper chain", () => {
    const index = new SessionIndex();
    index.upsert({ id: "ses_a", parentID: "ses_b" });
    index.upsert({ id: "ses_b", parentID: "ses_a" });
    expect(["ses_a", "ses_b"]).toContain(index.rootOf("ses_a"));
    for (let depth = 1; depth <= 30; depth++) index.upsert({ id: `ses_${depth}`, parentID: `ses_${depth - 1}` });
    expect(index.rootOf("ses_30")).toBe("ses_10");
    expect(index.rootOf("ses_12")).toBe("ses_0");
  });
});
