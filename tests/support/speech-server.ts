// A fake OpenAI-compatible speech service on loopback: `POST /v1/audio/speech` with JSON. Like
// OpenAI's, it refuses a missing or wrong key (401) and a request without `model`, `voice` or
// `input` (400), and answers the audio asked for (OGG/Opus bytes, `audio/ogg`). It records every
// request (the key it was sent, the JSON) and fails on demand.
import { listenLoopback, readBody, sendJson } from "./loopback-server.ts";

export interface SpeechRequest {
  path: string;
  authorization: string | undefined;
  json: Record<string, unknown>;
  status: number;
}

export interface FakeSpeech {
  /** The base URL to configure (HERMES_SPEECH_URL). */
  url: string;
  key: string;
  /** The audio it answers: an OGG page header, then bytes of every value (the phone must get them unchanged). */
  audio: Buffer;
  readonly requests: readonly SpeechRequest[];
  /** The next `times` requests answer this status with an OpenAI-style error body. */
  fail(status: number, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeSpeech(options: { key?: string } = {}): Promise<FakeSpeech> {
  const key = options.key ?? "sk-test-speech-9876543210";
  const audio = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256))]);
  const requests: SpeechRequest[] = [];
  const failures: number[] = [];
  const server = await listenLoopback(async (req, res) => {
    const text = (await readBody(req)).toString("utf8");
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: refused below
    }
    const record: SpeechRequest = { path: req.url ?? "", authorization: req.headers.authorization, json, status: 0 };
    requests.push(record);
    const answer = (status: number, body: unknown) => {
      record.status = status;
      sendJson(res, status, body);
    };
    if (req.method !== "POST" || req.url !== "/v1/audio/speech") return answer(404, { error: { message: "Not found" } });
    if (req.headers.authorization !== `Bearer ${key}`)
      return answer(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? "none"}`, type: "invalid_request_error" } });
    if (typeof json.model !== "string" || typeof json.voice !== "string" || typeof json.input !== "string")
      return answer(400, { error: { message: "model, voice and input are required" } });
    const failure = failures.shift();
    if (failure) return answer(failure, { error: { message: `the speech service failed (${failure})`, type: "server_error" } });
    record.status = 200;
    res.writeHead(200, { "content-type": json.response_format === "opus" ? "audio/ogg" : "audio/mpeg", "content-length": audio.length });
    res.end(audio);
  });
  return {
    url: `${server.origin}/v1`,
    key,
    audio,
    requests,
    fail(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    close: () => server.close(),
  };
}
