import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { recordInBook, type Book } from "../../lib/opencode2/endpoint.ts";
import { narrowEvent, type NarrowedEvent } from "../../lib/opencode2/events.ts";
import { formAnswer } from "../../lib/opencode2/forms.ts";

// Recorded from the real OpenCode 2.0.15 (a probe plugin's ctx.event.subscribe): a question tool
// call with two questions answered over HTTP, then a shell command whose permission was rejected.
const RECORDED = path.join(import.meta.dirname, "../fixtures/opencode2-events.jsonl");
const recorded = fs
  .readFileSync(RECORDED, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as unknown);
const narrowed = recorded.map(narrowEvent).filter((event): event is NarrowedEvent => event !== undefined);
const events = narrowed.flatMap((event) => event.events);

describe("OpenCode 2 events, as recorded from 2.0.15", () => {
  it("every recorded envelope is understood, with its id", () => {
    expect(narrowed).toHaveLength(recorded.length);
    expect(narrowed.every((event) => typeof event.id === "string" && event.id.startsWith("evt_"))).toBe(true);
  });

  it("form.created of kind question becomes question.asked, with what a reply needs", () => {
    const created = narrowed.find((event) => event.form);
    expect(created?.directory).toMatch(/\/project$/);
    expect(created?.events).toEqual([
      {
        type: "question.asked",
        request: {
          id: "frm_204092379001CSuivY3UvD2EzD",
          sessionID: "ses_dfbf6df93ffec5UM0f4lYr2Vsd",
          questions: [
            {
              question: "Which color?",
              header: "Color",
              options: [
                { label: "Red", description: "warm" },
                { label: "Blue", description: "cool" },
              ],
              multiple: false,
              custom: true,
            },
            {
              question: "Sizes?",
              header: "Sizes",
              options: [
                { label: "S", description: "s" },
                { label: "M", description: "m" },
              ],
              multiple: true,
              custom: true,
            },
          ],
        },
      },
    ]);
    expect(created?.form?.fields.map((field) => [field.key, field.multiple])).toEqual([
      ["q0", false],
      ["q1", true],
    ]);
  });

  it("form.replied becomes question.replied with one list per question, in field order", () => {
    expect(events.filter((event) => event.type === "question.replied")).toEqual([
      { type: "question.replied", sessionID: "ses_dfbf6df93ffec5UM0f4lYr2Vsd", requestID: "frm_204092379001CSuivY3UvD2EzD", answers: [["Red"], ["S", "M"]] },
    ]);
  });

  it("permission.asked maps action, resources and save onto the 1.x permission shape", () => {
    expect(events.filter((event) => event.type === "permission.asked")).toEqual([
      {
        type: "permission.asked",
        request: {
          id: "per_20409374c001XMSxYI89sBuG56",
          sessionID: "ses_dfbf6df93ffec5UM0f4lYr2Vsd",
          permission: "shell",
          patterns: ["echo hi-perm"],
          metadata: { command: "echo hi-perm" },
          always: ["echo *"],
          // Issue 49: 2.0.15 names only the line's simple commands; the tool call that asks holds the line.
          partial: true,
          tool: { messageID: "msg_2040936e6001GKeqlx4ua8exI3", callID: "call_2_a81ed1fa" },
        },
      },
    ]);
    const replied = narrowed.find((event) => event.events.some((e) => e.type === "permission.replied"));
    expect(replied?.events).toEqual([
      { type: "permission.replied", sessionID: "ses_dfbf6df93ffec5UM0f4lYr2Vsd", requestID: "per_20409374c001XMSxYI89sBuG56", reply: "reject" },
    ]);
    expect(replied?.directory).toBeUndefined(); // no location: placed through its session
    expect(replied?.sessionID).toBe("ses_dfbf6df93ffec5UM0f4lYr2Vsd");
  });

  it("a run's start, its text as it is written and whole, and its end become busy, the assistant's text, and idle", () => {
    expect(events.map((event) => event.type).filter((type) => type.startsWith("session.") || type.startsWith("message."))).toEqual([
      "session.status",
      "message.role",
      "message.role",
      "message.delta",
      "message.role",
      "message.text",
      "message.role",
      "session.idle",
      "session.status",
      "message.role",
      "session.idle",
    ]);
    // In order: the user's message (Undo's mark), the first step's usage, the next assistant message,
    // its step's usage; then the second run's user message.
    expect(events.filter((event) => event.type === "message.role").map((event) => (event.usage ? "usage" : event.role))).toEqual([
      "user",
      "usage",
      "assistant",
      "usage",
      "user",
    ]);
    // The user's message reaching the session (its inbox item's id): what Undo reverts to.
    const users = events.filter((event) => event.type === "message.role" && event.role === "user");
    expect(users).toEqual([
      { type: "message.role", sessionID: "ses_dfbf6df93ffec5UM0f4lYr2Vsd", messageID: "msg_2040920f4001oRLHP6RGQd7wh8", role: "user" },
      expect.objectContaining({ type: "message.role", role: "user" }),
    ]);
    const text = events.find((event) => event.type === "message.text");
    expect(text).toMatchObject({ type: "message.text", text: expect.stringContaining("User has answered your questions") });
  });

  it("each step's end says what it used (session.step.ended: tokens and cost; no model named)", () => {
    const used = events.filter((event) => event.type === "message.role" && event.usage);
    expect(used).toHaveLength(2);
    expect(used[0]).toMatchObject({ role: "assistant", usage: { input: 10, output: 5, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost: 0 } });
    expect(used[0]).not.toHaveProperty("model");
    const step = (data: Record<string, unknown>) =>
      narrowEvent({ type: "session.step.ended", data: { sessionID: "ses_1", assistantMessageID: "msg_1", ...data } });
    expect(step({ tokens: { input: 0, output: 0, cache: {} }, cost: 0 })?.events).toEqual([]);
    expect(step({ tokens: { input: -5, output: "x", cache: { read: Number.NaN } }, cost: 1.5 })?.events).toEqual([
      {
        type: "message.role",
        sessionID: "ses_1",
        messageID: "msg_1",
        role: "assistant",
        usage: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost: 1.5 },
      },
    ]);
  });
});

