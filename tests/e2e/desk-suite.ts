// The desk's controls on the phone (issue 53), end to end on the real OpenCode with the scripted LLM,
// one OpenCode per file: `!git log --oneline -n 3` as a reply answers with the three commits and
// exit status 0, and the session's history shows the shell call; `!rm -rf ~/x` shows its flag and
// runs nothing until Run (nothing at all on Cancel); a command printing 20,000 lines answers with
// its tail and output.txt; a command sent while the session works is refused; /mcp lists the
// project's tiny stdio MCP server (tests/fixtures/mcp/tiny-server.mjs) as connected and a broken
// one as failed with its error, and the toggle disconnects and reconnects it as OpenCode's own
// status shows. A stranger's `!`, /mcp and taps change nothing. Run on the cells matrix.ts lists.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { gitProject } from "../support/git-project.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2 } from "../support/opencode.ts";
import { REPO_ROOT } from "../support/opencode/binary.ts";
import { pollUntil } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const TINY = path.join(REPO_ROOT, "tests", "fixtures", "mcp", "tiny-server.mjs");

export function deskSuite(cell: Cell): void {
  const { version, chat, topics } = cell;
  const v2 = isOpencode2(version);

  describe(`The desk's controls on the phone, OpenCode ${version} in a ${chat} chat${topics ? " with topics" : ""}`, { timeout: 240_000 }, () => {
    let rig: Rig;
    let directory: string;
    let first: SentMessage;
    let sessionID: string;
    const current = (message: { messageId: number; chatId: number }) =>
      rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const where = (message: SentMessage) => (message.threadId !== undefined ? { threadId: message.threadId } : {});
    const reply = (to: SentMessage, text: string, from?: typeof STRANGER) =>
      rig.telegram.sendText(rig.chatId, text, { replyTo: to.messageId, ...where(to), ...(from ? { from } : {}) });
    /** The answer to the message `sent`, once its text matches (it is edited from "Running" to the result). */
    const answerTo = (sent: { messageId: number }, pattern: RegExp) =>
      rig.telegram.waitFor(() => rig.telegram.messages().find((m) => m.replyToMessageId === sent.messageId && !m.document && pattern.test(m.text)), {
        timeoutMs: 90_000,
        what: `the answer ${pattern}`,
      });
    const tap = async (message: SentMessage, label: string, from?: typeof STRANGER) =>
      rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(current(message), label, from));
    const loc = () => `location%5Bdirectory%5D=${encodeURIComponent(directory)}`;
    /** The session's shell calls as OpenCode's history has them: the command and its output. */
    async function shellCalls(): Promise<Array<{ command: string; output: string }>> {
      if (v2) {
        const answer = await rig.opencode.request("GET", `/api/session/${sessionID}/message?limit=200&${loc()}`);
        return (answer.body.data as any[]).filter((m) => m.type === "shell").map((m) => ({ command: m.command, output: m.output?.output ?? "" }));
      }
      const answer = await rig.opencode.request("GET", `/session/${sessionID}/message`, { directory });
      return (answer.body as any[]).flatMap((m) =>
        (m.parts as any[])
          .filter((p) => p.type === "tool" && p.tool === "bash" && m.info.role === "assistant" && m.info.mode === "build" && p.state?.input?.command)
          .map((p) => ({ command: p.state.input.command as string, output: (p.state.output ?? "") as string })),
      );
    }
    async function mcpStatus(): Promise<Record<string, string>> {
      if (v2) {
        const answer = await rig.opencode.request("GET", `/api/mcp?${loc()}`);
        return Object.fromEntries((answer.body.data as any[]).map((entry) => [entry.name, entry.status.status]));
      }
      const answer = await rig.opencode.request("GET", "/mcp", { directory });
      return Object.fromEntries(Object.entries<any>(answer.body).map(([name, state]) => [name, state.status]));
    }

    beforeAll(async () => {
      const mcp = { tiny: { type: "local", command: ["node", TINY] }, broken: { type: "local", command: ["node", TINY, "--fail"] } };
      rig = await startRig(version, { HERMES_DONE_AFTER: "60s", ...(topics ? { HERMES_TELEGRAM_TOPICS: "on" } : {}) }, undefined, {
        permission: { edit: "allow", bash: "allow", shell: "allow" },
        extraConfig: { mcp },
        warmup: false,
        chat,
      });
      directory = rig.opencode.directory;
      gitProject(directory, { "existing.txt": "one\n" });
      const git = (message: string) =>
        execFileSync("git", ["-c", "user.email=t@e.com", "-c", "user.name=T", "commit", "-q", "--allow-empty", "-m", message], {
          cwd: directory,
          stdio: "ignore",
        });
      git("second commit");
      git("third commit");
      if (v2) await rig.opencode.request("GET", `/api/plugin?${loc()}`);
      else await rig.opencode.request("GET", "/config", { directory });
      rig.telegram.sendText(rig.chatId, `/new ${directive({ text: "desk session ready D1" })}`);
      first = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("desk session ready D1"), {
        timeoutMs: 90_000,
        what: "the session's Done notice",
      });
      const sessions = v2
        ? (await rig.opencode.request("GET", `/api/session?${loc()}`)).body.data
        : (await rig.opencode.request("GET", "/session", { directory })).body;
      sessionID = (sessions as Array<{ id: string }>)[0]!.id;
    }, 150_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("`!git log --oneline -n 3` as a reply: the three commits and exit status 0; the history shows the shell call; a stranger's `!` runs nothing", async () => {
      const strangers = reply(first, "!touch ~/stranger-was-here", STRANGER);
      const sent = reply(first, "!git log --oneline -n 3");
      const answer = await answerTo(sent, /Exit status <b>0<\/b>/);
      expect(answer.text).toMatch(/\w+ third commit\n\w+ second commit\n\w+ /);
      expect(answer.threadId).toBe(first.threadId);
      const calls = await shellCalls();
      expect(calls.some((call) => call.command.includes("git log --oneline -n 3") && call.output.includes("third commit"))).toBe(true);
      // The command the phone shows is the one the history has.
      const shown = calls.find((call) => call.command.includes("git log --oneline -n 3"))!.command;
      expect(answer.text).toContain(shown.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;"));
      // The stranger's: no answer, no file, no call.
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangers.messageId)).toEqual([]);
      expect(fs.existsSync(path.join(rig.opencode.home, "stranger-was-here"))).toBe(false);
      expect(calls.some((call) => call.command.includes("stranger"))).toBe(false);
    });

    it("`!rm -rf ~/x`: its flag, nothing runs on Cancel nor on a stranger's Run; the owner's Run runs it", async () => {
      const target = path.join(rig.opencode.home, "x");
      fs.mkdirSync(target, { recursive: true });
      const asked = reply(first, "!rm -rf ~/x");
      const question = await answerTo(asked, /Run this command\?/);
      expect(question.text).toContain("⚠️");
      expect(rig.telegram.buttons(question).map((button) => [button.text, button.style])).toEqual([
        ["▶ Run", "danger"],
        ["✖ Cancel", undefined],
      ]);
      expect(await tap(question, "▶ Run", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(await tap(question, "✖ Cancel")).toMatchObject({ text: "Cancelled" });
      await rig.telegram.waitFor(() => (current(question).text.includes("Not run") ? true : undefined), { timeoutMs: 90_000, what: "Not run" });
      expect(fs.existsSync(target)).toBe(true);
      expect((await shellCalls()).some((call) => call.command.includes("rm -rf"))).toBe(false);

      const again = reply(first, "!rm -rf ~/x");
      const second = await answerTo(again, /Run this command\?/);
      expect(await tap(second, "▶ Run")).toMatchObject({ text: "Running…" });
      await rig.telegram.waitFor(() => (/Exit status <b>0<\/b>/.test(current(second).text) ? true : undefined), { timeoutMs: 90_000, what: "the run" });
      expect(fs.existsSync(target)).toBe(false);
    });

    it("20,000 lines: the tail within one message and output.txt with the whole output", async () => {
      const sent = reply(first, "!seq 1 20000");
      const answer = await answerTo(sent, /output\.txt/);
      expect(answer.text).toContain("19999\n20000");
      expect(answer.text).toContain("The last 40 of 20000 lines");
      const file = await rig.telegram.waitForMessage((m) => m.replyToMessageId === answer.messageId && m.document?.filename === "output.txt", {
        timeoutMs: 90_000,
        what: "output.txt",
      });
      const content = file.document!.content ?? file.document!.data!.toString("utf8");
      expect(content.length).toBe(108_894);
      expect(content.startsWith("1\n2\n3\n")).toBe(true);
    });

    it("refused while the session works, and runs nothing", async () => {
      const sleeper = v2 ? { tool: "shell", args: { command: "sleep 5" } } : { tool: "bash", args: { command: "sleep 5", description: "wait" } };
      reply(first, directive({ ...sleeper, then: [{ text: "slept D2" }] }));
      await pollUntil(() => rig.opencode.isBusy(sessionID, { directory }), { timeoutMs: 30_000, what: "busy" });
      const sent = reply(first, "!echo while-busy");
      await answerTo(sent, /The session is working/);
      expect((await shellCalls()).some((call) => call.command.includes("while-busy"))).toBe(false);
      await pollUntil(async () => !(await rig.opencode.isBusy(sessionID, { directory })), { timeoutMs: 60_000, intervalMs: 200, what: "idle" });
    });

    it("/mcp as a reply: the tiny server connected, the broken one failed with its error; the toggle disconnects and reconnects it, as OpenCode's status shows; a stranger's /mcp and tap change nothing", async () => {
      const strangers = reply(first, "/mcp", STRANGER);
      const asked = reply(first, "/mcp");
      const list = await answerTo(asked, /MCP servers of/);
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangers.messageId)).toEqual([]);
      expect(list.text).toContain("🟢 <b>tiny</b>: connected");
      expect(list.text).toMatch(/🔴 <b>broken<\/b>: failed: .*Connection closed/);
      expect(rig.telegram.buttons(list).map((button) => button.text)).toEqual(expect.arrayContaining(["⏸ Disconnect tiny", "▶ Connect broken"]));

      expect(await tap(list, "⏸ Disconnect tiny", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect((await mcpStatus()).tiny).toBe("connected");

      expect(await tap(list, "⏸ Disconnect tiny")).toMatchObject({ text: "Disconnecting…" });
      await rig.telegram.waitFor(() => (current(list).text.includes("⚪ <b>tiny</b>: disabled") ? true : undefined), {
        timeoutMs: 90_000,
        what: "tiny disabled",
      });
      expect((await mcpStatus()).tiny).toBe("disabled");
      expect(current(list).text).toContain("Disconnected <b>tiny</b>.");

      expect(await tap(list, "▶ Connect tiny")).toMatchObject({ text: "Connecting…" });
      await rig.telegram.waitFor(() => (current(list).text.includes("🟢 <b>tiny</b>: connected") ? true : undefined), {
        timeoutMs: 90_000,
        what: "tiny connected",
      });
      expect((await mcpStatus()).tiny).toBe("connected");
      // Nothing was written to the project's config.
      expect(JSON.parse(fs.readFileSync(path.join(directory, "opencode.json"), "utf8")).mcp).toEqual({
        tiny: { type: "local", command: ["node", TINY] },
        broken: { type: "local", command: ["node", TINY, "--fail"] },
      });
    });

    it(
      topics ? "in the session's topic, without a reply: `!echo` runs there and `/mcp` lists its project" : "/mcp on its own: the one project's servers",
      async () => {
        if (topics) {
          const sent = rig.telegram.sendText(rig.chatId, "!echo in-the-topic", { threadId: first.threadId! });
          const answer = await answerTo(sent, /Exit status <b>0<\/b>/);
          expect(answer.text).toContain("in-the-topic");
          expect(answer.threadId).toBe(first.threadId);
          expect((await shellCalls()).some((call) => call.command.includes("echo in-the-topic"))).toBe(true);
        }
        const asked = rig.telegram.sendText(rig.chatId, "/mcp", topics ? { threadId: first.threadId! } : {});
        const list = await answerTo(asked, /MCP servers of/);
        expect(list.text).toContain("🟢 <b>tiny</b>: connected");
        if (topics) expect(list.threadId).toBe(first.threadId);
      },
    );

    // A real minute: only in the private cells.
    it.skipIf(chat !== "private")(
      "a command running over a minute says so and offers Stop; Stop kills it (1.x: the session's abort; 2.0.15: DELETE /api/shell/:id)",
      { timeout: 180_000 },
      async () => {
        const marker = path.join(directory, "slept-through");
        const sent = reply(first, `!sleep 100; touch ${marker}`);
        const long = await answerTo(sent, /Still running after a minute/);
        expect(rig.telegram.buttons(long).map((button) => button.text)).toEqual(["⏹ Stop"]);
        expect(await tap(long, "⏹ Stop", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
        expect(await tap(long, "⏹ Stop")).toMatchObject({ text: "Stopping…" });
        const stopped = v2 ? /Shell command output is no longer available/ : /User aborted the command/;
        await rig.telegram.waitFor(() => (stopped.test(current(long).text) ? true : undefined), { timeoutMs: 30_000, what: "stopped" });
        expect(current(long).text).toContain("Exit status unknown");
        expect(rig.telegram.buttons(current(long))).toEqual([]);
        expect(fs.existsSync(marker)).toBe(false);
      },
    );
  });
}
