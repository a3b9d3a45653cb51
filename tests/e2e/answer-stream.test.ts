// The answer as it is written, end to end on the real OpenCode with the scripted LLM streaming a
// long answer slowly (40 pieces, one every 150 ms): in a private chat the phone gets
// sendMessageDraft calls, one draft id, whose texts are growing prefixes of the final answer, at
// most about one a second, then the Done notice with the whole answer; in a supergroup
// (HERMES_STREAM=on, Telegram's flood limits on) no draft at all, and the run's progress message
// shows the answer's last lines within the group's budget (the strict fake fails the test on a
// 429 ignored). A Bot API server without drafts (404): the progress message shows the answer
// instead, said once in the log. One OpenCode per version and chat.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatKind } from "../support/chat-kind.ts";
import { parseTelegramHtml, type ApiCall, type SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import type { OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon".split(" ");
/** About 2,400 characters in paragraphs, so the answer outgrows a progress message's tail. */
function longAnswer(tag: string): string {
  const paragraphs = Array.from(
    { length: 12 },
    (_, p) => `${tag} part ${p + 1}: ${Array.from({ length: 28 }, (_, w) => WORDS[(p + w) % WORDS.length]).join(" ")}.`,
  );
  return paragraphs.join("\n\n");
}
const streamed = (text: string) => directive({ text, chunks: 40, chunkMs: 150 });
const plain = (html: string) => {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`unparseable HTML: ${parsed.error}`);
  return parsed.plain;
};

const CASES: Array<[OpencodeVersion, ChatKind]> = [
  ["1.18.33", "private"],
  ["2.0.15", "private"],
  ["1.1.53", "private"],
  ["1.18.33", "supergroup"],
  ["2.0.15", "supergroup"],
];

describe.each(CASES)("the answer as it is written on OpenCode %s in a %s chat", (version, chat) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1s", ...(chat === "supergroup" ? { HERMES_STREAM: "on" } : {}) }, undefined, { chat });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const drafts = (): ApiCall[] => rig.telegram.calls.filter((call) => call.method === "sendMessageDraft");

  async function run(tag: string): Promise<{ answer: string; done: SentMessage }> {
    const answer = longAnswer(tag);
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, streamed(answer));
    const done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes(`${tag} part 12`), {
      timeoutMs: 60_000,
      what: "the Done notice",
    });
    return { answer, done };
  }

  if (chat === "private") {
    it("drafts that grow, one draft id, at most about one a second, then the Done notice with the whole answer", async () => {
      const { answer, done } = await run("PRIV");
      const sent = drafts().filter((call) => call.status === 200);
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(new Set(sent.map((call) => call.payload.draft_id)).size).toBe(1);
      expect(sent.every((call) => call.payload.chat_id === rig.chatId && call.payload.parse_mode === "HTML")).toBe(true);
      const texts = sent.map((call) => plain(call.payload.text));
      for (const [index, text] of texts.entries()) {
        expect(answer.startsWith(text), `draft ${index} is a prefix of the answer: ${JSON.stringify(text.slice(-60))}`).toBe(true);
        if (index > 0) expect(text.length).toBeGreaterThan(texts[index - 1]!.length);
      }
      for (let i = 1; i < sent.length; i++) expect(sent[i]!.hrAt! - sent[i - 1]!.hrAt!).toBeGreaterThanOrEqual(900);
      // The Done notice is the message that stays: after the drafts, with the whole answer.
      const doneCall = rig.telegram.calls.find((call) => call.method === "sendMessage" && String(call.payload.text).includes("PRIV part 12"))!;
      expect(doneCall.hrAt!).toBeGreaterThan(sent.at(-1)!.hrAt!);
      expect(plain(done.text)).toContain(answer);
      expect(rig.telegram.messages().some((m) => m.text.includes("✍️"))).toBe(false);
    });

    if (version === "1.18.33")
      it("a Bot API server without drafts (404): one refused call, then the progress message shows the answer, said once in the log", async () => {
        await rig.telegram.setFault({ kind: "404", methods: ["sendMessageDraft"] });
        const before = drafts().length;
        const { answer } = await run("OLDER");
        expect(
          drafts()
            .slice(before)
            .map((call) => call.status),
        ).toEqual([404]);
        const progress = rig.telegram.messages().find((m) => m.history.some((version) => version.text.includes("✍️") && version.text.includes("OLDER")));
        expect(progress, "the progress message showed the answer").toBeDefined();
        const tail = plain(progress!.history.find((version) => version.text.includes("✍️"))!.text)
          .split("✍️ ")[1]!
          .split("\n⏹")[0]!
          .trim();
        expect(answer.includes(tail.replace(/^…/, ""))).toBe(true);
        const said = fs
          .readFileSync(rig.logFile, "utf8")
          .split("\n")
          .filter((line) => line.includes("refused a draft"));
        expect(said).toHaveLength(1);
        await rig.telegram.setFault(null);
      });
  } else {
    it("no draft; the progress message shows the answer's last lines within the group's budget, and its last word drops them", async () => {
      const { answer } = await run("GROUP");
      expect(drafts()).toEqual([]);
      const progress = rig.telegram.messages().find((m) => m.history.some((version) => version.text.includes("✍️")));
      expect(progress, "a progress message showed the answer").toBeDefined();
      const tails = progress!.history
        .filter((version) => version.text.includes("✍️"))
        .map((version) => plain(version.text).split("✍️ ")[1]!.split("\n⏹")[0]!.trim());
      for (const tail of tails) expect(answer.includes(tail.replace(/^…/, "")), `the tail is the answer's: ${JSON.stringify(tail.slice(0, 80))}`).toBe(true);
      await pollUntil(
        () =>
          !rig.telegram
            .messages()
            .find((m) => m.messageId === progress!.messageId)!
            .text.includes("✍️") || undefined,
        {
          what: "the progress message's last word without the answer",
        },
      );
      // Within the group's budget: every call of the run answered, none refused for flood.
      expect(rig.telegram.calls.filter((call) => call.status === 429)).toEqual([]);
    });
  }
});
