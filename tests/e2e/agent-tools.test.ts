// The agent's telegram_send_file tool on the real OpenCode: the scripted LLM is offered the tool and
// calls it. A PNG of the project reaches the chat as a photo with exactly its bytes (in the session's
// topic in a supergroup with topics), and a reply to it reaches the session; five 30 MB files at
// once keep OpenCode's peak bounded and arrive byte for byte (a secret in them scrubbed); a path
// outside the project or a symlink leading outside sends nothing and the tool's result names the
// rule; HERMES_AGENT_TOOLS=off offers the LLM no such tool.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS, OPENCODE2_VERSION, type OpencodeVersion } from "../support/opencode.ts";

/** 1.x takes the tool from the plugin's `tool` hook, 2.0.15 through `ctx.tool.transform`. */
const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS, OPENCODE2_VERSION];
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";
import { SCRUBBED } from "../../lib/telegram/wire/scrubbed-api.ts";

const TOOL = "telegram_send_file";
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const GROUP = -1001234567890;

/** The tools the LLM was offered in its requests with tools (title requests have none), by name. */
function offeredTools(rig: Rig): Map<string, any> {
  const tools = new Map<string, any>();
  for (const request of rig.llm.requests)
    if (!isTitleRequest(request)) for (const tool of request.tools ?? []) tools.set(tool.function?.name ?? tool.name, tool.function ?? tool);
  return tools;
}

function sentFiles(rig: Rig) {
  return rig.telegram.messages().filter((m) => m.photo || m.document);
}

/** Has the scripted LLM call the tool in `sessionID`; resolves with the result OpenCode gave back to the LLM. */
async function callTool(rig: Rig, sessionID: string, args: Record<string, unknown>): Promise<string> {
  const seen = rig.llm.toolResults.length;
  await rig.opencode.prompt(sessionID, directive({ tool: TOOL, args, then: [{ text: "done" }] }));
  await pollUntil(() => rig.llm.toolResults.length > seen, { timeoutMs: 40_000, what: `the result of ${TOOL}` });
  return readable(rig.llm.toolResults[seen]!.content);
}

/** OpenCode 2 hands the LLM a tool's error as JSON (`{"error":{"message":…}}`): its message, as 1.x gives it. */
function readable(content: string): string {
  try {
    const parsed = JSON.parse(content) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === "string" ? `Error: ${parsed.error.message}` : content;
  } catch {
    return content;
  }
}

