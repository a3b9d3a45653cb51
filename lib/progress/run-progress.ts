// A run's live progress, pure: events in, the run's progress out (its todo list, the tool calls
// running now, the last few finished, how many so far, since when). Sub-agents' steps count in
// their root run; their todo lists do not replace the root's. No I/O, no clock: time is passed in.
import type { HermesEvent, TodoItem, ToolStep } from "../hermes-events.ts";

export type ProgressEvent = Extract<HermesEvent, { type: "todo.updated" | "tool.step" }>;

/** What a step works on, from its input: the shell command, the file, the sub-agent and its task, the pattern, the URL. */
export interface StepTarget {
  kind: "command" | "file" | "agent" | "pattern" | "url";
  text: string;
  /** For a sub-agent: its task. */
  detail?: string;
}

export interface StepView {
  callID: string;
  tool: string;
  state: ToolStep["state"];
  target?: StepTarget;
  /** The call was made inside a sub-agent's session. */
  subagent: boolean;
}

/** `paused`: ended by a usage limit, to be resumed (lib/bridge/walkaway/ has its pause message). */
export type RunEnd = "done" | "failed" | "stopped" | "paused";

export interface RunProgress {
  startedAt: number;
  todos: TodoItem[];
  /** Calls still running, oldest first. */
  running: StepView[];
  /** The last calls that ended, newest last. */
  recent: StepView[];
  /** Calls seen so far. */
  steps: number;
  ended?: RunEnd;
}

/** Finished steps kept (the message shows them compact). */
export const RECENT_STEPS = 3;
/** More calls running at once than this (parallel calls, sub-agents) keep only the newest. */
const RUNNING_KEPT = 8;
/** Todo items kept; a longer list is the LLM's noise. */
const TODOS_KEPT = 100;
/** Longest text kept from an input (in UTF-16 units; the renderer cuts shorter, on graphemes). */
const TEXT_KEPT = 2_000;

export function startProgress(now: number): RunProgress {
  return { startedAt: now, todos: [], running: [], recent: [], steps: 0 };
}

/** The state after one event. `subagent`: the event comes from a sub-agent's session of this run. */
export function reduceProgress(state: RunProgress, event: ProgressEvent, subagent: boolean): RunProgress {
  if (state.ended) return state;
  if (event.type === "todo.updated") {
    if (subagent) return state;
    return { ...state, todos: event.todos.slice(0, TODOS_KEPT).map((item) => ({ content: kept(item.content), status: item.status })) };
  }
  const { step } = event;
  const known = state.running.find((view) => view.callID === step.callID);
  const tool = step.tool ?? known?.tool;
  if (tool === undefined) return state; // a call whose tool was never named: nothing to show
  const target = (step.input && targetOf(step.input)) ?? known?.target;
  const view: StepView = { callID: step.callID, tool, state: step.state, subagent, ...(target ? { target } : {}) };
  const others = state.running.filter((other) => other.callID !== step.callID);
  const seen = known !== undefined || state.recent.some((other) => other.callID === step.callID);
  const steps = seen ? state.steps : state.steps + 1;
  if (step.state === "running") {
    if (known && sameView(known, view)) return state;
    const running = known ? state.running.map((other) => (other.callID === step.callID ? view : other)) : [...others, view].slice(-RUNNING_KEPT);
    return { ...state, running, steps };
  }
  const recent = [...state.recent.filter((other) => other.callID !== step.callID), view].slice(-RECENT_STEPS);
  return { ...state, running: others, recent, steps };
}

/** The run ended: no more changes. */
export function endProgress(state: RunProgress, how: RunEnd): RunProgress {
  return state.ended ? state : { ...state, ended: how, running: [] };
}

/**
 * Whether the run has something to show: a todo list, or a step other than the todo tool's own
 * (whose list follows it at once: a message sent on the step alone would need an edit for it).
 */
export function hasSomethingToShow(state: RunProgress): boolean {
  const telling = (step: StepView) => step.tool !== "todowrite";
  return state.todos.length > 0 || state.running.some(telling) || state.recent.some(telling);
}

/** Done items out of all (cancelled ones count as neither). */
export function todoCount(todos: readonly TodoItem[]): { done: number; total: number } {
  const counted = todos.filter((item) => item.status !== "cancelled");
  return { done: counted.filter((item) => item.status === "completed").length, total: counted.length };
}

/** Reads the target from the input's field names, which are the same across tools and versions. */
export function targetOf(input: Record<string, unknown>): StepTarget | undefined {
  const text = (key: string) => (typeof input[key] === "string" && input[key] !== "" ? kept(input[key]) : undefined);
  const command = text("command");
  if (command) return { kind: "command", text: command };
  const agent = text("subagent_type") ?? text("agent");
  if (agent) {
    const task = text("description");
    return { kind: "agent", text: agent, ...(task ? { detail: task } : {}) };
  }
  const file = text("filePath") ?? text("path") ?? text("file_path");
  if (file) return { kind: "file", text: file };
  const pattern = text("pattern");
  if (pattern) return { kind: "pattern", text: pattern };
  const url = text("url");
  if (url) return { kind: "url", text: url };
  return undefined;
}

function sameView(a: StepView, b: StepView): boolean {
  return a.tool === b.tool && a.state === b.state && a.target?.text === b.target?.text && a.target?.detail === b.target?.detail;
}

/** At most TEXT_KEPT units, never ending inside a surrogate pair. */
function kept(text: string): string {
  if (text.length <= TEXT_KEPT) return text;
  const end = /[\uD800-\uDBFF]/.test(text[TEXT_KEPT - 1]!) ? TEXT_KEPT - 1 : TEXT_KEPT;
  return text.slice(0, end);
}
