// Voice notes and a transcription service Hermes must not trust, end to end on the real OpenCode:
// a local service's port taken by another user of the machine (a listener really running as uid
// 65534) gets neither the audio nor the key, and the phone says why; the agent gets nothing. A
// service of this user that answers without end (20 MB) or with a transcript no voice note holds is
// cut off: the phone says so and the agent gets nothing. The user and password written into the
// service's URL reach it as HTTP Basic.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { type ForeignListener, startForeignListener, foreignListenerSkip } from "../support/foreign-listener.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from(Array.from({ length: 64 }, (_, i) => i))]);
/** The service's credentials, written into its URL as users do (`http://user:pass@host/v1`). */
const BASIC = "voice:pw-local-5550123";
const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS, OPENCODE2_VERSION];

describe.skipIf(foreignListenerSkip !== undefined).each(VERSIONS)("a transcription service Hermes must not trust, on OpenCode %s", (version) => {
  let rig: Rig;
  let port: number;
  let done: SentMessage;
  /** Holds the service's port from the start (another test could take a port chosen and let go); the second test takes it over. */
  let squatter: ForeignListener | undefined;
  beforeAll(async () => {
    squatter = await startForeignListener(0);
    port = squatter.port;
    rig = await startRig(version, { HERMES_DONE_AFTER: "2s", HERMES_TRANSCRIBE_URL: `http://${BASIC}@127.0.0.1:${port}/v1` });
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ ...toolsOf(version).shell("sleep 3"), then: [{ text: "first run finished" }] }));
    done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("first run finished"), {
      timeoutMs: 40_000,
      what: "Done",
    });
  }, 120_000);
  afterAll(async () => {
    await squatter?.close();
    await rig?.stop();
  });

  const sessionRequests = () => rig.llm.requests.filter((r) => !isTitleRequest(r)).length;

  it("another uid listening on the service's loopback port gets neither the audio nor the credentials; the phone says why; the agent gets nothing", async () => {
    const { requests } = squatter!;
    const before = sessionRequests();
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, duration: 2, replyTo: done.messageId });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { timeoutMs: 20_000, what: "the refusal" });
    expect(refusal.text).toContain(`(<code>127.0.0.1:${port}</code>) belongs to another user of this machine (uid 65534)`);
    expect(refusal.text).toContain("Not sent to the agent, nor to the transcription service");
    await sleep(1_000);
    expect(requests).toEqual([]);
    expect(sessionRequests()).toBe(before);
    expect(rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("SQUATTED"))).toEqual([]);
  });

  it("an answer of 20 MB, or a transcript of 200,000 characters in a small answer: cut off, said on the phone, nothing sent to the agent", async () => {
    const big = `{"text":"HUGE-81 ${"a".repeat(20_000_000)}"}`;
    const long = JSON.stringify({ text: `LONG-82 ${"word ".repeat(40_000)}` });
    const answers = [big, long];
    const authorizations: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(answers.shift() ?? "{}"));
    });
    // The squatter lets go of the port and the service takes it at once.
    await squatter?.close();
    squatter = undefined;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      const before = sessionRequests();
      for (const limit of ["more than 1 MB", "more than 100,000 characters"]) {
        const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, duration: 2, replyTo: done.messageId });
        const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { timeoutMs: 30_000, what: "the refusal" });
        expect(refusal.text).toContain(`the transcription service answered ${limit}`);
      }
      await sleep(1_000);
      expect(answers).toEqual([]);
      // The URL's user and password arrived as HTTP Basic (OpenCode's fetch drops them from a URL).
      expect(authorizations).toEqual([`Basic ${Buffer.from(BASIC).toString("base64")}`, `Basic ${Buffer.from(BASIC).toString("base64")}`]);
      expect(rig.telegram.messages().filter((m) => m.text.includes("pw-local-5550123"))).toEqual([]);
      expect(sessionRequests()).toBe(before);
      expect(rig.llm.requests.filter((r) => /HUGE-81|LONG-82/.test(JSON.stringify(r.messages ?? [])))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
