// OpenCode's own vocabulary on the phone (issue 43), end to end on the real OpenCode with the
// scripted LLM, one OpenCode per file: a project command from `.opencode/command/` listed by
// /commands and run from the phone, by typing `/review <arguments>` as a reply and by its button
// (the LLM receives its template with the arguments); ⑂ Fork on a Done notice makes "⑂ <title>"
// (with topics, in a topic of its own) and a message there reaches only the fork (the original's
// messages unchanged through OpenCode's API); /compact of a long session shows the context's fill
// dropping; /history goes back two runs, the confirmation naming the later run's files too, the
// files on disk as before them (bytes). A stranger's
// /commands, /compact, /fork, /history and taps change nothing. Run on the cells matrix.ts
// gives it (vocabulary.opencode-*.test.ts).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2 } from "../support/opencode.ts";
import { seedConfigDir } from "../support/opencode/config-dir-seed.ts";
import { gitProject } from "../support/git-project.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const ORIGINAL = "one\ntwo\nthree\n";
/** A file only the later of /history's two runs changes: going back before the first puts it back too. */
const SECOND = "alpha\nbeta\n";
const REVIEW = "---\ndescription: Review the named part\n---\nPlease review $ARGUMENTS carefully.\n";
/** A command whose template runs a shell line first (OpenCode runs it unasked): it reads a key and leaves a mark. */
const SHIP = "---\ndescription: Ship it\n---\nShip notes: !`cat ~/.ssh/id_ed25519 2>/dev/null; echo shipped > shell-ran.txt`\n";
/** A command with a harmless shell line that leaves a mark: typed, it asks first (issue 49, item 10). */
const STAMP = "---\ndescription: Stamp it\n---\nStamp: !`echo stamped > typed-ran.txt`\n";
/** The mock model's context window: /compact's fill is a share of it. */
const WINDOW = { limit: { context: 200_000, output: 8_192 } };

