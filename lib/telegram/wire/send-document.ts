// sendDocument (and sendPhoto, for the agent's files) as a plain multipart POST with the runtime's own fetch and FormData, not telegraf's.
// Measured: inside OpenCode 2.0.15 (Bun 1.4.2) telegraf's multipart upload never reaches the
// server (its `compress: true` now means "compress the request body" there, and the streamed form
// hangs); the same FormData upload works under Bun 1.3 (OpenCode 1.18), Bun 1.4 and Node 20.
// A file read in chunks (the agent's files) goes as a streamed body from a private copy instead (disk-upload.ts).
import type { Html } from "../../text/html.ts";
import { type ChunkedBytes, NotSentError } from "./upload-source.ts";

export interface DocumentUpload {
  chatId: number;
  filename: string;
  /** Text (a diff, an answer) goes as text/plain; bytes (a file of the project, in memory or in chunks) as they are, typed `mime`. */
  content: string | Uint8Array | ChunkedBytes;
  mime?: string;
  /** `photo`: sendPhoto (Telegram shows it as a picture); `voice`: sendVoice (OGG/Opus, a voice message); `document` (the default): sendDocument. */
  as?: "photo" | "document" | "voice";
  /** How long the upload may take (a large file takes longer); 60 s when not given. */
  timeoutMs?: number;
  /** HTML, already within Telegram's caption limit (api.ts cuts it on whole characters). */
  caption?: Html;
  replyTo?: number;
  threadId?: number;
}

const UPLOAD_TIMEOUT_MS = 60_000;

/** The Bot API's answer; `code` 0 when there was none. api.ts turns a failure into a TelegramApiError. */
export type UploadResult = { ok: true; messageId: number } | { ok: false; code: number; description: string; retryAfterSeconds?: number };

export async function uploadDocument(token: string, apiRoot: string, upload: DocumentUpload, fetchImpl: typeof fetch = fetch): Promise<UploadResult> {
  const field = upload.as ?? "document";
  const type = typeof upload.content === "string" ? "text/plain" : (upload.mime ?? "application/octet-stream");
  const fields: Array<[string, string]> = [["chat_id", String(upload.chatId)]];
  if (upload.caption) fields.push(["caption", upload.caption], ["parse_mode", "HTML"]);
  if (upload.replyTo) fields.push(["reply_parameters", JSON.stringify({ message_id: upload.replyTo, allow_sending_without_reply: true })]);
  if (upload.threadId !== undefined) fields.push(["message_thread_id", String(upload.threadId)]);
  const method = field === "photo" ? "sendPhoto" : field === "voice" ? "sendVoice" : "sendDocument";
  const url = new URL(`./bot${token}/${method}`, apiRoot.endsWith("/") ? apiRoot : `${apiRoot}/`);
  const { content } = upload;
  let request: { body: BodyInit; headers?: Record<string, string>; duplex?: "half" };
  let dispose = async () => {};
  if (typeof content === "string" || content instanceof Uint8Array) {
    const form = new FormData();
    for (const [name, value] of fields) form.set(name, value);
    form.set(field, new Blob([content as BlobPart], { type }), upload.filename);
    request = { body: form };
  } else {
    const { diskForm } = await import("./disk-upload.ts");
    // Telegram was not asked: the outbox must not try again as if it had not answered.
    const form = await diskForm(fields, { field, filename: upload.filename, type, bytes: content }).catch((error: unknown) => {
      throw new NotSentError(`${upload.filename} could not be read for the upload`, error);
    });
    request = { body: form.body, headers: form.headers, duplex: "half" };
    dispose = form.dispose;
  }
  let response: Response;
  let body: { ok?: boolean; result?: { message_id?: unknown }; error_code?: unknown; description?: unknown; parameters?: { retry_after?: unknown } };
  try {
    response = await fetchImpl(url, { method: "POST", ...request, signal: AbortSignal.timeout(upload.timeoutMs ?? UPLOAD_TIMEOUT_MS) } as RequestInit);
    body = (await response.json()) as typeof body;
  } catch (error) {
    // Never the URL: it carries the token.
    const description = !(error instanceof Error)
      ? `${method} failed`
      : error.name === "TimeoutError"
        ? `no answer to ${method}`
        : error.message.split(token).join("…");
    return { ok: false, code: 0, description };
  } finally {
    await dispose();
  }
  if (body.ok === true && typeof body.result?.message_id === "number") return { ok: true, messageId: body.result.message_id };
  const failure: UploadResult = {
    ok: false,
    code: typeof body.error_code === "number" ? body.error_code : response.status,
    description: typeof body.description === "string" ? body.description : `HTTP ${response.status}`,
  };
  if (typeof body.parameters?.retry_after === "number") failure.retryAfterSeconds = body.parameters.retry_after;
  return failure;
}
