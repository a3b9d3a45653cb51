// One OpenCode process' Hermes for the failover bench, in a child process: the real hub (bridge,
// outbox, relay election over the local socket) with a loopback OpenCode stand-in of its own.
// Driven over IPC: {ask: marker} raises a question; it reports its relay role and replies.
import pino from "pino";
import { acquireBridge } from "../lib/plugin/hub.ts";
import { OpencodeApi } from "../lib/opencode/api.ts";
import { fetchTransport, startFakeOpencodeServer } from "./fake-opencode.ts";

export interface MemberConfig {
  token: string;
  apiRoot: string;
  chatId: number;
}
export type MemberCommand = { ask: string };
export type MemberReport = { role: string } | { replied: string };

const DIRECTORY = "/bench/failover";
const config = JSON.parse(process.env.HERMES_BENCH_MEMBER ?? "{}") as MemberConfig;
const send = (report: MemberReport) => process.send?.(report);

const opencode = await startFakeOpencodeServer();
const lease = acquireBridge({
  config: { token: config.token, apiRoot: config.apiRoot, chatId: config.chatId, allowedUsers: [], questionTtlMs: 0, permissionTtlMs: 0 },
  logger: pino({ level: "silent" }),
});
if ("refused" in lease) throw new Error(lease.refused);
const { bridge, relay } = lease;
bridge.attach({ directory: DIRECTORY, opencode: new OpencodeApi(fetchTransport(opencode.origin)) });
opencode.onReply = (arrival) => {
  const answers = (arrival.body as { answers?: string[][] } | undefined)?.answers;
  if (answers)
    queueMicrotask(() => bridge.handleEvent(DIRECTORY, { type: "question.replied", sessionID: "ses_failover", requestID: arrival.requestID, answers }));
  send({ replied: arrival.requestID });
};

process.on("message", (command: MemberCommand) => {
  if (!command.ask) return;
  const question = {
    question: `Pick one [${command.ask}]`,
    header: "Pick",
    options: [
      { label: "Left", description: "" },
      { label: "Right", description: "" },
    ],
    multiple: false,
    custom: true,
  };
  bridge.handleEvent(DIRECTORY, { type: "question.asked", request: { id: `que_${command.ask}`, sessionID: "ses_failover", questions: [question] } });
});
let lastRole = "";
setInterval(() => {
  if (relay.role === lastRole) return;
  lastRole = relay.role;
  send({ role: lastRole });
}, 5).unref();
process.on("disconnect", () => process.exit(0));
