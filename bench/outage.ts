// Back after an outage: two OpenCode processes' Hermes (child processes running the real hub, as in
// the failover bench: one polls, the other follows over the relay) against the fake Telegram, which
// refuses connections for `outageMs`. 1 s into the outage each process raises a question; measured:
// Telegram back (the fake listens again) → each question's sendMessage at the fake, and how often
// it arrived (once). Backoff alone would send it at the next step of its doubling (500 ms from the
// ask: 1, 1.5, 2.5, 4.5, 8.5, 16.5, 32.5 s), 12.5 s after a 20 s outage.
import { startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { startMember } from "./failover.ts";
import { BENCH_CHATS } from "./interactive.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";

export interface OutageResult {
  runs: number;
  outageMs: number;
  /** Telegram back → the polling process' question at Telegram. */
  leader: Summary;
  /** Telegram back → the other process' question at Telegram (it hears of Telegram through the relay). */
  follower: Summary;
  /** Questions that reached Telegram more than once, over all runs. */
  duplicates: number;
}

export async function runOutage(runs: number, outageMs = 20_000): Promise<OutageResult> {
  const afterBack = { leader: [] as number[], follower: [] as number[] };
  let duplicates = 0;
  for (let run = 0; run < runs; run++) {
    const fake = await startFakeTelegram({ floodLimits: true });
    const config = { token: fake.token, apiRoot: fake.apiRoot, chatId: BENCH_CHATS.private.chatId };
    const members = [startMember(config), startMember(config)];
    try {
      await until(() => members.some((m) => m.role === "leader") && members.some((m) => m.role === "follower"), 30_000, "one leader, one follower", 5);
      await until(() => fake.calls.some((c) => c.method === "getUpdates"), 30_000, "polling", 5);
      await sleep(500); // the follower's relay link is up
      await fake.setFault({ kind: "down", forMs: outageMs });
      await sleep(1_000);
      const asked = members.map((member) => ({ role: member.role as "leader" | "follower", marker: `O${run}${member.role[0]}`, member }));
      for (const { member, marker } of asked) member.child.send({ ask: marker });
      await fake.whenUp();
      const backAt = performance.now();
      const sends = (marker: string) =>
        fake.calls.filter((c) => c.method === "sendMessage" && c.status === 200 && String(c.payload.text ?? "").includes(`[${marker}]`));
      for (const { role, marker } of asked) {
        const sent = await until(() => sends(marker)[0], 60_000, `sendMessage of ${marker}`, 1);
        afterBack[role].push(sent.hrAt! - backAt);
      }
      await sleep(1_500); // room for a duplicate
      for (const { marker } of asked) if (sends(marker).length > 1) duplicates++;
    } finally {
      for (const member of members) member.child.kill("SIGKILL");
      await fake.close();
    }
  }
  return { runs, outageMs, leader: summarize(afterBack.leader), follower: summarize(afterBack.follower), duplicates };
}
