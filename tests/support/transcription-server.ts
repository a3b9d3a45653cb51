// A fake OpenAI-compatible transcription service on loopback: `POST /v1/audio/transcriptions` with
// multipart/form-data. Like OpenAI's, it refuses a missing or wrong key (401) and a request without
// `file` or `model` (400), and answers `{ "text": … }`. It records every request (the key it was
// sent, the fields, the file's exact bytes), says what the test wants heard, and fails on demand.
import { listenLoopback, readBody, sendJson } from "./loopback-server.ts";
import { parseMultipart } from "./telegram/multipart.ts";

export interface TranscriptionRequest {
  path: string;
  /** The Authorization header as sent (undefined when none). */
  authorization: string | undefined;
  fields: Record<string, string>;
  file?: { filename: string; type?: string; data: Buffer };
  /** What the service answered: a status. */
  status: number;
}

export type Failure = { status: number; body?: unknown } | "hang" | { delayMs: number };

export interface FakeTranscription {
  /** The base URL to configure (HERMES_TRANSCRIBE_URL). */
  url: string;
  /** The key it accepts (HERMES_TRANSCRIBE_KEY). */
  key: string;
  readonly requests: readonly TranscriptionRequest[];
  /** What the next transcriptions hear (until changed); several texts: one for each of the next requests, in order, the last one staying. */
  hear(...texts: string[]): void;
  /** The next `times` requests fail this way: a status (with an OpenAI-style error body), no answer at all, or a late answer. */
  fail(failure: Failure, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeTranscription(options: { key?: string | undefined } = {}): Promise<FakeTranscription> {
  const key = options.key === undefined ? "sk-test-voice-0123456789" : options.key;
  const requests: TranscriptionRequest[] = [];
  const failures: Failure[] = [];
  let heard = ["hello from the phone"];
  const hanging = new Set<() => void>();
  const server = await listenLoopback(async (req, res) => {
    const body = await readBody(req);
    const contentType = req.headers["content-type"] ?? "";
    const parsed = contentType.startsWith("multipart/form-data") ? parseMultipart(body, contentType) : { fields: {}, files: {} };
    const file = parsed.files.file;
    const record: TranscriptionRequest = {
      path: req.url ?? "",
      authorization: req.headers.authorization,
      fields: parsed.fields,
      ...(file ? { file: { filename: file.filename, data: file.data, ...(file.type ? { type: file.type } : {}) } } : {}),
      status: 0,
    };
    requests.push(record);
    const answer = (status: number, json: unknown) => {
      record.status = status;
      sendJson(res, status, json);
    };
    if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions") return answer(404, { error: { message: "Not found" } });
    if (key !== "" && req.headers.authorization !== `Bearer ${key}`) {
      return answer(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? "none"}`, type: "invalid_request_error" } });
    }
    if (!file || !parsed.fields.model) return answer(400, { error: { message: "file and model are required" } });
    // What this request hears is decided when it arrives, whenever it is answered.
    const text = heard.length > 1 ? heard.shift() : heard[0];
    const failure = failures.shift();
    if (failure === "hang") {
      await new Promise<void>((resolve) => {
        hanging.add(resolve);
        res.on("close", () => resolve());
      });
      return;
    }
    if (failure && "delayMs" in failure) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
    else if (failure) return answer(failure.status, failure.body ?? { error: { message: `the service failed (${failure.status})`, type: "server_error" } });
    answer(200, { text });
  });
  return {
    url: `${server.origin}/v1`,
    key,
    requests,
    hear(...texts) {
      heard = texts;
    },
    fail(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    async close() {
      for (const release of hanging) release();
      await server.close();
    },
  };
}
