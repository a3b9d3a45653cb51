// The agent sends a 20 MB file (telegram_send_file) while prompts flow: does a prompt's ask → send
// wait for the upload? Prompts are raised one at a time, first with nothing else under way (the
// baseline), then while the file uploads. The upload goes through the real Bot API client (fetch +
// FormData) and the real outbox, over a loopback link throttled to RATE bytes a second (a home
// uplink; over bare loopback 20 MB would be gone before the first prompt). The prompts' own calls
// take the same throttled link, one connection each.
import net from "node:net";
import type { QuestionRequest } from "../lib/hermes-events.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../tests/support/fake-telegram.ts";
import { colorQuestion } from "../tests/support/fixtures.ts";
import { benchBridge } from "./bridge.ts";
import { UNLIMITED_PACING } from "./latency.ts";
import { round, sleep, summarize, until, type Summary } from "./stats.ts";

/** 5 MB/s: a 20 MB upload takes about 4 s. */
const RATE = 5 * 1024 * 1024;
const FILE_BYTES = 20 * 1024 * 1024;
const DIRECTORY = "/bench/agent-file";

export interface AgentFileResult {
  prompts: number;
  fileMB: number;
  rateMBps: number;
  baseline: Summary & { p95: number };
  duringUpload: Summary & { p95: number };
  /** Prompts raised and sent while the file was still uploading. */
  sentDuringUpload: number;
  uploadS: number;
  /** The file reached Telegram whole. */
  delivered: boolean;
}

export async function runAgentFile(options: { prompts?: number; gapMs?: number } = {}): Promise<AgentFileResult> {
  const prompts = options.prompts ?? 30;
  const gapMs = options.gapMs ?? 100;
  const fake = await startFakeTelegram();
  const throttle = await startThrottle(new URL(fake.apiRoot).port, RATE);
  const bridge = benchBridge({ token: fake.token, apiRoot: throttle.url } as FakeTelegram, UNLIMITED_PACING);
  const sent = new Map<string, number>();
  fake.onCall((call) => {
    const marker = call.method === "sendMessage" ? /\[(A\d+)\]/.exec(String(call.payload.text ?? ""))?.[1] : undefined;
    if (marker && !sent.has(marker)) sent.set(marker, call.hrAt!);
  });
  let next = 0;
  const ask = async (): Promise<number> => {
    const marker = `A${next++}`;
    const request: QuestionRequest = { id: `que_file_${marker}`, sessionID: "ses_file", questions: [colorQuestion({ question: `Which color? [${marker}]` })] };
    const started = performance.now();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request });
    const at = await until(() => sent.get(marker), 30_000, `sendMessage of ${marker}`, 0);
    return at - started;
  };
  const series = async (count: number, stillUploading?: () => boolean): Promise<{ waits: number[]; during: number }> => {
    const waits: number[] = [];
    let during = 0;
    for (let index = 0; index < count; index++) {
      waits.push(await ask());
      if (stillUploading?.()) during++;
      await sleep(gapMs);
    }
    return { waits, during };
  };

  bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_file", title: "Agent file bench" } });
  await series(5); // warm-up: connections, the bridge's first-use loads
  const baseline = await series(prompts);

  const bytes = new Uint8Array(FILE_BYTES);
  for (let index = 0; index < bytes.length; index += 4096) bytes[index] = index % 251;
  const uploadStarted = performance.now();
  let uploading = true;
  const upload = bridge
    .sendAgentFile(
      { sessionID: "ses_file", directory: DIRECTORY },
      { as: "document", filename: "app.apk", bytes, mime: "application/octet-stream" },
      "the build",
    )
    .finally(() => (uploading = false));
  await sleep(200);
  const during = await series(prompts, () => uploading);
  const uploaded = await upload.catch(() => undefined);
  const uploadS = (performance.now() - uploadStarted) / 1000;
  const document = uploaded ? fake.messages(DEFAULT_CHAT_ID).find((m) => m.messageId === uploaded.messageId)?.document : undefined;

  await Promise.race([bridge.stop(), sleep(5_000)]);
  await throttle.close();
  await fake.close();
  const withP95 = (waits: number[]) => ({ ...summarize(waits), p95: round(percentile95(waits)) });
  return {
    prompts,
    fileMB: FILE_BYTES / (1024 * 1024),
    rateMBps: RATE / (1024 * 1024),
    baseline: withP95(baseline.waits),
    duringUpload: withP95(during.waits),
    sentDuringUpload: during.during,
    uploadS: round(uploadS, 2),
    delivered: document?.bytes === FILE_BYTES,
  };
}

function percentile95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
}

/** A TCP forwarder on 127.0.0.1 that passes what the client sends at most `bytesPerSecond` (per connection). */
async function startThrottle(port: string, bytesPerSecond: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      client.pause();
      setTimeout(() => client.resume(), (chunk.length * 1000) / bytesPerSecond);
    });
    client.on("end", () => upstream.end());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