describe("OpenCode 2 events: untrusted input", () => {
  const form = (overrides: Record<string, unknown> = {}) => ({
    id: "evt_1",
    type: "form.created",
    location: { directory: "/p" },
    data: {
      form: {
        id: "frm_1",
        sessionID: "ses_1",
        metadata: { kind: "question" },
        fields: [{ key: "q0", title: "T", description: "Q?", type: "string", options: [{ value: "v", label: "L" }] }],
        ...overrides,
      },
    },
  });

  it("drops what is malformed instead of throwing", () => {
    for (const raw of [null, 42, "x", [], {}, { type: "form.created" }, { type: 1, data: {} }, { type: "form.created", data: [] }]) {
      expect(() => narrowEvent(raw)).not.toThrow();
      expect(narrowEvent(raw)?.events ?? []).toEqual([]);
    }
  });

  it("ignores forms that are not questions, global forms and forms with unknown field types", () => {
    expect(narrowEvent(form({ metadata: { kind: "other" } }))?.events).toBeUndefined();
    expect(narrowEvent(form({ sessionID: "global" }))).toBeUndefined();
    expect(narrowEvent(form({ fields: [{ key: "q0", type: "date" }] }))).toBeUndefined();
    expect(narrowEvent(form())?.events).toHaveLength(1);
  });

  it("an event type Hermes does not use still tells where its session lives", () => {
    expect(narrowEvent({ id: "evt_2", type: "session.inbox.enqueued", location: { directory: "/p" }, data: { sessionID: "ses_9" } })).toEqual({
      id: "evt_2",
      directory: "/p",
      sessionID: "ses_9",
      events: [],
    });
  });

  it("an interruption by the user is an abort (no Failed notice); a failed run is an error", () => {
    expect(narrowEvent({ type: "session.execution.interrupted", data: { sessionID: "s", reason: "user" } })?.events.map((e) => e.type)).toEqual([
      "session.error",
      "session.idle",
    ]);
    expect(narrowEvent({ type: "session.execution.interrupted", data: { sessionID: "s", reason: "user" } })?.events[0]).toMatchObject({
      name: "MessageAbortedError",
    });
    expect(narrowEvent({ type: "session.execution.interrupted", data: { sessionID: "s", reason: "shutdown" } })?.events.map((e) => e.type)).toEqual([
      "session.idle",
    ]);
    expect(narrowEvent({ type: "session.execution.failed", data: { sessionID: "s", error: { type: "ProviderError", message: "boom" } } })?.events[0]).toEqual({
      type: "session.error",
      sessionID: "s",
      name: "ProviderError",
      message: "boom",
    });
  });

  it("an edit's files and patches become the file and diff the message shows (recorded from 2.0.15)", () => {
    const patch = "Index: x.html\n===================================================================\n--- x.html\n+++ x.html\n@@ -0,0 +1,1 @@\n+<b>hi</b>\n";
    const asked = narrowEvent({
      type: "permission.asked",
      data: {
        id: "per_1",
        sessionID: "s",
        action: "edit",
        resources: ["x.html"],
        save: ["*"],
        metadata: { files: [{ file: "x.html", patch, status: "added", additions: 1, deletions: 0 }] },
      },
    });
    expect(asked?.events[0]).toMatchObject({
      type: "permission.asked",
      request: { permission: "edit", patterns: ["x.html"], always: ["*"], metadata: { filepath: "x.html", diff: patch } },
    });
  });

  it("a rename is the session's title; a scheduled retry is a retry status", () => {
    expect(narrowEvent({ type: "session.renamed", data: { sessionID: "s", title: "Fix the build" } })?.events).toEqual([
      { type: "session.upserted", info: { id: "s", title: "Fix the build" } },
    ]);
    expect(
      narrowEvent({
        type: "session.retry.scheduled",
        data: { sessionID: "s", assistantMessageID: "m", attempt: 2, at: 1, error: { type: "provider", message: "HTTP 500" } },
      })?.events,
    ).toEqual([{ type: "session.status", sessionID: "s", status: "retry", attempt: 2, message: "HTTP 500", next: 1 }]);
  });

  it("a limit (measured on 2.0.15): a rate limit is a retry until `at`, a quota fails the run at once; both say limit", () => {
    const at = 1796163545334;
    expect(
      narrowEvent({
        type: "session.retry.scheduled",
        data: {
          sessionID: "s",
          assistantMessageID: "m",
          attempt: 2,
          at,
          error: { type: "provider.rate-limit", message: "Rate limit reached for requests", status: 429 },
        },
      })?.events,
    ).toEqual([{ type: "session.status", sessionID: "s", status: "retry", attempt: 2, message: "Rate limit reached for requests", next: at, limit: true }]);
    const words = "You have reached your usage limit. Your limit resets at 2026-12-02T04:11:00Z.";
    expect(
      narrowEvent({ type: "session.execution.failed", data: { sessionID: "s", error: { type: "provider.quota", message: words, status: 429 } } })?.events,
    ).toEqual([
      { type: "session.error", sessionID: "s", name: "provider.quota", message: words, limit: true },
      { type: "session.idle", sessionID: "s" },
    ]);
    expect(
      narrowEvent({ type: "session.execution.failed", data: { sessionID: "s", error: { type: "provider.internal", message: "HTTP 500", status: 500 } } })
        ?.events[0],
    ).toEqual({
      type: "session.error",
      sessionID: "s",
      name: "provider.internal",
      message: "HTTP 500",
    });
  });

  it("session.created carries title, directory and parent", () => {
    expect(narrowEvent({ type: "session.created", data: { sessionID: "c", parentID: "p", title: "Child", location: { directory: "/p" } } })?.events).toEqual([
      { type: "session.upserted", info: { id: "c", title: "Child", directory: "/p", parentID: "p" } },
    ]);
  });
});

