import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { listenLoopback, readBody, sendJson } from "./loopback-server.ts";
import { pollUntil } from "./wait.ts";
import { contentText, isTitleRequest, messagesOf } from "./llm/chat-request.ts";
import { asStep, parseDirective, scriptProgress, stepCalls, stepThen, type Step } from "./llm/directive.ts";
import { DEFAULT_USAGE, writeReply, type Reply, type ReplyUsage } from "./llm/openai-stream.ts";

/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (random port).
 * Script a run through the prompt text with `directive(...)` (see llm/directive.ts).
 */
export { directive, type Step, type ToolCallSpec } from "./llm/directive.ts";

export interface LlmFailure {
  status: number;
  times?: number;
  message?: string;
  type?: string;
  headers?: Record<string, string>;
  /** Only the agent's requests fail (a title request is answered): `times` counts the run's own requests. */
  agentOnly?: boolean;
  /** Only requests whose user messages hold this text fail (several failures at once, one per session). */
  matching?: string;
}

export interface ToolResult {
  toolCallId: string;
  content: string;
  at: number;
}

/** One answer the mock gave: when, and the tools it called (none for a text answer). */
export interface LlmReply {
  at: number;
  tools: string[];
}

export interface MockLlm {
  baseURL: string;
  requests: any[];
  /** When each of `requests` arrived (Date.now()), by the same index. */
  requestTimes: number[];
  /** Every answer to a chat request, in order. */
  replies: LlmReply[];
  toolResults: ToolResult[];
  waitForToolResult(pred: (r: ToolResult) => boolean, opts?: { timeoutMs?: number; what?: string }): Promise<ToolResult>;
  userMessages(): string[];
  /**
   * The next `times` chat requests (default: all) fail with this status: the body is OpenAI's error
   * shape with `message` (default "mock LLM failure (HTTP n)") and `type`/`code` (default
   * "server_error"), sent with `headers` (a 429's `retry-after`). Title requests fail too.
   */
  setFailure(f: null | LlmFailure | LlmFailure[]): void;
  /** What each answer from now on reports it used (`{ prompt, completion }` tokens), or null: no usage block at all. */
  setUsage(usage: { prompt: number; completion: number } | null): void;
  close(): Promise<void>;
}