describe.each(VERSIONS)("telegram_send_file on OpenCode %s (private chat)", { timeout: 120_000 }, (version) => {
  let rig: Rig;
  let outside: string;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1h" });
    fs.writeFileSync(path.join(rig.opencode.directory, "shot.png"), PNG);
    outside = path.join(path.dirname(rig.opencode.directory), `outside-${path.basename(rig.opencode.directory)}.txt`);
    fs.writeFileSync(outside, "not for the phone");
    fs.symlinkSync(outside, path.join(rig.opencode.directory, "escape.txt"));
  }, 120_000);
  afterAll(async () => {
    fs.rmSync(outside, { force: true });
    await rig?.stop();
  });

  it("offers the tool with its path and caption; a PNG of the project arrives as a photo with its bytes, and a reply to it reaches the session", async () => {
    const session = await rig.opencode.createSession();
    const result = await callTool(rig, session.id, { path: "shot.png", caption: "The **new** page" });
    expect(result).toContain("Sent shot.png");
    const offered = offeredTools(rig).get(TOOL);
    expect(offered?.description).toContain("Send a file of this project to the user's phone");
    expect(Object.keys(offered?.parameters?.properties ?? {}).sort()).toEqual(["caption", "path"]);
    expect(offered?.parameters?.required).toEqual(["path"]);
    // Measured: 1.1.53 builds the schema with its own zod, whose registry does not hold the plugin's descriptions.
    const described = offered?.parameters?.properties?.path?.description;
    if (version === "1.1.53") expect(described).toBeUndefined();
    else expect(described).toContain("relative to the project directory");

    const photo = await rig.telegram.waitForMessage((m) => m.photo !== undefined, { what: "the photo" });
    expect(photo.photo!.data.equals(PNG)).toBe(true);
    expect(photo.photo!.type).toBe("image/png");
    expect(photo.text).toContain("The <b>new</b> page");
    expect(photo.text).toContain(`<code>${path.basename(rig.opencode.directory)}</code>`);

    rig.telegram.sendText(rig.chatId, "make the button blue", { replyTo: photo.messageId });
    await pollUntil(() => rig.llm.userMessages().some((text) => text.includes("make the button blue")), { timeoutMs: 20_000, what: "the reply at the LLM" });
  });

  // Issue 39: OpenCode runs an answer's tool calls together. Issue 50: each file is read from disk a chunk at a time, never held whole.
  it.runIf(version === "1.18.33")(
    "five sends of a 30 MB file at once: OpenCode's peak RSS stays bounded, and Telegram receives exactly the file, its secret scrubbed",
    async () => {
      const big = Buffer.alloc(30 * 1024 * 1024, 7);
      big.write("%PDF-1.7 not really");
      for (let at = 4096; at < big.length; at += 1024 * 1024 + 13) big.writeUInt32LE(at, at);
      // The bot token across the first 1 MB chunk's end (lib/bridge/agent-tools/file-rules.ts reads 1 MB at a time).
      const token = Buffer.from(rig.telegram.token);
      const tokenAt = 1024 * 1024 - 9;
      token.copy(big, tokenAt);
      const expected = Buffer.concat([big.subarray(0, tokenAt), Buffer.from(SCRUBBED), big.subarray(tokenAt + token.length)]);
      fs.writeFileSync(path.join(rig.opencode.directory, "big-1.bin"), big);
      // Five names (hard links: one file on disk): five identical calls would be OpenCode's doom loop, a prompt of its own.
      for (let n = 2; n <= 5; n++) fs.linkSync(path.join(rig.opencode.directory, "big-1.bin"), path.join(rig.opencode.directory, `big-${n}.bin`));
      const status = (field: string) =>
        Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${rig.opencode.pid}/status`, "utf8"))![1]) / 1024;
      // A first send loads what the tool needs (the bridge's upload path, OpenCode's own): not counted.
      const first = await rig.opencode.createSession();
      expect(await callTool(rig, first.id, { path: "big-1.bin" })).toContain("Sent big-1.bin");
      const session = await rig.opencode.createSession();
      const seen = rig.llm.toolResults.length;
      const before = sentFiles(rig).length;
      // Linux: writing 5 to clear_refs resets the process' peak RSS (VmHWM), so the peak is this test's.
      fs.writeFileSync(`/proc/${rig.opencode.pid}/clear_refs`, "5");
      const base = status("VmRSS");
      const calls = Array.from({ length: 5 }, (_, n) => ({ tool: TOOL, args: { path: `big-${n + 1}.bin` } }));
      await rig.opencode.prompt(session.id, directive({ tools: calls, then: [{ text: "done" }] }));
      await pollUntil(() => rig.llm.toolResults.length >= seen + 5, { timeoutMs: 90_000, what: "the five results" });
      const peak = status("VmHWM");
      const results = rig.llm.toolResults.slice(seen, seen + 5).map((r) => readable(r.content));
      expect(results.filter((r) => /^Sent big-\d\.bin/.test(r))).toHaveLength(5);
      const received = sentFiles(rig).slice(before);
      expect(received).toHaveLength(5);
      for (const message of received) expect(message.document?.data?.equals(expected)).toBe(true);
      console.log(
        `[issue 50] OpenCode ${version}: RSS ${base.toFixed(0)} MB before five 30 MB sends, peak ${peak.toFixed(0)} MB (+${(peak - base).toFixed(0)} MB)`,
      );
      // Measured (shared machine): five at once +191 MB (issue 39); one at a time with a collection +89 to +602 MB; streamed from disk: see docs/performance.md.
      expect(peak - base).toBeLessThan(150);
    },
  );

  it("../outside.txt and a symlink leading outside send nothing; the tool's result names the rule", async () => {
    const before = sentFiles(rig).length;
    const session = await rig.opencode.createSession();
    const parent = await callTool(rig, session.id, { path: `../${path.basename(outside)}` });
    expect(parent).toContain('not sent (rule "outside-project")');
    const other = await rig.opencode.createSession();
    const link = await callTool(rig, other.id, { path: "escape.txt" });
    expect(link).toContain('not sent (rule "symlink-outside")');
    await sleep(1_000);
    expect(sentFiles(rig)).toHaveLength(before);
    expect(rig.telegram.calls.filter((c) => c.method === "sendDocument" || c.method === "sendPhoto")).toHaveLength(before);
  });
});

describe.each(VERSIONS)("HERMES_AGENT_TOOLS=off on OpenCode %s", { timeout: 120_000 }, (version: OpencodeVersion) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_AGENT_TOOLS: "off" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the LLM is not offered the tool (and is offered OpenCode's own)", async () => {
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, "hello");
    await pollUntil(() => offeredTools(rig).size > 0, { timeoutMs: 30_000, what: "a request with tools" });
    const names = [...offeredTools(rig).keys()];
    expect(names).toContain("read");
    expect(names).not.toContain(TOOL);
  });
});

// Topics need a supergroup and OpenCode 1.18 or 2 (as in topics.test.ts).
describe.each<OpencodeVersion>(["1.18.33", OPENCODE2_VERSION])(
  "telegram_send_file on OpenCode %s in a supergroup with topics",
  { timeout: 120_000 },
  (version) => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_TELEGRAM_CHAT_ID: String(GROUP), HERMES_TELEGRAM_TOPICS: "on", HERMES_DONE_AFTER: "1h" }, undefined, {
        chat: "supergroup",
      });
      fs.writeFileSync(path.join(rig.opencode.directory, "shot.png"), PNG);
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("the photo lands in the session's topic, and a reply to it there reaches the session", async () => {
      const session = await rig.opencode.createSession();
      expect(await callTool(rig, session.id, { path: "shot.png" })).toContain("as a photo");
      const photo = await rig.telegram.waitForMessage((m) => m.photo !== undefined, { what: "the photo" });
      expect(photo.chatId).toBe(GROUP);
      expect(photo.threadId).toBeDefined();
      expect(rig.telegram.topics().map((topic) => topic.threadId)).toContain(photo.threadId);
      expect(photo.photo!.data.equals(PNG)).toBe(true);
      rig.telegram.sendText(GROUP, "now the mobile view", { replyTo: photo.messageId, threadId: photo.threadId!, from: DEFAULT_USER });
      await pollUntil(() => rig.llm.userMessages().some((text) => text.includes("now the mobile view")), { timeoutMs: 20_000, what: "the reply at the LLM" });
    });
  },
);
