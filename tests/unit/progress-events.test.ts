// What a run's progress is made of, as each OpenCode version publishes it (recorded streams in
// tests/fixtures/progress-events/): narrowed at the edge, then reduced into the run's progress.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { parseEvent } from "../../lib/opencode/events.ts";
import { narrowEvent } from "../../lib/opencode2/events.ts";
import { endProgress, reduceProgress, startProgress, todoCount, type ProgressEvent, type RunProgress } from "../../lib/progress/run-progress.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/progress-events");

function recorded(version: string): HermesEvent[] {
  const lines = fs
    .readFileSync(path.join(FIXTURES, `opencode-${version}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean);
  const raws = lines.map((line) => JSON.parse(line));
  return raws.flatMap((raw) => (version.startsWith("2.") ? (narrowEvent(raw)?.events ?? []) : [parseEvent(raw)?.event].filter((e) => e !== undefined)));
}

/** Every state the run goes through, one per progress event. */
function replay(events: HermesEvent[]): RunProgress[] {
  let state = startProgress(0);
  const states: RunProgress[] = [];
  for (const event of events) {
    if (event.type !== "todo.updated" && event.type !== "tool.step") continue;
    const next = reduceProgress(state, event as ProgressEvent, false);
    if (next !== state) states.push(next);
    state = next;
  }
  return states;
}

describe.each(["1.1.53", "1.18.33"])("OpenCode %s: todo.updated and tool parts", (version) => {
  const events = recorded(version);

  it("publishes the todo list twice (as written, then all done) and every tool call as a step", () => {
    const todos = events.filter((e) => e.type === "todo.updated");
    expect(todos.map((e) => e.type === "todo.updated" && e.todos.map((item) => item.status))).toEqual([
      ["in_progress", "pending", "pending"],
      ["completed", "completed", "completed"],
    ]);
    const tools = new Set(events.flatMap((e) => (e.type === "tool.step" ? [e.step.tool] : [])));
    expect([...tools]).toEqual(["todowrite", "bash", "read"]);
  });

  it("reduces into the run's progress: the todo count, the command while it runs, the last steps", () => {
    const states = replay(events);
    // The call is announced (pending, no input) before it runs with its command.
    const whileBash = states.find((s) => s.running.at(-1)?.tool === "bash" && s.running.at(-1)?.target);
    expect(whileBash?.running.at(-1)?.target).toEqual({ kind: "command", text: "sleep 2 && echo slow" });
    expect(todoCount(whileBash!.todos)).toEqual({ done: 0, total: 3 });
    expect(whileBash!.todos[0]).toEqual({ content: "Task 0 <b>", status: "in_progress" });
    const last = states.at(-1)!;
    expect(todoCount(last.todos)).toEqual({ done: 3, total: 3 });
    expect(last.running).toEqual([]);
    expect(last.steps).toBe(4);
    expect(last.recent.map((s) => `${s.tool}:${s.state}`)).toEqual(["bash:completed", "read:completed", "todowrite:completed"]);
    expect(last.recent[1]?.target).toEqual({ kind: "file", text: "/home/dev/project/opencode.json" });
  });

  it("repeated running updates of one call (the command's output growing) change nothing", () => {
    const bash = events.filter((e) => e.type === "tool.step" && e.step.tool === "bash" && e.step.state === "running" && e.step.input);
    expect(bash.length).toBeGreaterThan(2);
    const states = replay(bash);
    expect(states).toHaveLength(1);
  });
});

describe("OpenCode 2.0.15: session.tool.* events, no todo list", () => {
  const events = recorded("2.0.15");

  it("names the tool when its input starts, gives the input when called, and says how it ended", () => {
    const steps = events.flatMap((e) => (e.type === "tool.step" ? [e.step] : []));
    const shell = steps.filter((s) => steps.some((t) => t.callID === s.callID && t.tool === "shell"));
    expect(shell.map((s) => s.state)).toEqual(["running", "running", "completed"]);
    expect(shell[0]).toEqual({ callID: shell[0]!.callID, tool: "shell", state: "running" });
    expect(shell[1]?.input).toEqual({ command: "sleep 2 && echo slow" });
    expect(events.some((e) => e.type === "todo.updated")).toBe(false);
  });

  it("reduces into the run's progress: the command while it runs, failed calls as failed steps", () => {
    const states = replay(events);
    const whileShell = states.find((s) => s.running.at(-1)?.tool === "shell" && s.running.at(-1)?.target);
    expect(whileShell?.running.at(-1)?.target).toEqual({ kind: "command", text: "sleep 2 && echo slow" });
    const last = states.at(-1)!;
    expect(last.steps).toBe(4);
    expect(last.recent.map((s) => `${s.tool}:${s.state}`)).toEqual(["shell:completed", "read:failed", "todowrite:failed"]);
    expect(last.todos).toEqual([]);
  });
});

describe("reduceProgress", () => {
  const step = (callID: string, state: "running" | "completed" | "failed", tool?: string, input?: Record<string, unknown>): ProgressEvent => ({
    type: "tool.step",
    sessionID: "ses_1",
    step: { callID, state, ...(tool ? { tool } : {}), ...(input ? { input } : {}) },
  });

  it("reads each target from the input: command, sub-agent and task (1.x task, 2.x subagent), file, pattern, URL", () => {
    const targets = [
      step("a", "running", "bash", { command: "ls", description: "list" }),
      step("b", "running", "task", { subagent_type: "general", description: "Find the bug", prompt: "…" }),
      step("c", "running", "subagent", { agent: "explore", description: "Map the repo" }),
      step("d", "running", "write", { path: "src/a.ts", content: "x" }),
      step("e", "running", "grep", { pattern: "TODO" }),
      step("f", "running", "webfetch", { url: "https://example.org" }),
      step("g", "running", "skill", { name: "x" }),
    ].map((event) => reduceProgress(startProgress(0), event, false).running[0]?.target);
    expect(targets).toEqual([
      { kind: "command", text: "ls" },
      { kind: "agent", text: "general", detail: "Find the bug" },
      { kind: "agent", text: "explore", detail: "Map the repo" },
      { kind: "file", text: "src/a.ts" },
      { kind: "pattern", text: "TODO" },
      { kind: "url", text: "https://example.org" },
      undefined,
    ]);
  });

  it("a sub-agent's steps count in the run and are marked; its todo list does not replace the root's", () => {
    let state = reduceProgress(startProgress(0), { type: "todo.updated", sessionID: "root", todos: [{ content: "mine", status: "pending" }] }, false);
    state = reduceProgress(state, { type: "todo.updated", sessionID: "child", todos: [{ content: "theirs", status: "pending" }] }, true);
    state = reduceProgress(state, step("x", "running", "read", { filePath: "/a" }), true);
    expect(state.todos).toEqual([{ content: "mine", status: "pending" }]);
    expect(state.running[0]).toMatchObject({ tool: "read", subagent: true });
  });

  it("keeps bounded: the last three steps, eight running calls, long inputs cut without splitting a surrogate pair", () => {
    let state = startProgress(0);
    for (let i = 0; i < 20; i++) state = reduceProgress(state, step(`r${i}`, "running", "bash", { command: `c${i}` }), false);
    expect(state.running).toHaveLength(8);
    expect(state.steps).toBe(20);
    for (let i = 0; i < 20; i++) state = reduceProgress(state, step(`r${i}`, "completed"), false);
    expect(state.recent).toHaveLength(3);
    const long = `${"a".repeat(1_999)}😀tail`;
    const cut = reduceProgress(startProgress(0), step("l", "running", "bash", { command: long }), false).running[0]!.target!.text;
    expect(cut).toBe("a".repeat(1_999));
  });

  it("a call never named, and anything after the end, change nothing", () => {
    const start = startProgress(0);
    expect(reduceProgress(start, step("n", "running"), false)).toBe(start);
    const ended = endProgress(reduceProgress(start, step("m", "running", "bash", { command: "x" }), false), "done");
    expect(ended.running).toEqual([]);
    expect(reduceProgress(ended, step("m", "completed"), false)).toBe(ended);
  });
});

describe("narrowing untrusted progress events", () => {
  it("drops malformed tool parts and todo lists, keeps well-formed items of a list, never throws", () => {
    const part = (fields: Record<string, unknown>) => parseEvent({ type: "message.part.updated", properties: { part: { type: "tool", ...fields } } })?.event;
    const good = { sessionID: "ses_1", callID: "c1", tool: "bash", state: { status: "running", input: { command: "ls" } } };
    expect(part(good)).toEqual({ type: "tool.step", sessionID: "ses_1", step: { callID: "c1", tool: "bash", state: "running", input: { command: "ls" } } });
    expect(part({ ...good, state: { status: "error" } })).toMatchObject({ step: { state: "failed" } });
    for (const bad of [
      { ...good, callID: 7 },
      { ...good, tool: "" },
      { ...good, tool: "x".repeat(101) },
      { ...good, state: "running" },
      { ...good, sessionID: undefined },
    ])
      expect(part(bad)).toBeUndefined();
    expect(parseEvent({ type: "todo.updated", properties: { sessionID: "ses_1", todos: "no" } })).toBeUndefined();
    expect(
      parseEvent({
        type: "todo.updated",
        properties: { sessionID: "ses_1", todos: [null, { content: 3 }, { content: "ok" }, { content: "b", status: "completed" }] },
      })?.event,
    ).toEqual({
      type: "todo.updated",
      sessionID: "ses_1",
      todos: [
        { content: "ok", status: "pending" },
        { content: "b", status: "completed" },
      ],
    });
    expect(narrowEvent({ type: "session.tool.input.started", data: { sessionID: "ses_1", id: "c", name: 5 } })).toBeUndefined();
    expect(narrowEvent({ type: "session.tool.called", data: { sessionID: "ses_1", id: "c", input: "rm -rf /" } })?.events).toEqual([
      { type: "tool.step", sessionID: "ses_1", step: { callID: "c", state: "running" } },
    ]);
  });
});
