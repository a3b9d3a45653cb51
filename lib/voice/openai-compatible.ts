// The one HTTP client of a transcription service: OpenAI's `POST <url>/audio/transcriptions`, which
// OpenAI, Groq and local Whisper servers (whisper.cpp's server, faster-whisper servers, LocalAI)
// all answer. multipart/form-data with `file`, `model` and `language`, the key as a Bearer token,
// `text` read from the JSON answer. One request per voice note: never retried, so one voice note
// can never become two prompts. The key goes in the header and nowhere else (no error quotes it).
// Before each request, a loopback service must be listened for by this user (lib/system/listener-owner.ts):
// another local user who took the port while the service was down gets neither audio nor key.
import type { TranscriptionSettings } from "../config/config.ts";
import { isRecord } from "../util/is-record.ts";
import { listenerProblem, systemOwnerCheck, type OwnerCheck } from "../system/listener-owner.ts";
import { basicSecrets } from "../config/process-secrets.ts";
import { causeOf, readAtMost, serviceSaid, shortDetail } from "./service-answer.ts";
import type { AudioType } from "./audio-type.ts";
import { TranscriptionError, type Transcriber } from "./transcriber.ts";

/** The service's answer, read at most: a squatting or broken service can answer without end. */
export const ANSWER_LIMIT_BYTES = 1_000_000;
/**
 * The transcript's length, at most: at 150 spoken words a minute (about 900 characters), 100,000
 * characters is close to two hours of speech, more than a voice note Telegram lets a bot download
 * (20 MB) carries at the bitrate of a voice note. A longer one is not speech, and goes nowhere.
 */
export const TRANSCRIPT_LIMIT_CHARS = 100_000;

export function openaiTranscriber(
  settings: TranscriptionSettings,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
  ownerCheck: OwnerCheck | undefined = systemOwnerCheck(),
): Transcriber {
  const endpoint = `${settings.url.replace(/\/+$/, "")}/audio/transcriptions`;
  // A service may quote the key (or the URL's password) it refused: what it says is shown only without it.
  const basic = settings.basic === undefined ? undefined : Buffer.from(settings.basic).toString("base64");
  const secrets = [settings.key ?? "", ...basicSecrets(settings.basic)].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  const withoutKey = (text: string) => secrets.reduce((out, secret) => out.split(secret).join("[key]"), text);
  return {
    async transcribe(bytes: Uint8Array, audio: AudioType): Promise<string> {
      const problem = ownerCheck && (await listenerProblem(endpoint, ownerCheck));
      if (problem && "unclassified" in problem)
        throw new TranscriptionError({ kind: "failed", detail: `${problem.unclassified} does not resolve: nothing sent` });
      if (problem)
        throw new TranscriptionError({ kind: "foreignListener", address: `${problem.listener.address}:${problem.listener.port}`, uid: problem.listener.uid });
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type: audio.mime }), `voice.${audio.extension}`);
      form.append("model", settings.model);
      if (settings.language) form.append("language", settings.language);
      form.append("response_format", "json");
      const headers: Record<string, string> = settings.key ? { authorization: `Bearer ${settings.key}` } : basic ? { authorization: `Basic ${basic}` } : {};
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await fetchImpl(endpoint, { method: "POST", body: form, headers, signal, redirect: "error" });
        const bytes = await readAtMost(response, ANSWER_LIMIT_BYTES);
        if (bytes === undefined) throw new TranscriptionError({ kind: "tooLong", limit: `${ANSWER_LIMIT_BYTES / 1_000_000} MB` });
        const body = bytes.toString("utf8");
        if (response.status === 401 || response.status === 403) throw new TranscriptionError({ kind: "refused", status: response.status });
        if (!response.ok) throw new TranscriptionError({ kind: "failed", detail: `HTTP ${response.status}${serviceSaid(withoutKey(body))}` });
        const text = textOf(body);
        if (text.length > TRANSCRIPT_LIMIT_CHARS)
          throw new TranscriptionError({ kind: "tooLong", limit: `${TRANSCRIPT_LIMIT_CHARS.toLocaleString("en")} characters` });
        return text;
      } catch (error) {
        if (error instanceof TranscriptionError) throw error;
        if (signal.aborted) throw new TranscriptionError({ kind: "timeout", ms: timeoutMs });
        throw new TranscriptionError({ kind: "failed", detail: shortDetail(withoutKey(causeOf(error))) });
      }
    },
  };
}

/** The `text` of the JSON answer. */
function textOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new TranscriptionError({ kind: "failed", detail: "the answer is not JSON" });
  }
  if (!isRecord(parsed) || typeof parsed.text !== "string") throw new TranscriptionError({ kind: "failed", detail: "the answer has no text" });
  return parsed.text;
}