describe("form answers", () => {
  const created = narrowed.find((event) => event.form)!.form!;

  it("a single choice is a string, a multiselect a list, in the form's keys", () => {
    expect(formAnswer(created, [["Blue"], ["S", "M"]])).toEqual({ q0: "Blue", q1: ["S", "M"] });
  });

  it("labels become option values; typed text passes through", () => {
    const form = {
      id: "f",
      sessionID: "s",
      fields: [
        { key: "q0", multiple: false, options: [{ label: "Red colour", value: "red" }] },
        { key: "q1", multiple: true, options: [{ label: "A", value: "a" }] },
      ],
    };
    expect(formAnswer(form, [["Red colour"], ["A", "my own"]])).toEqual({ q0: "red", q1: ["a", "my own"] });
    expect(formAnswer(form, [["teal, like the sea"], []])).toEqual({ q0: "teal, like the sea", q1: [] });
  });
});

describe("the book of forms and permissions", () => {
  it("keeps what was asked, and forgets what was answered a minute later", () => {
    vi.useFakeTimers();
    try {
      const book: Book = { forms: new Map(), permissions: new Map() };
      for (const event of narrowed) recordInBook(book, event);
      // Recorded: the form was answered and the permission rejected: both still known for late taps.
      expect([...book.forms.keys()]).toEqual(["frm_204092379001CSuivY3UvD2EzD"]);
      expect([...book.permissions]).toEqual([["per_20409374c001XMSxYI89sBuG56", "ses_dfbf6df93ffec5UM0f4lYr2Vsd"]]);
      vi.advanceTimersByTime(60_000);
      expect(book.forms.size).toBe(0);
      expect(book.permissions.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