export function vocabularySuite(cell: Cell): void {
  const { version, chat, topics } = cell;
  const v2 = isOpencode2(version);
  const pathKey = v2 ? "path" : "filePath";

  describe(`OpenCode's vocabulary on the phone, OpenCode ${version} in a ${chat} chat${topics ? " with topics" : ""}`, { timeout: 240_000 }, () => {
    let rig: Rig;
    let directory: string;
    const read = () => fs.readFileSync(path.join(directory, "existing.txt"), "utf8");
    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((button) => button.text);
    const where = (message: SentMessage) => (message.threadId !== undefined ? { threadId: message.threadId } : {});
    const reply = (to: SentMessage, text: string, from?: typeof STRANGER) =>
      rig.telegram.sendText(rig.chatId, text, { replyTo: to.messageId, ...where(to), ...(from ? { from } : {}) });
    const doneNotice = (marker: string) =>
      rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes(marker), { timeoutMs: 90_000, what: `Done for ${marker}` });
    const answerTo = (sent: { messageId: number }, pattern: RegExp) =>
      rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId && pattern.test(m.text), { timeoutMs: 90_000, what: `the answer ${pattern}` });
    const edited = (message: SentMessage, pattern: RegExp) =>
      rig.telegram.waitFor(() => (pattern.test(current(message).text) ? current(message) : undefined), { timeoutMs: 90_000, what: `${pattern}` });
    const tap = async (message: SentMessage, label: string, from?: typeof STRANGER) =>
      rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(current(message), label, from));
    const doneCount = () => rig.telegram.messages().filter((m) => m.text.includes("<b>Done</b>")).length;
    const llmSaw = (text: string) =>
      rig.telegram.waitFor(() => rig.llm.userMessages().some((m) => m.includes(text)) || undefined, { timeoutMs: 60_000, what: `"${text}" at the LLM` });
    const loc = () => `location%5Bdirectory%5D=${encodeURIComponent(directory)}`;
    async function sessions(): Promise<Array<{ id: string; title?: string }>> {
      const answer = v2 ? await rig.opencode.request("GET", `/api/session?${loc()}`) : await rig.opencode.request("GET", "/session", { directory });
      return (v2 ? answer.body.data : answer.body) as Array<{ id: string; title?: string }>;
    }
    /** A session's messages as OpenCode's API has them: ids and the user's texts. */
    async function messages(sessionID: string): Promise<Array<{ id: string; text: string }>> {
      const answer = v2
        ? await rig.opencode.request("GET", `/api/session/${sessionID}/message?limit=200&${loc()}`)
        : await rig.opencode.request("GET", `/session/${sessionID}/message`, { directory });
      const list = (v2 ? answer.body.data : answer.body) as any[];
      return list.map((m) => ({ id: (v2 ? m.id : m.info.id) as string, text: JSON.stringify(v2 ? (m.text ?? "") : m.parts) }));
    }

    beforeAll(async () => {
      rig = await startRig(version, { HERMES_DONE_AFTER: "60s", ...(topics ? { HERMES_TELEGRAM_TOPICS: "on" } : {}) }, undefined, {
        permission: { edit: "allow", bash: "allow", shell: "allow" },
        mockModel: WINDOW,
        warmup: false,
        chat,
      });
      directory = rig.opencode.directory;
      // Before the project's instance starts: its command, and git (OpenCode snapshots a run's files only there).
      fs.mkdirSync(path.join(directory, ".opencode", "command"), { recursive: true });
      fs.writeFileSync(path.join(directory, ".opencode", "command", "review.md"), REVIEW);
      fs.writeFileSync(path.join(directory, ".opencode", "command", "ship.md"), SHIP);
      fs.writeFileSync(path.join(directory, ".opencode", "command", "stamp.md"), STAMP);
      if (v2) {
        // Two definitions of one name that differ (2.0.15 runs commands/'s): Hermes cannot be sure which runs.
        fs.mkdirSync(path.join(directory, ".opencode", "commands"), { recursive: true });
        fs.writeFileSync(path.join(directory, ".opencode", "command", "twin.md"), "Twin A: !`echo twin-a`\n");
        fs.writeFileSync(path.join(directory, ".opencode", "commands", "twin.md"), "Twin B.\n");
      }
      // A project's .opencode/ makes OpenCode 1.x install its plugin package there first (offline here: seeded).
      if (!v2) seedConfigDir(path.join(directory, ".opencode"), version);
      gitProject(directory, { "existing.txt": ORIGINAL, "second.txt": SECOND });
      if (v2) await rig.opencode.request("GET", `/api/plugin?${loc()}`);
      else await rig.opencode.request("GET", "/config", { directory });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    let first: SentMessage;

    it("/commands lists the project's command; `/review <arguments>` as a reply and its button run it (the LLM gets its template); a stranger's change nothing", async () => {
      rig.telegram.sendText(rig.chatId, `/new ${directive({ text: "session one ready V1" })}`);
      first = await doneNotice("session one ready V1");
      expect(labels(first)).toEqual(["⑂ Fork"]);

      // A stranger's /commands: nothing. The owner's, sent after it, is the signal that it was handled.
      const strangers = reply(first, "/commands", STRANGER);
      const asked = reply(first, "/commands");
      const list = await answerTo(asked, /Commands of/);
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangers.messageId)).toEqual([]);
      expect(list.text).toContain("<code>/review</code> — Review the named part");
      expect(labels(list)).toContain("/review");
      expect(list.threadId).toBe(first.threadId);
      for (const button of rig.telegram.buttons(list)) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);

      // A stranger's tap on it: refused, nothing reaches the LLM.
      expect(await tap(list, "/review", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });

      // Typed with arguments, as a reply: OpenCode expands the template.
      const dones = doneCount();
      reply(first, "/review the parser module");
      await llmSaw("Please review the parser module carefully.");
      // The command's run is the phone's: its Done notice comes.
      await rig.telegram.waitFor(() => doneCount() > dones || undefined, { timeoutMs: 60_000, what: "the command run's Done notice" });
      // Its button: what it sends first (1.x lists the template; on 2.0.15 Hermes reads it where OpenCode does), then Run: the same command without arguments.
      const donesBefore = doneCount();
      expect(await tap(list, "/review")).toMatchObject({ text: "Tap Run to send it" });
      const preview = await answerTo(list, /It sends:/);
      expect(preview.text).toMatch(/<pre>Please review \$ARGUMENTS carefully\.\n?<\/pre>/);
      expect(rig.llm.userMessages().filter((m) => m.includes("Please review"))).toHaveLength(1);
      expect(await tap(preview, "▶️ Run /review")).toMatchObject({ text: "Sending the command…" });
      await answerTo(preview, /\/review<\/b> sent to/);
      await llmSaw("Please review  carefully.");
      await rig.telegram.waitFor(() => doneCount() > donesBefore || undefined, { timeoutMs: 60_000, what: "the tapped command run's Done notice" });
      expect(rig.llm.userMessages().filter((m) => m.includes("Please review"))).toHaveLength(2);
    });

    it("a command's `!`…`` shell line shows with its risk flags before it runs; it runs only on Run; a stranger's Run runs nothing", async () => {
      const marker = path.join(directory, "shell-ran.txt");
      const asked = reply(first, "/commands");
      const list = await answerTo(asked, /Commands of/);
      expect(labels(list)).toContain("/ship");
      expect(await tap(list, "/ship")).toMatchObject({ text: "Tap Run to send it" });
      const preview = await answerTo(list, /It sends:/);
      expect(preview.text).toContain("OpenCode first runs this shell line of it on this machine, unasked:");
      expect(preview.text).toContain("<code>cat ~/.ssh/id_ed25519 2&gt;/dev/null; echo shipped &gt; shell-ran.txt</code>\n⚠️ <b>");
      expect(rig.telegram.buttons(preview)).toEqual([expect.objectContaining({ text: "▶️ Run /ship", style: "danger" })]);
      expect(fs.existsSync(marker)).toBe(false);
      expect(await tap(preview, "▶️ Run /ship", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      const dones = doneCount();
      expect(await tap(preview, "▶️ Run /ship")).toMatchObject({ text: "Sending the command…" });
      await llmSaw("Ship notes:");
      await rig.telegram.waitFor(() => doneCount() > dones || undefined, { timeoutMs: 60_000, what: "the ship run's Done notice" });
      // The stranger's tap ran nothing: the one run is the owner's (its shell line left one mark).
      expect(rig.llm.userMessages().filter((m) => m.includes("Ship notes:"))).toHaveLength(1);
      expect(fs.existsSync(marker)).toBe(true);
    });

    it("a typed `/name` whose template has a shell line is not run until Run is tapped: it asks with the line shown; a stranger's Run runs nothing", async () => {
      const marker = path.join(directory, "typed-ran.txt");
      const typed = reply(first, "/stamp now");
      const preview = await answerTo(typed, /It sends:/);
      expect(preview.text).toContain("<pre>Stamp: !`echo stamped &gt; typed-ran.txt`</pre>");
      expect(preview.text).toContain("OpenCode first runs this shell line of it on this machine, unasked:\n<code>echo stamped &gt; typed-ran.txt</code>");
      expect(preview.text).toContain("With the arguments: <code>now</code>");
      expect(rig.telegram.buttons(preview)).toEqual([expect.objectContaining({ text: "▶️ Run /stamp" })]);
      expect(fs.existsSync(marker)).toBe(false);
      expect(rig.llm.userMessages().some((m) => m.includes("Stamp:"))).toBe(false);
      expect(await tap(preview, "▶️ Run /stamp", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(fs.existsSync(marker)).toBe(false);
      const dones = doneCount();
      expect(await tap(preview, "▶️ Run /stamp")).toMatchObject({ text: "Sending the command…" });
      await llmSaw("Stamp:");
      await rig.telegram.waitFor(() => doneCount() > dones || undefined, { timeoutMs: 60_000, what: "the stamp run's Done notice" });
      expect(rig.llm.userMessages().filter((m) => m.includes("Stamp:"))).toHaveLength(1);
      expect(fs.readFileSync(marker, "utf8")).toBe("stamped\n");
    });

    it.skipIf(!v2)("2.0.15: a typed command with definitions that differ asks first, saying so, with every definition's shell lines", async () => {
      const typed = reply(first, "/twin");
      const preview = await answerTo(typed, /It sends:/);
      expect(preview.text).toContain("<pre>Twin B.</pre>");
      expect(preview.text).toContain("more than one definition, and they differ");
      expect(preview.text).toContain("<code>echo twin-a</code>");
      expect(rig.llm.userMessages().some((m) => m.includes("Twin"))).toBe(false);
    });

    it("⑂ Fork on the Done notice: a new session '⑂ <title>' (with topics, in its own topic); a message there reaches only the fork; a stranger's tap forks nothing", async () => {
      const before = await sessions();
      expect(await tap(first, "⑂ Fork", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      const strangerFork = reply(first, "/fork", STRANGER);
      const original = before.find((s) => !s.title?.startsWith("⑂"))!;
      const originalMessages = await messages(original.id);

      expect(await tap(first, "⑂ Fork")).toMatchObject({ text: "Forking…" });
      const forked = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Forked</b>"), { timeoutMs: 60_000, what: "the fork's first message" });
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangerFork.messageId)).toEqual([]);
      const after = await sessions();
      expect(after).toHaveLength(before.length + 1);
      const fork = after.find((s) => !before.some((b) => b.id === s.id))!;
      expect(fork.title).toBe(`⑂ ${original.title}`);
      if (topics) {
        expect(forked.threadId).toEqual(expect.any(Number));
        expect(forked.threadId).not.toBe(first.threadId);
        expect(rig.telegram.topics().some((topic) => topic.threadId === forked.threadId && topic.name === `⑂ ${original.title}`)).toBe(true);
        expect(forked.text).toContain("https://t.me/c/");
      } else expect(forked.replyToMessageId).toBe(first.messageId);
      // The fork holds the original up to that run: its prompt, not the commands' that came after it.
      const copied = await messages(fork.id);
      expect(copied.some((m) => m.text.includes("session one ready V1"))).toBe(true);
      expect(copied.some((m) => m.text.includes("Please review"))).toBe(false);
      expect(originalMessages.some((m) => m.text.includes("Please review"))).toBe(true);

      // A message in the fork's topic (or a reply to its message) continues the fork only.
      if (topics) rig.telegram.sendText(rig.chatId, directive({ text: "fork answer V2" }), { threadId: forked.threadId! });
      else reply(forked, directive({ text: "fork answer V2" }));
      await doneNotice("fork answer V2");
      expect((await messages(fork.id)).some((m) => m.text.includes("fork answer V2"))).toBe(true);
      expect(await messages(original.id)).toEqual(originalMessages);
    });

    it("/compact of a long session: the context's fill drops (87% → 12% of 200k, and so in /status); a stranger's /compact does nothing", async () => {
      rig.llm.setUsage({ prompt: 170_000, completion: 4_000 });
      reply(first, directive({ text: "long answer V3" }));
      const long = await doneNotice("long answer V3");
      const strangers = reply(long, "/compact", STRANGER);
      // The summary the compaction writes is 24k tokens.
      rig.llm.setUsage({ prompt: 174_000, completion: 24_000 });
      const asked = reply(long, "/compact");
      const compacting = await answerTo(asked, /Compact/);
      const done = await edited(compacting, /<b>Compacted<\/b>|refused/);
      rig.llm.setUsage({ prompt: 10, completion: 5 });
      expect(done.text).toContain("🧠 87% → 12% of 200k");
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangers.messageId)).toEqual([]);
      // /status shows the fill the compaction left while the session rests.
      const status = rig.telegram.sendText(rig.chatId, "/status");
      expect((await answerTo(status, /Hermes status/)).text).toContain("🧠 12% of 200k");
    });

    it("/history goes back two runs: the list names each run's files, Go back here asks in red naming the later run's files too, marking the one edited by hand since (not the one untouched) and refusing a Confirm after a later hand edit, and the files are as before (bytes); a stranger's taps change nothing", async () => {
      const edit = (file: string, from: string, to: string, marker: string) =>
        directive({
          tool: "read",
          args: { [pathKey]: path.join(directory, file) },
          then: [{ tool: "edit", args: { [pathKey]: path.join(directory, file), oldString: from, newString: to } }, { text: marker }],
        });
      const readSecond = () => fs.readFileSync(path.join(directory, "second.txt"), "utf8");
      rig.telegram.sendText(rig.chatId, `/new ${edit("existing.txt", "one", "ONE", "history run H1")}`);
      const h1 = await doneNotice("history run H1");
      reply(h1, edit("second.txt", "beta", "BETA", "history run H2"));
      const h2 = await doneNotice("history run H2");
      // 1.1.53's snapshots race its tools (docs/undo.md): what it recorded decides what it can put back.
      expect(read()).toBe("ONE\ntwo\nthree\n");
      expect(readSecond()).toBe("alpha\nBETA\n");
      // A person at the desk edits the later run's file by hand: going back would overwrite it.
      fs.writeFileSync(path.join(directory, "second.txt"), "alpha\nBETA\nedited by hand\n");

      const strangers = reply(h2, "/history", STRANGER);
      // With topics, /history sent in the session's topic (not as a reply) is for that session too.
      const asked = topics ? rig.telegram.sendText(rig.chatId, "/history", { threadId: h2.threadId! }) : reply(h2, "/history");
      const list = await answerTo(asked, /Last prompts/);
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === strangers.messageId)).toEqual([]);
      // Newest first (each prompt is the scripted LLM's directive, cut before its marker): the bytes below tell which one went back.
      expect(list.text).toMatch(/\n1\. HERMES_TEST[\s\S]*\n2\. HERMES_TEST/);
      if (version !== "1.1.53") expect(list.text).toContain("<code>existing.txt</code>");
      expect(labels(list)).toEqual(["1", "2"]);

      expect(await tap(list, "2", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      await tap(list, "2");
      const pick = await answerTo(list, /^2\. HERMES_TEST/m);
      expect(labels(pick)).toEqual(["⏪ Go back here", "⑂ Fork here"]);
      expect(await tap(pick, "⏪ Go back here")).toMatchObject({ text: "Tap Confirm go back" });
      const confirm = await edited(pick, /Go back to before this prompt\?/);
      expect(rig.telegram.buttons(confirm)).toEqual([expect.objectContaining({ text: "⏪ Confirm go back", style: "danger" })]);
      // Going back before H1 undoes H2 too (OpenCode reverts every later run): its file is named before the tap.
      expect(confirm.text).toContain("This also undoes the 1 later run");
      if (version !== "1.1.53") {
        expect(confirm.text).toContain("<code>existing.txt</code>");
        expect(confirm.text).toContain("<code>second.txt</code>");
      }
      // The file edited by hand is marked and counted; the one as its run left it is not (each version's record of what a run left: docs/compatibility.md).
      if (confirm.text.includes("<code>second.txt</code>")) {
        expect(confirm.text).toContain("<code>second.txt</code> ✋ changed since by hand: your edit is lost");
        expect(confirm.text).toContain("✋ <b>1 file was changed since by hand</b>");
      }
      if (confirm.text.includes("<code>existing.txt</code>")) expect(confirm.text).toContain("<code>existing.txt</code>\n");
      expect(confirm.text).not.toContain("cannot tell");

      expect(await tap(confirm, "⏪ Confirm go back", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(read()).toBe("ONE\ntwo\nthree\n");
      if (confirm.text.includes("<code>existing.txt</code>")) {
        // A hand edit after the confirmation showed the file unmarked: Confirm is refused, nothing goes back; as the run left it again, Confirm goes on.
        fs.writeFileSync(path.join(directory, "existing.txt"), "ONE\ntwo\nthree\nlate hand edit\n");
        expect(await tap(confirm, "⏪ Confirm go back")).toMatchObject({ text: expect.stringContaining("changed by hand since this confirmation") });
        expect(read()).toBe("ONE\ntwo\nthree\nlate hand edit\n");
        fs.writeFileSync(path.join(directory, "existing.txt"), "ONE\ntwo\nthree\n");
      }
      await tap(confirm, "⏪ Confirm go back");
      const outcome = await edited(confirm, /Gone back|Nothing undone|refused/);
      if (version === "1.1.53" && outcome.text.includes("OpenCode restored no file")) {
        // 1.1.53 has no record of these runs' changes (its snapshots race its tools, docs/undo.md): the revert is taken back, the bytes untouched.
        expect(read()).toBe("ONE\ntwo\nthree\n");
        return;
      }
      if (version === "1.1.53") {
        // 1.1.53's record of the runs' files races its tools: it may put back one of the two.
        expect(outcome.text).toMatch(/Gone back: [12] files? restored/);
        return;
      }
      expect(outcome.text).toMatch(/Gone back: 2 files restored/);
      expect(read()).toBe(ORIGINAL);
      expect(readSecond()).toBe(SECOND);
    });
  });
}
