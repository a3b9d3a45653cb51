// The one HTTP client of a transcription service, against the fake OpenAI-compatible server on
// loopback: what it sends (the exact bytes, model, language, key), what it reads back, and how each
// failure is told apart; and which bytes count as audio.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audioType } from "../../lib/voice/audio-type.ts";
import { openaiTranscriber } from "../../lib/voice/openai-compatible.ts";
import { TranscriptionError } from "../../lib/voice/transcriber.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";

const OGG = Buffer.concat([Buffer.from("OggS\0\x02", "latin1"), Buffer.from([0, 1, 2, 255, 254, 0x80, 13, 10])]);
const OGG_TYPE = { mime: "audio/ogg", extension: "ogg" };

async function failure(work: Promise<unknown>): Promise<TranscriptionError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof TranscriptionError)) throw new Error(`expected a TranscriptionError, got ${String(error)}`);
  return error;
}

describe("openaiTranscriber", () => {
  let server: FakeTranscription;
  beforeAll(async () => {
    server = await startFakeTranscription();
  });
  afterAll(() => server.close());

  it("posts the exact bytes as `file`, with the model, the language and the key, and reads `text`", async () => {
    server.hear("  rename the function  ");
    const transcriber = openaiTranscriber({ url: `${server.url}/`, key: server.key, model: "whisper-large-v3", language: "zh" }, 5_000);
    expect(await transcriber.transcribe(OGG, OGG_TYPE)).toBe("  rename the function  ");
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/v1/audio/transcriptions");
    expect(request.authorization).toBe(`Bearer ${server.key}`);
    expect(request.fields).toEqual({ model: "whisper-large-v3", language: "zh", response_format: "json" });
    expect(request.file?.filename).toBe("voice.ogg");
    expect(request.file?.type).toBe("audio/ogg");
    expect(request.file?.data.equals(OGG)).toBe(true);
  });

  it("sends no language when none is set, and no Authorization without a key (a local server)", async () => {
    const local = await startFakeTranscription({ key: "" });
    try {
      local.hear("ok");
      expect(await openaiTranscriber({ url: local.url, model: "base" }, 5_000).transcribe(OGG, OGG_TYPE)).toBe("ok");
      expect(local.requests[0]!.fields).toEqual({ model: "base", response_format: "json" });
      expect(local.requests[0]!.authorization).toBeUndefined();
    } finally {
      await local.close();
    }
  });

  it("a refused key is told as such, and the service's echo of the key is never repeated", async () => {
    const before = server.requests.length;
    const error = await failure(openaiTranscriber({ url: server.url, key: "sk-wrong-key-123456", model: "whisper-1" }, 5_000).transcribe(OGG, OGG_TYPE));
    expect(error.failure).toEqual({ kind: "refused", status: 401 });
    expect(server.requests.length - before).toBe(1);
  });

  it("a failure is one request (never retried), with the status and the service's own message; the key is never quoted", async () => {
    const key = server.key;
    server.fail({ status: 500, body: { error: { message: `overloaded, key ${key} throttled` } } });
    const before = server.requests.length;
    const error = await failure(openaiTranscriber({ url: server.url, key, model: "whisper-1" }, 5_000).transcribe(OGG, OGG_TYPE));
    expect(error.failure).toEqual({ kind: "failed", detail: "HTTP 500: overloaded, key [key] throttled" });
    expect(error.message).not.toContain(key);
    expect(server.requests.length - before).toBe(1);
  });

  it("no answer within the wait is a timeout, not a failure to retry", async () => {
    server.fail("hang");
    const before = server.requests.length;
    const error = await failure(openaiTranscriber({ url: server.url, key: server.key, model: "whisper-1" }, 300).transcribe(OGG, OGG_TYPE));
    expect(error.failure).toEqual({ kind: "timeout", ms: 300 });
    expect(server.requests.length - before).toBe(1);
  });

  it("an answer without text, or not JSON, is a failure", async () => {
    const transcriber = openaiTranscriber({ url: server.url, key: server.key, model: "whisper-1" }, 5_000);
    server.fail({ status: 200, body: { words: [] } });
    expect((await failure(transcriber.transcribe(OGG, OGG_TYPE))).failure).toEqual({ kind: "failed", detail: "the answer has no text" });
  });

  it("an answer streamed without a length is read no further than 1 MB; a longer transcript is refused too", async () => {
    let written = 0;
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"text":"');
      const chunk = "a".repeat(64 * 1024);
      const more = () => {
        while (written < 50_000_000 && res.write(chunk)) written += chunk.length;
        if (written < 50_000_000) res.once("drain", more);
      };
      res.on("close", () => res.off("drain", more));
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/v1`;
      const error = await failure(openaiTranscriber({ url, model: "whisper-1" }, 10_000).transcribe(OGG, OGG_TYPE));
      expect(error.failure).toEqual({ kind: "tooLong", limit: "1 MB" });
      expect(written).toBeLessThan(20_000_000);
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
    server.hear("x".repeat(100_001));
    const long = await failure(openaiTranscriber({ url: server.url, key: server.key, model: "whisper-1" }, 5_000).transcribe(OGG, OGG_TYPE));
    expect(long.failure).toEqual({ kind: "tooLong", limit: "100,000 characters" });
    server.hear("x".repeat(100_000));
    expect(await openaiTranscriber({ url: server.url, key: server.key, model: "whisper-1" }, 5_000).transcribe(OGG, OGG_TYPE)).toHaveLength(100_000);
  });

  it("a user and password from the URL go as HTTP Basic; a refusal that quotes them is shown without them", async () => {
    const local = await startFakeTranscription({ key: "" });
    try {
      local.hear("basic ok");
      const basic = "whisper-user:pw-s3cret-77";
      expect(await openaiTranscriber({ url: local.url, basic, model: "base" }, 5_000).transcribe(OGG, OGG_TYPE)).toBe("basic ok");
      expect(local.requests[0]!.authorization).toBe(`Basic ${Buffer.from(basic).toString("base64")}`);
      local.fail({ status: 500, body: { error: { message: `bad credentials ${basic} / ${Buffer.from(basic).toString("base64")} / pw-s3cret-77` } } });
      const error = await failure(openaiTranscriber({ url: local.url, basic, model: "base" }, 5_000).transcribe(OGG, OGG_TYPE));
      expect(error.message).toBe("HTTP 500: bad credentials [key] / [key] / [key]");
    } finally {
      await local.close();
    }
  });

  it("a service that cannot be reached says why", async () => {
    const gone = await startFakeTranscription();
    await gone.close();
    const error = await failure(openaiTranscriber({ url: gone.url, model: "whisper-1" }, 5_000).transcribe(OGG, OGG_TYPE));
    expect(error.failure.kind).toBe("failed");
    expect(error.message).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe("audioType", () => {
  const bytes = (text: string, ...rest: number[]) => Uint8Array.from([...Buffer.from(text, "latin1"), ...rest]);
  it.each([
    ["an OGG/Opus voice note", bytes("OggS\0\x02\0\0"), "audio/ogg", "ogg"],
    ["a WAV file", bytes("RIFF\x24\0\0\0WAVEfmt "), "audio/wav", "wav"],
    ["an M4A file", bytes("\0\0\0\x20ftypM4A \0\0\0\0"), "audio/mp4", "m4a"],
    ["an MP4 (isom) file", bytes("\0\0\0\x18ftypisom"), "audio/mp4", "m4a"],
    ["an MP3 with an ID3 tag", bytes("ID3\x04\0\0"), "audio/mpeg", "mp3"],
    ["an MP3 frame without a tag", Uint8Array.from([0xff, 0xfb, 0x90, 0x64]), "audio/mpeg", "mp3"],
  ])("%s is audio", (_name, data, mime, extension) => {
    expect(audioType(data)).toEqual({ mime, extension });
  });

  it.each([
    ["a JPEG", Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])],
    ["a WebP (RIFF, not WAVE)", bytes("RIFF\x24\0\0\0WEBPVP8 ")],
    ["a HEIF image (ftyp heic)", bytes("\0\0\0\x18ftypheic")],
    ["ADTS AAC (layer 0)", Uint8Array.from([0xff, 0xf1, 0x50, 0x80])],
    ["text", bytes("hello world")],
    ["too short to tell", bytes("Og")],
  ])("%s is not", (_name, data) => {
    expect(audioType(data)).toBeUndefined();
  });
});
