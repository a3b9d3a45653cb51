// Back after an outage: the real hub (bridge, outbox, the relay's long poll) against the fake
// Telegram, which refuses connections for `outageMs`. A question is raised 1 s into the outage;
// measured: Telegram back (the fake listens again) → that question's sendMessage at the fake, and
// how often it arrived (it must arrive once). Backoff alone would send it at the next step of its
// doubling (500 ms from the ask: 1, 1.5, 2.5, 4.5, 8.5, 16.5, 32.5 s), 12.5 s after a 20 s outage.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { acquireBridge } from "../lib/hub.ts";
import { OpencodeApi } from "../lib/opencode/api.ts";
import { startFakeTelegram, DEFAULT_CHAT_ID } from "../tests/support/fake-telegram.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";

export interface OutageResult {
  runs: number;
  outageMs: number;
  /** Telegram back → the question's sendMessage at Telegram. */
  afterBack: Summary;
  /** Questions that reached Telegram more than once, over all runs. */
  duplicates: number;
}

const DIRECTORY = "/bench/outage";

export async function runOutage(runs: number, outageMs = 20_000): Promise<OutageResult> {
  const afterBack: number[] = [];
  let duplicates = 0;
  for (let run = 0; run < runs; run++) {
    const fake = await startFakeTelegram({ floodLimits: true });
    const opencode = await startFakeOpencodeServer();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-outage-"));
    const lease = acquireBridge({
      config: { token: fake.token, apiRoot: fake.apiRoot, chatId: DEFAULT_CHAT_ID, allowedUsers: [], questionTtlMs: 0, permissionTtlMs: 0 },
      logger: pino({ level: "silent" }),
      relayAddress: path.join(dir, "relay.sock"),
    });
    try {
      lease.bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
      await until(() => lease.relay.role === "leader" && fake.calls.some((c) => c.method === "getUpdates"), 30_000, "polling", 5);
      await fake.setFault({ kind: "down", forMs: outageMs });
      await sleep(1_000);
      const marker = `O${run}`;
      const question = { question: `Pick one [${marker}]`, header: "Pick", options: [{ label: "Left", description: "" }], multiple: false, custom: true };
      lease.bridge.handleEvent(DIRECTORY, { type: "question.asked", request: { id: `que_${marker}`, sessionID: "ses_outage", questions: [question] } });
      await fake.whenUp();
      const backAt = performance.now();
      const sends = () => fake.calls.filter((c) => c.method === "sendMessage" && c.status === 200 && String(c.payload.text ?? "").includes(`[${marker}]`));
      const sent = await until(() => sends()[0], 60_000, `sendMessage of ${marker}`, 1);
      afterBack.push(sent.hrAt! - backAt);
      await sleep(1_500); // room for a duplicate
      if (sends().length > 1) duplicates++;
    } finally {
      await lease.release();
      await opencode.close();
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return { runs, outageMs, afterBack: summarize(afterBack), duplicates };
}
