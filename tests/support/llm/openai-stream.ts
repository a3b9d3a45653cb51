import type { ServerResponse } from "node:http";

/** Writes an OpenAI chat-completions answer, streamed (SSE ending in [DONE]) or not. */

export interface ReplyToolCall {
  name: string;
  args: unknown;
  callId: string;
}

/** `tool` is one call; `tools` is one assistant turn with several parallel calls. */
/** `chunks`/`chunkMs`: a streamed text answer written in that many pieces, one every `chunkMs` (see directive.ts). */
export type Reply =
  | { kind: "text"; text: string; chunks?: number; chunkMs?: number }
  | ({ kind: "tool" } & ReplyToolCall)
  | { kind: "tools"; calls: ReplyToolCall[] };

function replyCalls(reply: Reply): ReplyToolCall[] {
  if (reply.kind === "tool") return [reply];
  if (reply.kind === "tools") return reply.calls;
  return [];
}

/** What an answer reports it used (OpenAI's `usage` block). */
export interface ReplyUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const DEFAULT_USAGE: ReplyUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** `usage` null: the answer reports none (as some providers do). */
export function writeReply(res: ServerResponse, reply: Reply, stream: boolean, model: string, usage: ReplyUsage | null = DEFAULT_USAGE): void {
  const id = `chatcmpl-mock-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = replyCalls(reply).map((c) => ({
    id: c.callId,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
  }));
  const finish = toolCalls.length > 0 ? "tool_calls" : "stop";

  if (!stream) {
    const message =
      toolCalls.length > 0
        ? { role: "assistant", content: null, tool_calls: toolCalls }
        : { role: "assistant", content: reply.kind === "text" ? reply.text : "" };
    const body = JSON.stringify({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const chunk = (delta: unknown, finishReason: string | null, usage?: unknown) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) })}\n\n`,
    );
  if (toolCalls.length > 0) {
    // One chunk per call, each complete, with its own index (as OpenAI streams parallel calls).
    for (const [index, call] of toolCalls.entries()) {
      chunk({ ...(index === 0 ? { role: "assistant", content: null } : {}), tool_calls: [{ index, ...call }] }, null);
    }
  } else if (reply.kind === "text") {
    chunk({ role: "assistant", content: "" }, null);
    if (reply.chunks && reply.chunks > 1 && reply.chunkMs) return void writeSlowly(res, pieces(reply.text, reply.chunks), reply.chunkMs, chunk, finish, usage);
    chunk({ content: reply.text }, null);
  }
  chunk({}, finish, usage ?? undefined);
  res.write("data: [DONE]\n\n");
  res.end();
}

/** The text in `count` pieces of about equal length, cut after a space where there is one (joined, they are the text). */
export function pieces(text: string, count: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i < count && from < text.length; i++) {
    let at = Math.max(from + 1, Math.round((text.length * i) / count));
    const space = text.indexOf(" ", at);
    if (space !== -1 && space - at < 40) at = space + 1;
    out.push(text.slice(from, at));
    from = at;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

async function writeSlowly(
  res: ServerResponse,
  parts: string[],
  everyMs: number,
  chunk: (delta: unknown, finishReason: string | null, usage?: unknown) => void,
  finish: string,
  usage: ReplyUsage | null,
): Promise<void> {
  for (const [index, part] of parts.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    if (res.destroyed) return;
    chunk({ content: part }, null);
  }
  chunk({}, finish, usage ?? undefined);
  res.write("data: [DONE]\n\n");
  res.end();
}
