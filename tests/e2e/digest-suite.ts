// /digest end to end (issue 51) on the real OpenCode with the scripted LLM and the fake Telegram:
// a run started over OpenCode's HTTP API (the terminal) with a question answered on the phone,
// an "Allow in this session" tap, the rule's auto-allow of the next identical request, an Allow
// once and a rejection; /digest then lists the run and each decision in order with its source, and
// Hermes' log has one structured `decision` line each. A stranger's /digest gets nothing.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { colorQuestion } from "../support/fixtures.ts";
import { gitProject } from "../support/git-project.ts";
import { directive } from "../support/mock-llm.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { pollUntil } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

export function digestSuite(here: Cell): void {
  const { version, chat } = here;
  describe(`/digest on OpenCode ${version} in a ${chat} chat`, () => {
    const tools = toolsOf(version);
    const bash = tools.shell;
    let rig: Rig;
    beforeAll(async () => {
      // Edits go unasked: the run writes one file, which the digest counts.
      rig = await startRig(version, { HERMES_DONE_AFTER: "0s" }, undefined, { permission: { ...tools.permission, edit: "allow" }, chat, warmup: false });
      // A git project, before its instance starts: OpenCode knows a run's files only there.
      gitProject(rig.opencode.directory, { "README.md": "digest\n" });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((b) => b.text);
    // A group shares 20 messages a minute with the scenario's own traffic: a prompt may wait its turn.
    const timeoutMs = chat === "supergroup" ? 90_000 : 60_000;
    // The prompt's own message (a group's progress message names the command too, with Stop).
    const asked = (marker: string) =>
      rig.telegram.waitForMessage(
        (m) => m.text.includes(marker) && (marker.startsWith("[") || m.text.includes("Permission")) && rig.telegram.buttons(m).length > 1,
        { timeoutMs, what: `the prompt for ${marker}` },
      );
    const settled = (message: SentMessage) => rig.telegram.waitFor(() => labels(message).length === 0, { timeoutMs: 30_000, what: "the prompt settled" });

    it("lists a question, an Allow once, a rule's auto-allow and a rejection, each with its source; a stranger's /digest shows nothing", async () => {
      const session = await rig.opencode.createSession();
      const question = { ...colorQuestion(), question: "Which color? [digest]" };
      const script = {
        tool: "question",
        args: { questions: [question] },
        then: [
          bash("npm test"),
          bash("npm test"),
          bash("echo digest-once"),
          tools.write("digest-note.txt", "noted\n"),
          bash("rm -rf build-tmp"),
          { text: "digest over" },
        ],
      };
      await rig.opencode.prompt(session.id, directive(script));

      const q = await asked("[digest]");
      await rig.telegram.tapButton(q, "Red");
      await settled(q);
      const rule = await asked("npm test");
      await rig.telegram.tapButton(rule, "✅ Allow in this session");
      await settled(rule);
      const once = await asked("echo digest-once");
      await rig.telegram.tapButton(once, "Allow once");
      await settled(once);
      const no = await asked("rm -rf build-tmp");
      await rig.telegram.tapButton(no, "Reject");
      await settled(no);
      await pollUntil(async () => !(await rig.opencode.isBusy(session.id)), { timeoutMs: 60_000, intervalMs: 200, what: "the run over" });
      // The run's Done notice: the files it changed are counted by then.
      // (The rejection ends the run: the Done notice has no answer.)
      await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>"), { timeoutMs, what: "the Done notice" });

      const refused = rig.telegram.sendText(rig.chatId, "/digest", { from: STRANGER });
      const asking = rig.telegram.sendText(rig.chatId, "/digest");
      const digest = await rig.telegram.waitForMessage((m) => m.replyToMessageId === asking.messageId && m.text.includes("Since"), {
        timeoutMs,
        what: "the digest",
      });
      const text = digest.text;
      const shell = tools.shellName;
      // Who started the run, how it ended, and the one file it wrote.
      expect(text).toMatch(/▶ \d\d:\d\d at the terminal · done( · [^·\n]+)? · 1 file\b/);
      expect(text).toMatch(/❓ Which color\? \[digest\] → Red · Owner on the phone/);
      expect(text).toContain(`🔐 ${shell}: npm test → allowed once · Owner on the phone`);
      expect(text).toContain(`🔐 ${shell}: npm test → allowed once · Allow in this session (npm test)`);
      expect(text).toContain(`🔐 ${shell}: echo digest-once → allowed once · Owner on the phone`);
      expect(text).toContain(`🔐 ${shell}: rm -rf build-tmp → rejected · Owner on the phone`);
      const order = ["[digest]", "npm test → allowed once · Owner", "Allow in this session (npm test)", "digest-once", "rm -rf build-tmp"].map((part) =>
        text.indexOf(part),
      );
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      // The stranger's /digest: no answer (the owner's came after it, through the same outbox).
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === refused.messageId)).toEqual([]);

      const decisions = fs
        .readFileSync(rig.logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes('"msg":"decision"'))
        .map((line) => JSON.parse(line) as { decision: string; source: string; sessionID: string; answer: string });
      expect(decisions.map((d) => [d.decision, d.answer, d.source])).toEqual([
        ["question", "Red", "phone:Owner"],
        ["permission", "once", "phone:Owner"],
        ["permission", "once", "session-rule:npm test"],
        ["permission", "once", "phone:Owner"],
        ["permission", "reject", "phone:Owner"],
      ]);
      expect(decisions.every((d) => d.sessionID === session.id)).toBe(true);
    }, 300_000);
  });
}
