/** Reading OpenAI chat-completions request bodies as OpenCode sends them. */

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

/** Text of a message content: a string, or an array of parts whose text parts are joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p: any) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : ""))
      .filter((t) => t.length > 0)
      .join("\n");
  }
  return "";
}

export function messagesOf(body: any): ChatMessage[] {
  return Array.isArray(body?.messages) ? (body.messages as ChatMessage[]) : [];
}

/** Title generation: no tools offered and a system prompt about titles. */
export function isTitleRequest(body: any): boolean {
  const hasTools = Array.isArray(body?.tools) && body.tools.length > 0;
  if (hasTools) return false;
  return messagesOf(body).some((m) => m.role === "system" && /title/i.exec(contentText(m.content)) !== null);
}
