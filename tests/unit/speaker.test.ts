// The speech client against the fake OpenAI-compatible speech service on loopback: JSON with the
// model, the voice, the words and Opus; the key as a Bearer header; the audio's exact bytes back. A
// refused key, a failing service (its status, never the key), an answer that is not OGG or is too
// large, a redirect: a SpeechError that says which. Secrets the agent printed are not spoken.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openaiSpeaker } from "../../lib/voice/openai-speech.ts";
import { SPEECH_LIMIT_BYTES, SpeechError } from "../../lib/voice/speaker.ts";
import { startFakeSpeech, type FakeSpeech } from "../support/speech-server.ts";

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as SpeechError,
  );

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe("openaiSpeaker", () => {
  let service: FakeSpeech;
  beforeAll(async () => {
    service = await startFakeSpeech();
  });
  afterAll(() => service.close());

  const settings = () => ({ url: `${service.url}/`, key: service.key, model: "kokoro", voice: "af_sky" });

  it("asks for Opus with the model, the voice and the words, the key as a Bearer header; gives back the audio's exact bytes", async () => {
    const audio = await openaiSpeaker(settings(), 5_000, fetch, undefined).speak("Hello there.");
    expect(Buffer.from(audio).equals(service.audio)).toBe(true);
    const asked = service.requests.at(-1)!;
    expect(asked.path).toBe("/v1/audio/speech");
    expect(asked.authorization).toBe(`Bearer ${service.key}`);
    expect(asked.json).toEqual({ model: "kokoro", voice: "af_sky", input: "Hello there.", response_format: "opus" });
  });

  it("never speaks a secret the agent printed: the bot token, the key", async () => {
    const token = "123456:AAE-secret-token-abcdefghijkl";
    await openaiSpeaker({ ...settings(), withheld: [token] }, 5_000, fetch, undefined).speak(`The token is ${token} and the key ${service.key}.`);
    expect(service.requests.at(-1)!.json.input).toBe("The token is   and the key  .");
  });

  it("a refused key, a failing service: which, with its status and what it said, never the key", async () => {
    const refused = await failure(openaiSpeaker({ ...settings(), key: "sk-wrong-key-123456" }, 5_000, fetch, undefined).speak("x"));
    expect(refused).toBeInstanceOf(SpeechError);
    expect(refused?.failure).toEqual({ kind: "refused", status: 401 });
    service.fail(503);
    const failed = await failure(openaiSpeaker(settings(), 5_000, fetch, undefined).speak("x"));
    expect(failed?.failure).toEqual({ kind: "failed", detail: "HTTP 503: the speech service failed (503)" });
  });

  it("an answer that is not OGG, one larger than the cap, a redirect: refused, nothing played", async () => {
    const answers = [
      (res: http.ServerResponse) => res.writeHead(200, { "content-type": "audio/mpeg" }).end(Buffer.from("ID3\x04 not a voice message")),
      (res: http.ServerResponse) => res.writeHead(200, { "content-type": "audio/ogg", "content-length": String(SPEECH_LIMIT_BYTES + 1) }).end(),
      (res: http.ServerResponse) => res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end(),
    ];
    const local = await serve((req, res) => {
      req.resume();
      req.on("end", () => answers.shift()!(res));
    });
    try {
      const speaker = openaiSpeaker({ url: local.url, model: "tts-1", voice: "alloy" }, 5_000, fetch, undefined);
      expect((await failure(speaker.speak("x")))?.message).toBe("the answer is not OGG/Opus audio");
      expect((await failure(speaker.speak("x")))?.message).toBe("the audio is larger than 20 MB");
      expect((await failure(speaker.speak("x")))?.failure.kind).toBe("failed");
    } finally {
      await local.close();
    }
  });

  it("a loopback port listened on by another user: nothing sent, said so", async () => {
    const before = service.requests.length;
    const port = Number(new URL(service.url).port);
    // /proc/net/tcp as the kernel writes it: 127.0.0.1 on the service's port, listening (0A), uid 65534.
    const line = `   0: 0100007F:${port.toString(16).toUpperCase().padStart(4, "0")} 00000000:0000 0A 00000000:00000000 00:00000000 00000000 65534        0 1 1 0000000000000000 100 0 0 10 0`;
    const check = { uid: process.getuid?.() ?? 1000, read: (file: "tcp" | "tcp6") => (file === "tcp" ? `header\n${line}\n` : "header\n") };
    const error = await failure(openaiSpeaker(settings(), 5_000, fetch, check).speak("secret words"));
    expect(error?.failure).toEqual({ kind: "foreignListener", address: `127.0.0.1:${port}`, uid: 65534 });
    expect(service.requests.length).toBe(before);
  });
});
