// Permission prompts end to end: the real `opencode serve` with Hermes loaded, the shell and edits
// set to "ask", a scripted LLM, and the fake Telegram. Run once per supported OpenCode version.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { contentText, isTitleRequest, messagesOf } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2 } from "../support/opencode.ts";
import { expectCleanWire, promptWhenIdle, startRig, type Rig } from "./question-suite.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import type { Cell } from "./matrix.ts";

/**
 * In a private chat every scenario; in a supergroup the main ones, which together stay within a
 * group's budget of twenty messages a minute (more would make the suite wait for Telegram's limit).
 */
/**
 * Reject with feedback takes several round trips through OpenCode (the run, the prompt, the reject,
 * the typed feedback, then on 2.x the feedback's own run), and each of its own waits allows 30 s:
 * the test allows them to happen, on a busy machine, before it gives up.
 */
const FEEDBACK_TIMEOUT_MS = 90_000;

export function permissionSuite(cell: Cell): void {
  const { version, chat } = cell;
  const privateOnly = chat === "private" ? it : it.skip;
  const tools = toolsOf(version);
  const bash = tools.shell;
  const v2 = isOpencode2(version);
  describe(`permissions over Telegram on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    /** The LLM request whose last message is the user's feedback (2.x sends it as a message of its own): its messages. */
    const feedbackAtLlm = async (feedback: string, what: string) => {
      const body = await rig.telegram.waitFor(
        () =>
          rig.llm.requests.find((request) => {
            const messages = messagesOf(request);
            const last = messages[messages.length - 1];
            return last?.role === "user" && contentText(last.content).endsWith(`\n\n${feedback}`);
          }),
        { timeoutMs: 30_000, what },
      );
      return messagesOf(body);
    };
    beforeAll(async () => {
      rig = await startRig(version, {}, undefined, { permission: tools.permission, chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const onPhone = (marker: string) =>
      rig.telegram.waitForMessage((m) => m.text.includes(marker) && rig.telegram.buttons(m).length > 0, {
        timeoutMs: 60_000,
        what: `permission for ${marker}`,
      });
    const settledAs = (message: SentMessage, status: string) =>
      rig.telegram.waitFor(
        () => (current(message).text.includes(status) && rig.telegram.buttons(current(message)).length === 0 ? current(message) : undefined),
        {
          timeoutMs: 30_000,
          what: `permission message settled as "${status}"`,
        },
      );
    async function run(text: string): Promise<string> {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, text);
      return session.id;
    }

    it("Allow once: the command runs and the LLM sees its output", async () => {
      await run(directive(bash("echo allowed-once-output")));
      const message = await onPhone("echo allowed-once-output");
      expect(message.text).toContain(`Permission: ${tools.shellName}`);
      expect(message.text).toContain("<code>echo *</code>");
      expect(rig.telegram.buttons(message).map((b) => b.text)).toEqual([
        "Allow once",
        "Always",
        "✅ Allow in this session",
        "Reject",
        "Reject with feedback",
        "⏹ Stop",
      ]);
      // Green for going on, red for stopping; the fake Telegram checked the values.
      expect(rig.telegram.buttons(message).map((b) => b.style)).toEqual(["success", "success", undefined, "danger", undefined, undefined]);
      await rig.telegram.tapButton(message, "Allow once");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("allowed-once-output"), { what: "bash output" });
      expect(result.content.trim()).toBe("allowed-once-output");
      await settledAs(message, "Allowed once</b> from Telegram");
    });

    privateOnly("Always: a second identical command runs with no new prompt", async () => {
      await run(directive(bash("printf always-first")));
      const message = await onPhone("printf always-first");
      await rig.telegram.tapButton(message, "Always");
      await rig.llm.waitForToolResult((r) => r.content.includes("always-first"), { what: "first output" });
      await settledAs(message, "Always allowed</b> from Telegram");
      const before = rig.telegram.messages().length;
      await run(directive(bash("printf always-second"))); // a new session: the rule holds project-wide
      await rig.llm.waitForToolResult((r) => r.content.includes("always-second"), { what: "second output, unasked" });
      expect(
        rig.telegram
          .messages()
          .slice(before)
          .filter((m) => m.text.includes("always-second")),
      ).toHaveLength(0);
    });

    privateOnly("Reject: the run stops, and the LLM sees the rejection", async () => {
      const sessionID = await run(directive({ ...bash("date -u +rejected"), then: [{ text: "should not run" }] }));
      const message = await onPhone("date -u +rejected");
      // The agent's own requests (a title request may come late under load: it is not the agent loop).
      const agents = () => rig.llm.requests.filter((request) => !isTitleRequest(request)).length;
      const requests = agents();
      await rig.telegram.tapButton(message, "Reject");
      await settledAs(message, "Rejected</b> from Telegram");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(agents()).toBe(requests); // the agent loop stopped: no further LLM call
      await promptWhenIdle(rig, sessionID, "what happened?");
      const rejection = v2 ? /declined this tool call/ : /rejected permission to use this specific tool call/;
      const result = await rig.llm.waitForToolResult((r) => rejection.test(r.content) && !/feedback/.test(r.content), { what: "rejection in history" });
      expect(result.content).toMatch(rejection);
    });

    it(
      "Reject with feedback: the LLM receives the exact feedback in that session and the command does not run",
      async () => {
        const feedback = "use <printf> & not uname 🙂";
        await run(directive(bash("uname -a")));
        const message = await onPhone("uname -a");
        await rig.telegram.tapButton(message, "Reject with feedback");
        const ask = await rig.telegram.waitForMessage((m) => m.replyMarkup?.force_reply === true && m.text.includes("feedback"), { what: "feedback prompt" });
        rig.telegram.sendText(rig.chatId, feedback, { replyTo: ask.messageId });
        const final = await settledAs(message, "Rejected with feedback</b> from Telegram");
        expect(final.text).toContain("use &lt;printf&gt; &amp; not uname 🙂");
        if (v2) {
          // 2.0.15 drops a reject's message: Hermes rejects (the run ends there), then sends the
          // feedback as the session's next message, marked as the answer to the rejected request.
          const messages = await feedbackAtLlm(feedback, "the feedback as the next user message at the LLM");
          expect(contentText(messages[messages.length - 1]!.content)).toBe(
            `(Sent from Telegram, in answer to your permission request that I rejected: ${tools.shellName} uname -a)\n\n${feedback}`,
          );
          // That session's history: its own directive, and the call answered by the rejection, never run.
          expect(messages.some((m) => m.role === "user" && contentText(m.content).includes("uname -a") && contentText(m.content).includes('"tool"'))).toBe(
            true,
          );
          const results = messages.filter((m) => m.role === "tool").map((m) => contentText(m.content));
          expect(results).toHaveLength(1);
          expect(results[0]).toMatch(/declined this tool call/);
          expect(final.text).toContain("went to the session as your next message");
        } else {
          const result = await rig.llm.waitForToolResult((r) => r.content.includes(feedback), { what: "feedback at the LLM" });
          expect(result.content).toMatch(/with the following feedback: use <printf> & not uname 🙂/);
          expect(final.text).not.toContain("next message");
        }
        expect(rig.llm.toolResults.some((r) => /Linux|GNU/.test(r.content))).toBe(false); // uname never ran
      },
      FEEDBACK_TIMEOUT_MS,
    );

    it("answered in the TUI: the message is edited and loses its buttons", async () => {
      await run(directive(bash("hostname")));
      const message = await onPhone("hostname");
      const [pending] = await rig.opencode.pendingPermissions();
      expect(await rig.opencode.answerPermission(pending, "once")).toBeLessThan(300);
      await settledAs(message, "Allowed once</b> in the terminal");
    });

    it("reject cascade: every pending message of the session is updated", async () => {
      await run(directive({ tools: [bash("whoami"), bash("id -g")] }));
      const first = await onPhone("whoami");
      const second = await onPhone("id -g");
      await rig.telegram.tapButton(first, "Reject");
      await settledAs(first, "Rejected</b> from Telegram");
      await settledAs(second, "Rejected</b> together with another request");
    });

    privateOnly("always cascade: a pending request the new rule covers is shown as auto-approved", async () => {
      await run(directive({ tools: [bash("expr 1 + 1"), bash("expr 2 + 2")] }));
      const first = await onPhone("expr 1 + 1");
      const second = await onPhone("expr 2 + 2");
      await rig.telegram.tapButton(first, "Always");
      await settledAs(first, "Always allowed</b> from Telegram");
      await settledAs(second, "Auto-approved");
    });

    privateOnly("a permission from a sub-agent session is forwarded and labelled", async () => {
      const child = directive({ ...bash("ls -d /tmp"), then: [{ text: "child done" }] });
      await run(directive({ ...tools.subagent("child bash", child), then: [{ text: "parent done" }] }));
      const message = await onPhone("ls -d /tmp");
      await rig.telegram.waitFor(() => /sub-agent of <i>[^<]+<\/i>/.test(current(message).text) || undefined, { what: "sub-agent label" });
      expect(current(message).text).toContain("child bash");
      await rig.telegram.tapButton(current(message), "Allow once");
      await rig.llm.waitForToolResult((r) => r.content.includes("child done"), { what: "task result at the parent" });
    });

    (v2 && chat === "private" ? it : it.skip)(
      "Reject with feedback on a sub-agent's request: the reject ends the sub-agent, the feedback reaches the main session",
      async () => {
        const feedback = "printf <instead> & 🙂";
        const child = directive({ ...bash("uname -s"), then: [{ text: "child done" }] });
        await run(directive({ ...tools.subagent("child shell", child), then: [{ text: "parent done" }] }));
        const message = await onPhone("uname -s");
        await rig.telegram.waitFor(() => /sub-agent of <i>[^<]+<\/i>/.test(current(message).text) || undefined, { what: "sub-agent label" });
        await rig.telegram.tapButton(current(message), "Reject with feedback");
        const ask = await rig.telegram.waitForMessage((m) => m.replyMarkup?.force_reply === true && !m.deleted && m.messageId > message.messageId, {
          what: "feedback prompt",
        });
        rig.telegram.sendText(rig.chatId, feedback, { replyTo: ask.messageId });
        const final = await settledAs(message, "Rejected with feedback</b> from Telegram");
        expect(final.text).toContain("went to the main session as your next message");
        const messages = await feedbackAtLlm(feedback, "the feedback at the main session's LLM");
        expect(contentText(messages[messages.length - 1]!.content)).toBe(
          `(Sent from Telegram, in answer to your sub-agent's permission request that I rejected: ${tools.shellName} uname -s)\n\n${feedback}`,
        );
        // The main session's history (the parent's own directive, the sub-agent it started), not the sub-agent's.
        expect(messages.some((m) => m.role === "user" && contentText(m.content).includes("child shell"))).toBe(true);
        expect(messages.some((m) => m.role === "user" && contentText(m.content).startsWith("You are a subagent"))).toBe(false);
        expect(rig.llm.toolResults.some((r) => r.content.trim() === "Linux")).toBe(false); // uname never ran
      },
      FEEDBACK_TIMEOUT_MS,
    );

    privateOnly("a long command hiding its payload behind blanks: the message shows the tail, the file sent with it holds the whole command", async () => {
      const command = `echo start-of-long-command ${"word ".repeat(400)}${" ".repeat(1480)}; echo hidden-payload-tail`;
      await run(directive(bash(command)));
      const message = await onPhone("hidden-payload-tail");
      const plain = parseTelegramHtml(message.text);
      if (!plain.ok) throw new Error(plain.error);
      expect(plain.plain.length).toBeLessThanOrEqual(4096);
      expect(plain.plain).toContain("echo start-of-long-command word");
      expect(plain.plain).toContain("echo hidden-payload-tail");
      expect(plain.plain).toMatch(/⟨… \d+ characters not shown here …⟩/);
      expect(plain.plain).toContain("Shortened here.");
      const file = rig.telegram.messages().find((m) => m.document?.filename === "permission.txt");
      expect(file, "permission.txt sent before the prompt").toBeDefined();
      expect(file!.messageId).toBeLessThan(message.messageId);
      expect(message.replyToMessageId).toBe(file!.messageId);
      const content = file!.document!.content!;
      const exact = JSON.parse(content.slice(content.indexOf("{", content.lastIndexOf("Exact text (JSON)"))));
      // 1.18.33 sends the command itself; 1.1.53 and 2.0.15 only its two simple commands, and Hermes
      // takes the line from the tool call that asks (issue 49): shown with the blank run counted, and
      // exact in the file, on every version.
      expect(exact.command).toBe(command);
      expect(plain.plain).toContain("word⟨1481 spaces⟩; echo hidden-payload-tail");
      expect(content).toContain("word⟨1481 spaces⟩; echo hidden-payload-tail");
      if (version !== "1.18.33") expect(exact.patterns).toHaveLength(2);
      await rig.telegram.tapButton(message, "Allow once");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("hidden-payload-tail"), { what: "the whole command ran" });
      expect(result.content).toContain("start-of-long-command word");
      await settledAs(message, "Allowed once</b> from Telegram");
    });

    privateOnly("an edit with HTML characters and a diff over 4096 characters is rendered safely", async () => {
      const content = Array.from({ length: 300 }, (_, i) => `<b>line ${i} & "quoted" </b>`).join("\n");
      const file = path.join(rig.opencode.directory, "big-change.html");
      await run(directive(tools.write(file, content)));
      const message = await onPhone("big-change.html");
      expect(message.text.length).toBeLessThanOrEqual(4096);
      expect(message.text).toContain("&lt;b&gt;line 0 &amp; &quot;quoted&quot; &lt;/b&gt;");
      expect(message.text).toContain("whole diff is in the file above");
      const attached = await rig.telegram.waitForMessage((m) => m.document?.filename === "big-change.html.diff", { what: "diff attachment" });
      expect(attached.document!.bytes).toBeGreaterThan(4096);
      expect(message.replyToMessageId).toBe(attached.messageId);
      await rig.telegram.tapButton(message, "Allow once");
      await rig.llm.waitForToolResult((r) => (v2 ? /big-change\.html/ : /Wrote file successfully/).test(r.content), { what: "write result" });
      expect(fs.readFileSync(file, "utf8")).toBe(content);
    });

    // Last: the refusal is remembered for the rest of the process.
    privateOnly("a Bot API server that refuses button colours gets the same keyboard without them, and the tap still works", async () => {
      rig.telegram.setButtonStyles("refused");
      const refusedBefore = rig.telegram.calls.filter((call) => call.method === "sendMessage" && call.status === 400).length;
      await run(directive(bash("echo plain-buttons-output")));
      const message = await onPhone("echo plain-buttons-output");
      expect(rig.telegram.buttons(message)).toHaveLength(6);
      expect(rig.telegram.buttons(message).every((b) => b.style === undefined)).toBe(true);
      expect(rig.telegram.calls.filter((call) => call.method === "sendMessage" && call.status === 400).length).toBe(refusedBefore + 1);
      await rig.telegram.tapButton(message, "Allow once");
      await rig.llm.waitForToolResult((r) => r.content.includes("plain-buttons-output"), { what: "bash output" });
      await settledAs(message, "Allowed once</b> from Telegram");
      // Remembered: the next prompt goes out without colours at the first try.
      await run(directive(bash("echo plain-again-output")));
      const next = await onPhone("echo plain-again-output");
      expect(rig.telegram.buttons(next).every((b) => b.style === undefined)).toBe(true);
      expect(rig.telegram.calls.filter((call) => call.method === "sendMessage" && call.status === 400).length).toBe(refusedBefore + 1);
      await rig.telegram.tapButton(next, "Reject");
      await settledAs(next, "Rejected</b> from Telegram");
    });

    it("Telegram never had to refuse a message for flood control", () => {
      expect(rig.telegram.flood.rejected).toBe(0);
      expect(rig.telegram.retryAfterViolations).toBe(0);
    });

    it("every Bot API request went out uncompressed, and no edit was refused as changing nothing", () => {
      expectCleanWire(rig.telegram);
    });
  });
}
