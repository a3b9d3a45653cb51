import type { ServerResponse } from 'node:http';

/** Writes an OpenAI chat-completions answer, streamed (SSE ending in [DONE]) or not. */

export type Reply =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; name: string; args: unknown; callId: string };

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

export function writeReply(res: ServerResponse, reply: Reply, stream: boolean, model: string): void {
  const id = `chatcmpl-mock-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCall = reply.kind === 'tool'
    ? { id: reply.callId, type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.args ?? {}) } }
    : undefined;
  const finish = reply.kind === 'tool' ? 'tool_calls' : 'stop';

  if (!stream) {
    const message = toolCall
      ? { role: 'assistant', content: null, tool_calls: [toolCall] }
      : { role: 'assistant', content: reply.kind === 'text' ? reply.text : '' };
    const body = JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage: USAGE });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: unknown, finishReason: string | null, usage?: unknown) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) })}\n\n`);
  if (toolCall) {
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }, null);
  } else if (reply.kind === 'text') {
    chunk({ role: 'assistant', content: '' }, null);
    chunk({ content: reply.text }, null);
  }
  chunk({}, finish, USAGE);
  res.write('data: [DONE]\n\n');
  res.end();
}
