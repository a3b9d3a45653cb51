// Reading an answer of an outside HTTP service Hermes calls (transcription, speech): never more
// than a limit (a squatting or broken service can answer without end), what it said in an error
// (OpenAI's `{ error: { message } }` or plain text, cut short), and why fetch failed. Untrusted text
// in, short text out; the callers take their keys out of it.
import { isRecord } from "../util/is-record.ts";

/** What of a service's error answer reaches the phone and the log, at most. */
const DETAIL_LIMIT = 200;

/** The body's bytes, or undefined (the rest left unread) once it passes `limit` bytes. */
export async function readAtMost(response: Response, limit: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return declared > limit ? undefined : Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** ": <the service's error message>", from OpenAI's `{ error: { message } }` or a plain-text body; "" when it said nothing. */
export function serviceSaid(body: string): string {
  let message: unknown = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed)) message = isRecord(parsed.error) ? parsed.error.message : (parsed.error ?? parsed.detail ?? parsed.message);
  } catch {
    // A plain-text body is the message.
  }
  return typeof message === "string" && message.trim() !== "" ? `: ${shortDetail(message.trim())}` : "";
}

/** fetch's TypeError says only "fetch failed": the reason is its cause. */
export function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

export function shortDetail(text: string): string {
  const chars = Array.from(text);
  return chars.length > DETAIL_LIMIT ? `${chars.slice(0, DETAIL_LIMIT).join("")}…` : text;
}
