// The one HTTP client of a speech service: OpenAI's `POST <url>/audio/speech`, which OpenAI and
// the local servers that speak it (Kokoro-FastAPI, openedai-speech, LocalAI) answer. JSON with
// `model`, `voice`, `input` and `response_format: "opus"` (OGG/Opus, what a Telegram voice message
// is), the key as a Bearer token and nowhere else (no error quotes it). One request per answer,
// never retried; the answer is read up to SPEECH_LIMIT_BYTES and must be OGG. Before each request
// a loopback service must be listened for by this user (lib/system/listener-owner.ts): another local user who
// took the port while the service was down gets neither the answer's words nor the key. A secret
// the agent wrote into its answer (the bot token, a key) is left out of what is spoken.
import type { SpeechSettings } from "../config/speech-settings.ts";
import { listenerProblem, systemOwnerCheck, type OwnerCheck } from "../system/listener-owner.ts";
import { causeOf, readAtMost, serviceSaid, shortDetail } from "./service-answer.ts";
import { SPEECH_LIMIT_BYTES, SpeechError, type Speaker } from "./speaker.ts";

/** Every OGG page starts so (RFC 3533): what Telegram plays as a voice message. */
const OGG_MAGIC = Buffer.from("OggS", "latin1");

export function openaiSpeaker(
  settings: SpeechSettings,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
  ownerCheck: OwnerCheck | undefined = systemOwnerCheck(),
): Speaker {
  const endpoint = `${settings.url.replace(/\/+$/, "")}/audio/speech`;
  const key = settings.key;
  const withoutKey = (text: string) => (key && key.length >= 4 ? text.split(key).join("[key]") : text);
  // Longest first: the whole token goes before its secret half.
  const withheld = [...(settings.withheld ?? []), ...(key ? [key] : [])].filter((secret) => secret.length >= 6).sort((a, b) => b.length - a.length);
  const unspoken = (text: string) => withheld.reduce((out, secret) => out.split(secret).join(" "), text);
  return {
    async speak(text: string): Promise<Uint8Array> {
      const problem = ownerCheck && (await listenerProblem(endpoint, ownerCheck));
      if (problem && "unclassified" in problem) throw new SpeechError({ kind: "failed", detail: `${problem.unclassified} does not resolve: nothing sent` });
      if (problem)
        throw new SpeechError({ kind: "foreignListener", address: `${problem.listener.address}:${problem.listener.port}`, uid: problem.listener.uid });
      const body = JSON.stringify({ model: settings.model, voice: settings.voice, input: unspoken(text), response_format: "opus" });
      const headers: Record<string, string> = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await fetchImpl(endpoint, { method: "POST", body, headers, signal, redirect: "error" });
        const bytes = await readAtMost(response, SPEECH_LIMIT_BYTES);
        if (bytes === undefined) throw new SpeechError({ kind: "failed", detail: `the audio is larger than ${SPEECH_LIMIT_BYTES / 1024 / 1024} MB` });
        if (response.status === 401 || response.status === 403) throw new SpeechError({ kind: "refused", status: response.status });
        if (!response.ok) throw new SpeechError({ kind: "failed", detail: `HTTP ${response.status}${serviceSaid(withoutKey(bytes.toString("utf8")))}` });
        if (!bytes.subarray(0, 4).equals(OGG_MAGIC)) throw new SpeechError({ kind: "failed", detail: "the answer is not OGG/Opus audio" });
        return new Uint8Array(bytes);
      } catch (error) {
        if (error instanceof SpeechError) throw error;
        if (signal.aborted) throw new SpeechError({ kind: "failed", detail: `no answer within ${Math.round(timeoutMs / 1000)} s` });
        throw new SpeechError({ kind: "failed", detail: shortDetail(withoutKey(causeOf(error))) });
      }
    },
  };
}
