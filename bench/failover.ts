// Failover: two "OpenCode processes" (child processes running the real hub) share one bot; the
// one polling Telegram is killed with SIGKILL and the survivor raises a question at that moment.
// Measured in this process' clock: kill → the survivor's getUpdates (polling resumed) and
// kill → the survivor's sendMessage at the fake Telegram (its next prompt), and kill → the tap
// on that prompt answered at OpenCode (through the survivor's poll). Before the kill both members
// ask and get answered a few times, so pacing has history as in real use: spaced so that the two
// together stay within the chat's budget, or back to back (`warmGapMs` 0), which spends more than
// the chat allows: each process paces only what it sends itself.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeTelegram, type FakeTelegram } from "../tests/support/fake-telegram.ts";
import type { MemberConfig, MemberReport } from "./failover-member.ts";
import { BENCH_CHATS, type ChatKindName } from "./interactive.ts";
import { sleep, summarize, until, type Summary } from "./stats.ts";

const MEMBER = path.join(path.dirname(fileURLToPath(import.meta.url)), "failover-member.ts");

export interface FailoverResult {
  chat: ChatKindName;
  runs: number;
  warmGapMs: number;
  pollingResumed: Summary;
  nextPrompt: Summary;
  tapAnswered: Summary;
  http429: number;
}

interface Member {
  child: ChildProcess;
  role: string;
  replied: Set<string>;
}

export function startMember(config: MemberConfig): Member {
  const child = fork(MEMBER, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, HERMES_BENCH_MEMBER: JSON.stringify(config) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const member: Member = { child, role: "electing", replied: new Set() };
  child.on("message", (report: MemberReport) => {
    if ("role" in report) member.role = report.role;
    else member.replied.add(report.replied);
  });
  return member;
}

async function askAndAnswer(fake: FakeTelegram, member: Member, marker: string): Promise<void> {
  member.child.send({ ask: marker });
  const message = await until(() => fake.messages().find((m) => m.text.includes(`[${marker}]`) && fake.buttons(m).length > 0), 30_000, `question ${marker}`, 2);
  await fake.tapButton(message, "Left");
  await until(() => member.replied.has(`que_${marker}`), 30_000, `answer to ${marker}`, 2);
}

export async function runFailover(chat: ChatKindName, runs: number, options: { warmRounds?: number; warmGapMs?: number } = {}): Promise<FailoverResult> {
  const { warmRounds = 2, warmGapMs = 0 } = options;
  const resumed: number[] = [];
  const prompt: number[] = [];
  const tapped: number[] = [];
  let http429 = 0;
  for (let run = 0; run < runs; run++) {
    const fake = await startFakeTelegram({ floodLimits: true });
    const config = { token: fake.token, apiRoot: fake.apiRoot, chatId: BENCH_CHATS[chat].chatId };
    const members = [startMember(config), startMember(config)];
    try {
      await until(() => members.some((m) => m.role === "leader") && members.some((m) => m.role === "follower"), 30_000, "one leader, one follower", 5);
      for (let round = 0; round < warmRounds; round++) {
        for (const [index, member] of members.entries()) await askAndAnswer(fake, member, `W${run}${round}${index}`);
        await sleep(warmGapMs);
      }
      const leader = members.find((m) => m.role === "leader")!;
      const survivor = members.find((m) => m !== leader)!;
      const marker = `K${run}`;
      const killedAt = performance.now();
      leader.child.kill("SIGKILL");
      survivor.child.send({ ask: marker });
      const sent = await until(
        () => fake.calls.find((c) => c.method === "sendMessage" && String(c.payload.text ?? "").includes(`[${marker}]`) && c.hrAt! > killedAt),
        30_000,
        `sendMessage of ${marker}`,
        1,
      );
      prompt.push(sent.hrAt! - killedAt);
      const message = await until(() => fake.messages().find((m) => m.text.includes(`[${marker}]`)), 10_000, `message ${marker}`, 1);
      await fake.tapButton(message, "Left");
      await until(() => survivor.replied.has(`que_${marker}`), 30_000, `answer to ${marker}`, 1);
      tapped.push(performance.now() - killedAt);
      const poll = fake.calls.find((c) => c.method === "getUpdates" && c.hrAt! > killedAt);
      if (poll) resumed.push(poll.hrAt! - killedAt);
      http429 += fake.flood.rejected;
    } finally {
      for (const member of members) member.child.kill("SIGKILL");
      await fake.close();
    }
  }
  return { chat, runs, warmGapMs, pollingResumed: summarize(resumed), nextPrompt: summarize(prompt), tapAnswered: summarize(tapped), http429 };
}
