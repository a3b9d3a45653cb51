import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TextJoiner } from "../../lib/text/text-joiner.ts";

describe("TextJoiner", () => {
  let done: [string, string][];
  let joiner: TextJoiner<string>;

  beforeEach(() => {
    vi.useFakeTimers();
    done = [];
    joiner = new TextJoiner<string>(700, (target, text) => done.push([target, text]));
  });

  afterEach(() => {
    joiner.clear();
    vi.useRealTimers();
  });

  it("completes a single part after the quiet period, not before", () => {
    joiner.start("u1", "input-A", "hello");
    vi.advanceTimersByTime(699);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual([["input-A", "hello"]]);
  });

  it("joins the parts with a newline, in order", () => {
    joiner.start("u1", "input-A", "part 1");
    expect(joiner.append("u1", "part 2")).toBe(true);
    expect(joiner.append("u1", "part 3")).toBe(true);
    vi.advanceTimersByTime(700);
    expect(done).toEqual([["input-A", "part 1\npart 2\npart 3"]]);
  });

  it("restarts the quiet period on every part", () => {
    joiner.start("u1", "input-A", "a");
    vi.advanceTimersByTime(600);
    joiner.append("u1", "b");
    vi.advanceTimersByTime(600);
    joiner.append("u1", "c");
    vi.advanceTimersByTime(699);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(done).toEqual([["input-A", "a\nb\nc"]]);
  });

  it("completes only once", () => {
    joiner.start("u1", "input-A", "a");
    vi.advanceTimersByTime(10_000);
    expect(done).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("append without an open answer returns false", () => {
    expect(joiner.append("u1", "stray")).toBe(false);
    joiner.start("u1", "input-A", "a");
    vi.advanceTimersByTime(700);
    expect(joiner.append("u1", "late")).toBe(false);
    expect(done).toEqual([["input-A", "a"]]);
  });

  it("a new start from the same sender flushes the previous answer at once", () => {
    joiner.start("u1", "input-A", "first");
    joiner.append("u1", "first, more");
    joiner.start("u1", "input-B", "second");
    expect(done).toEqual([["input-A", "first\nfirst, more"]]);
    vi.advanceTimersByTime(700);
    expect(done).toEqual([
      ["input-A", "first\nfirst, more"],
      ["input-B", "second"],
    ]);
  });

  it("keeps senders apart", () => {
    joiner.start("u1", "input-A", "from u1");
    joiner.start("u2", "input-B", "from u2");
    expect(joiner.append("u2", "more u2")).toBe(true);
    expect(joiner.append("u3", "nobody")).toBe(false);
    expect(done).toEqual([]);
    vi.advanceTimersByTime(700);
    expect(done).toEqual(
      expect.arrayContaining([
        ["input-A", "from u1"],
        ["input-B", "from u2\nmore u2"],
      ]),
    );
    expect(done).toHaveLength(2);
  });

  it("flush completes at once and cancels the timer", () => {
    joiner.start("u1", "input-A", "a");
    joiner.flush("u1");
    expect(done).toEqual([["input-A", "a"]]);
    vi.advanceTimersByTime(10_000);
    expect(done).toHaveLength(1);
    expect(() => joiner.flush("u1")).not.toThrow();
    expect(() => joiner.flush("nobody")).not.toThrow();
    expect(done).toHaveLength(1);
  });

  it("clear drops everything without completing it", () => {
    joiner.start("u1", "input-A", "a");
    joiner.start("u2", "input-B", "b");
    joiner.clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(done).toEqual([]);
    expect(joiner.append("u1", "after clear")).toBe(false);
  });

  it("keeps empty parts and exact text", () => {
    joiner.start("u1", "input-A", "");
    joiner.append("u1", "  spaced  ");
    vi.advanceTimersByTime(700);
    expect(done).toEqual([["input-A", "\n  spaced  "]]);
  });

  it("completes a new answer from the same sender after the first one finished", () => {
    joiner.start("u1", "input-A", "one");
    vi.advanceTimersByTime(700);
    joiner.start("u1", "input-A", "two");
    vi.advanceTimersByTime(700);
    expect(done).toEqual([
      ["input-A", "one"],
      ["input-A", "two"],
    ]);
  });

  it("passes the target through untouched", () => {
    const target = { key: "K", questionIndex: 1 };
    const seen: unknown[] = [];
    const objects = new TextJoiner<typeof target>(50, (value) => seen.push(value));
    objects.start("u1", target, "x");
    vi.advanceTimersByTime(50);
    expect(seen[0]).toBe(target);
  });
});
