import { contentText, type ChatMessage } from "./chat-request.ts";

/**
 * The scripting protocol: a user message containing `HERMES_TEST {json}` tells the mock what
 * to answer. `{ "tool": name, "args": {...}, "then": [step, ...] }` calls a tool, then after
 * each tool result performs the next `then` step; `{ "text": "..." }` answers text.
 * `{ "tools": [{ "tool": name, "args": {...} }, ...], "then"?: [...] }` answers one assistant
 * turn with several parallel tool calls (indexes 0..n-1, unique ids). A turn counts as one
 * round however many calls it holds, so `then[0]` runs after all its results came back; a
 * `then` entry may itself be a parallel `tools` step.
 */
export interface ToolCallSpec {
  tool: string;
  args: unknown;
}

/** A text step may be streamed slowly: in `chunks` pieces (split on words), one every `chunkMs` (an answer as it is written). */
export interface TextStep {
  text: string;
  chunks?: number;
  chunkMs?: number;
  /**
   * The text that follows the answer given: the first label found quoted (`"SQLite"`) in an
   * earlier tool result of the conversation (a question's answer) picks its text; `text` otherwise.
   */
  byAnswer?: Record<string, string>;
}

export type Step = { tool: string; args: unknown; then?: unknown[] } | { tools: ToolCallSpec[]; then?: unknown[] } | TextStep;

export const MARKER = "HERMES_TEST";

export function directive(step: Step): string {
  return `${MARKER} ${JSON.stringify(step)}`;
}

/** Parses the JSON object following the marker (balanced-brace scan, strings respected). */
export function parseDirective(text: string): Step | undefined {
  const at = text.indexOf(MARKER);
  if (at === -1) return undefined;
  const start = text.indexOf("{", at + MARKER.length);
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return asStep(JSON.parse(text.slice(start, i + 1)));
  }
  return undefined;
}

export function asStep(value: unknown): Step | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const then = Array.isArray(v.then) ? { then: v.then } : {};
  if (typeof v.tool === "string") return { tool: v.tool, args: v.args ?? {}, ...then };
  if (Array.isArray(v.tools)) {
    const tools = v.tools.map(asCallSpec);
    if (tools.length > 0 && tools.every((t): t is ToolCallSpec => t !== undefined)) return { tools, ...then };
    return undefined;
  }
  if (typeof v.text === "string") {
    const pace = typeof v.chunks === "number" && typeof v.chunkMs === "number" ? { chunks: v.chunks, chunkMs: v.chunkMs } : {};
    const byAnswer =
      v.byAnswer && typeof v.byAnswer === "object" && Object.values(v.byAnswer).every((text) => typeof text === "string")
        ? { byAnswer: v.byAnswer as Record<string, string> }
        : {};
    return { text: v.text, ...pace, ...byAnswer };
  }
  return undefined;
}

function asCallSpec(value: unknown): ToolCallSpec | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  return typeof v.tool === "string" ? { tool: v.tool, args: v.args ?? {} } : undefined;
}

/** The tool calls a step makes in its one assistant turn (none for a text step). */
export function stepCalls(step: Step): ToolCallSpec[] {
  if ("tools" in step) return step.tools;
  if ("tool" in step) return [{ tool: step.tool, args: step.args }];
  return [];
}

/** The steps scripted to follow a tool-calling step. */
export function stepThen(step: Step): unknown[] | undefined {
  return "text" in step ? undefined : step.then;
}

/**
 * After a tool result: the directive of the last scripted user message, and how many tool-call
 * rounds the assistant has made since it (1 = the directive's own call, 2 = then[0], ...).
 */
export function scriptProgress(messages: ChatMessage[]): { step: Step; rounds: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    const step = parseDirective(contentText(m.content));
    if (!step) continue; // e.g. a synthetic user message OpenCode inserted
    const rounds = messages.slice(i + 1).filter((x) => x.role === "assistant" && (x.tool_calls?.length ?? 0) > 0).length;
    return { step, rounds };
  }
  return undefined;
}