export async function startMockLlm(): Promise<MockLlm> {
  const requests: any[] = [];
  const requestTimes: number[] = [];
  const toolResults: ToolResult[] = [];
  const replies: LlmReply[] = [];
  const users: string[] = [];
  let failures: Array<LlmFailure & { remaining: number }> = [];
  let usage: ReplyUsage | null = DEFAULT_USAGE;
  let callCounter = 0;

  const callId = () => `call_${++callCounter}_${randomBytes(4).toString("hex")}`;
  const stepReply = (step: Step, messages: any[] = []): Reply => {
    if ("text" in step) {
      const { byAnswer, ...text } = step;
      const answers = messages.filter((m) => m.role === "tool").map((m) => contentText(m.content));
      const picked = Object.entries(byAnswer ?? {}).find(([label]) => answers.some((answer) => answer.includes(`"${label}"`)));
      return { kind: "text", ...text, ...(picked ? { text: picked[1] } : {}) };
    }
    if ("tool" in step) return { kind: "tool", name: step.tool, args: step.args, callId: callId() };
    return { kind: "tools", calls: stepCalls(step).map((c) => ({ name: c.tool, args: c.args, callId: callId() })) };
  };

  function decide(body: any): Reply {
    if (isTitleRequest(body)) return { kind: "text", text: "Mock title" };
    const messages = messagesOf(body);
    const last = messages[messages.length - 1];
    // OpenCode 2's compaction asks for a summary in its template, and fails one that does not follow it.
    if (last?.role === "user" && isCompactionRequest(contentText(last.content))) return { kind: "text", text: COMPACTION_SUMMARY };
    if (last?.role === "user") {
      const step = parseDirective(contentText(last.content));
      return step ? stepReply(step) : { kind: "text", text: "ok" };
    }
    if (last?.role === "tool") {
      const progress = scriptProgress(messages);
      const then = progress ? stepThen(progress.step) : undefined;
      const next = then ? asStep(then[progress!.rounds - 1]) : undefined;
      return next ? stepReply(next, messages) : { kind: "text", text: `LLM received: ${contentText(last.content)}` };
    }
    return { kind: "text", text: "ok" };
  }

  function observe(body: any): void {
    const title = isTitleRequest(body);
    for (const m of messagesOf(body)) {
      if (m.role === "tool" && m.tool_call_id && !toolResults.some((r) => r.toolCallId === m.tool_call_id)) {
        toolResults.push({ toolCallId: m.tool_call_id, content: contentText(m.content), at: Date.now() });
      }
      if (m.role === "user" && !title) {
        const text = contentText(m.content);
        if (!users.includes(text)) users.push(text);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "");
    if (req.method === "GET" && path.endsWith("/models")) {
      return sendJson(res, 200, { object: "list", data: [{ id: "mock-model", object: "model", owned_by: "mock" }] });
    }
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      return sendJson(res, 404, { error: { message: `mock LLM: no route ${req.method} ${path}`, type: "invalid_request_error" } });
    }
    const body: any = JSON.parse((await readBody(req)).toString("utf8"));
    requests.push(body);
    requestTimes.push(Date.now());
    const failure = failures.find(
      (f) => f.remaining > 0 && !(f.agentOnly && isTitleRequest(body)) && (f.matching === undefined || userText(body).includes(f.matching)),
    );
    if (failure) {
      failure.remaining--;
      const { status, message, type, headers } = failure;
      if (failure.remaining <= 0) failures = failures.filter((f) => f !== failure);
      const kind = type ?? "server_error";
      return sendJson(res, status, { error: { message: message ?? `mock LLM failure (HTTP ${status})`, type: kind, code: kind } }, headers);
    }
    observe(body);
    const reply = decide(body);
    replies.push({ at: Date.now(), tools: reply.kind === "tool" ? [reply.name] : reply.kind === "tools" ? reply.calls.map((call) => call.name) : [] });
    writeReply(res, reply, body.stream === true, String(body.model ?? "mock-model"), usage);
  }

  const server = await listenLoopback(handle);
  const context = () => `mock LLM saw ${requests.length} request(s); tool results: ${JSON.stringify(toolResults.map((r) => r.content.slice(0, 200)))}`;

  return {
    baseURL: `${server.origin}/v1`,
    requests,
    requestTimes,
    replies,
    toolResults,
    waitForToolResult(pred, opts = {}) {
      return pollUntil(() => toolResults.find(pred), { what: "a matching tool result at the mock LLM", ...opts, context });
    },
    userMessages: () => [...users],
    setUsage(next) {
      usage = next ? { prompt_tokens: next.prompt, completion_tokens: next.completion, total_tokens: next.prompt + next.completion } : null;
    },
    setFailure(f) {
      failures = (f === null ? [] : Array.isArray(f) ? f : [f]).map((one) => ({ ...one, remaining: one.times ?? Infinity }));
    },
    close: () => server.close(),
  };
}

/** The text of every user message of a request. */
function userText(body: any): string {
  return messagesOf(body)
    .filter((m) => m.role === "user")
    .map((m) => contentText(m.content))
    .join("\n");
}

/** OpenCode 2.0.15's compaction prompt (measured): a summary "in this format" with a `<template>` of headings. */
function isCompactionRequest(text: string): boolean {
  return text.includes("<template>") && text.includes("## Objective") && /summar/i.test(text);
}

/** A summary with every heading of 2.0.15's compaction template. */
const COMPACTION_SUMMARY = [
  "## Objective",
  "- Test the phone's commands.",
  "## Requirements",
  "- (none)",
  "## Decisions",
  "- (none)",
  "## Work State",
  "### Completed",
  "- (none)",
  "### Active",
  "- (none)",
  "### Blocked",
  "- (none)",
  "## Next Move",
  "1. (none)",
  "## Relevant Files",
  "- (none)",
  "## Important Context",
  "- (none)",
].join("\n");
