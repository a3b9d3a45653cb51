// Undo from the phone, end to end on the real OpenCode (docs/undo.md): a run from the phone edits
// a file and creates another in a git project → its Done notice carries ⏪ Undo → Undo, Confirm →
// the files are back byte for byte (the created one gone) → Redo → the run's versions are back.
// Undo while the session works is refused with the files untouched, an older run's Undo is refused
// once a newer run exists, /undo in reply to the newer notice undoes that one, and a stranger's
// taps change nothing on disk. Run on the cells matrix.ts gives it (undo.opencode-*.test.ts).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2 } from "../support/opencode.ts";
import { sleep } from "../support/wait.ts";
import { gitProject } from "../support/git-project.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const ORIGINAL = "one\ntwo\nthree\nfour\n";

/** `topics`: forum topics on (a supergroup): the session gets its own topic, and Undo's messages land in it. */
export function undoSuite(cell: Cell): void {
  const { version, chat, topics } = cell;
  const v2 = isOpencode2(version);
  const pathKey = v2 ? "path" : "filePath";

  describe(`undo from the phone on OpenCode ${version} in a ${chat} chat${topics ? " with topics" : ""}`, { timeout: 180_000 }, () => {
    let rig: Rig;
    let directory: string;
    const file = (name: string) => path.join(directory, name);
    const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), "utf8") : null);
    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((button) => button.text);
    const shell = (command: string) => (v2 ? { tool: "shell", args: { command } } : { tool: "bash", args: { command, description: "wait" } });
    /** A run that reads existing.txt, replaces `from` with `to` in it, writes `created` (if any), then answers `marker`. */
    const editRun = (from: string, to: string, marker: string, extra: { created?: string; sleepS?: number } = {}) =>
      directive({
        tool: "read",
        args: { [pathKey]: file("existing.txt") },
        then: [
          { tool: "edit", args: { [pathKey]: file("existing.txt"), oldString: from, newString: to } },
          ...(extra.created ? [{ tool: "write", args: { [pathKey]: file("created.txt"), content: extra.created } }] : []),
          ...(extra.sleepS ? [shell(`sleep ${extra.sleepS}`)] : []),
          { text: marker },
        ],
      });
    const doneNotice = (marker: string) =>
      rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes(marker), { timeoutMs: 90_000, what: `Done for ${marker}` });
    const edited = (message: SentMessage, text: string) =>
      rig.telegram.waitFor(() => (current(message).text.includes(text) ? current(message) : undefined), { timeoutMs: 60_000, what: `"${text}"` });
    /** A message sent where `message` is: in its topic when topics are on. */
    const inTopic = (message: SentMessage) => (message.threadId !== undefined ? { threadId: message.threadId } : {});
    const files = () => ({ existing: read("existing.txt"), created: read("created.txt") });
    /**
     * Taps Confirm undo and waits for the outcome: how many files OpenCode restored. On 1.1.53
     * OpenCode may restore none (its snapshots race the tools, docs/undo.md): Hermes then says so
     * and takes the revert back, the files untouched; undefined then.
     */
    async function confirmUndo(confirm: SentMessage): Promise<number | undefined> {
      const before = files();
      expect(await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(confirm, "⏪ Confirm undo"))).toMatchObject({ text: "Undoing the run…" });
      const settled = await rig.telegram.waitFor(() => (/Undone:|Could not undo/.test(current(confirm).text) ? current(confirm) : undefined), {
        // A supergroup's budget (twenty messages a minute, edits included) may hold an edit back.
        timeoutMs: 60_000,
        what: "the undo's outcome",
      });
      if (settled.text.includes("Could not undo")) {
        expect(version).toBe("1.1.53");
        expect(settled.text).toContain("OpenCode restored no file");
        expect(files()).toEqual(before);
        expect(labels(confirm)).toEqual(["⏪ Confirm undo"]);
        return undefined;
      }
      expect(labels(confirm)).toEqual(["↪ Redo"]);
      return Number(/Undone: (\d+) files? restored/.exec(settled.text)?.[1]);
    }

    beforeAll(async () => {
      rig = await startRig(version, { HERMES_DONE_AFTER: "60s", ...(topics ? { HERMES_TELEGRAM_TOPICS: "on" } : {}) }, undefined, {
        permission: { edit: "allow", bash: "allow", shell: "allow" },
        warmup: false,
        chat,
      });
      directory = rig.opencode.directory;
      // The project becomes a git repository before its instance starts (OpenCode snapshots only there).
      gitProject(directory, { "existing.txt": ORIGINAL });
      if (v2) await rig.opencode.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(directory)}`);
      else await rig.opencode.request("GET", "/config", { directory });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    let notice: SentMessage;
    let runVersion: string;

    it("Undo, Confirm: both files back byte for byte; Redo: the run's versions back; a stranger's taps change nothing", async () => {
      rig.telegram.sendText(rig.chatId, `/new ${editRun("two\nthree", "TWO\nTHREE\nthree-and-a-half", "changed the files U1", { created: "alpha\nbeta\n" })}`);
      notice = await doneNotice("changed the files U1");
      runVersion = read("existing.txt")!;
      expect(runVersion).toBe("one\nTWO\nTHREE\nthree-and-a-half\nfour\n");
      expect(read("created.txt")).toBe("alpha\nbeta\n");
      expect(labels(notice)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit"]);
      // 1.1.53's snapshots race the tools (docs/undo.md): the created file may be missing from its list.
      const tracksCreated = version !== "1.1.53" || notice.text.includes("created.txt");
      expect(notice.text).toContain(tracksCreated ? "<b>2 files changed</b>" : "<b>1 file changed</b>");
      for (const button of rig.telegram.buttons(notice)) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);

      // A stranger's tap: "Not authorized", no confirmation, nothing on disk.
      const refused = await rig.telegram.tapButton(notice, "⏪ Undo", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });

      const tap = await rig.telegram.tapButton(notice, "⏪ Undo");
      await rig.telegram.waitForCallbackAnswer(tap);
      const confirm = await rig.telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.text.includes("Undo this run?"), {
        what: "the confirmation",
      });
      expect(confirm.text).toContain("<code>existing.txt</code>");
      if (tracksCreated) expect(confirm.text).toContain("<code>created.txt</code> (new: removed)");
      expect(rig.telegram.buttons(confirm)).toEqual([expect.objectContaining({ text: "⏪ Confirm undo", style: "danger" })]);
      expect(rig.telegram.messages().filter((m) => m.text.includes("Undo this run?"))).toHaveLength(1);
      // With topics, the session's own topic holds the notice and Undo's messages.
      if (topics) expect(notice.threadId).toEqual(expect.any(Number));
      expect(confirm.threadId).toBe(notice.threadId);

      const strangerConfirm = await rig.telegram.tapButton(confirm, "⏪ Confirm undo", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(strangerConfirm)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      await sleep(1_000);
      expect(read("existing.txt")).toBe(runVersion);
      expect(read("created.txt")).toBe("alpha\nbeta\n");

      const restored = await confirmUndo(confirm);
      if (restored === undefined) return;
      // Every version restores the edited file; 1.18.33 and 2.0.15 remove the created one too, 1.1.53 only when its snapshots caught it.
      if (version !== "1.1.53") expect(restored).toBe(2);
      // 1.1.53 answers the revert before its snapshot's files are all written back (seen once on a
      // loaded machine: the file read half written): the file is waited for there, not read at once.
      if (version === "1.1.53")
        await rig.telegram
          .waitFor(() => (read("existing.txt") === ORIGINAL ? true : undefined), { timeoutMs: 15_000, what: "existing.txt written back" })
          .catch(() => undefined);
      expect(read("existing.txt")).toBe(ORIGINAL);
      expect(read("created.txt")).toBe(restored === 2 ? null : "alpha\nbeta\n");

      const strangerRedo = await rig.telegram.tapButton(confirm, "↪ Redo", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(strangerRedo)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      await sleep(1_000);
      expect(read("existing.txt")).toBe(ORIGINAL);

      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(confirm, "↪ Redo"));
      await edited(confirm, "Redone");
      expect(read("existing.txt")).toBe(runVersion);
      expect(read("created.txt")).toBe("alpha\nbeta\n");
      expect(labels(confirm)).toEqual(["⏪ Undo"]);
    });

    it("Undo while the session works is refused, files untouched; then the older run's Undo is refused, and /undo undoes the newer one", async () => {
      // A second run from the phone (a reply to the notice), which keeps working for a while.
      rig.telegram.sendText(rig.chatId, editRun("four", "FOUR", "second run U2", { sleepS: 6 }), { replyTo: notice.messageId, ...inTopic(notice) });
      await rig.telegram.waitFor(() => (read("existing.txt")?.includes("FOUR") ? true : undefined), { timeoutMs: 60_000, what: "the second run's edit" });
      const during = read("existing.txt");
      const busyTap = await rig.telegram.tapButton(notice, "⏪ Undo");
      expect(await rig.telegram.waitForCallbackAnswer(busyTap)).toMatchObject({ text: expect.stringContaining("The session is working"), showAlert: true });
      await sleep(1_000);
      expect(read("existing.txt")).toBe(during);
      expect(read("created.txt")).toBe("alpha\nbeta\n");

      const second = await doneNotice("second run U2");
      expect(labels(second)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit"]);
      const afterSecond = read("existing.txt");
      expect(afterSecond).toBe("one\nTWO\nTHREE\nthree-and-a-half\nFOUR\n");
      // The first run's Undo now: a newer run exists.
      const olderTap = await rig.telegram.tapButton(notice, "⏪ Undo");
      expect(await rig.telegram.waitForCallbackAnswer(olderTap)).toMatchObject({ text: expect.stringContaining("A newer run exists"), showAlert: true });
      await sleep(500);
      expect(read("existing.txt")).toBe(afterSecond);

      // /undo in reply to the newer notice: its confirmation names the one file, and Confirm undoes it.
      const command = rig.telegram.sendText(rig.chatId, "/undo", { replyTo: second.messageId, ...inTopic(second) });
      const confirm = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("Undo this run?"), {
        what: "/undo's confirmation",
      });
      expect(confirm.text).toContain("<code>existing.txt</code>");
      expect(confirm.text).not.toContain("created.txt");
      const restored = await confirmUndo(confirm);
      if (restored === undefined) return;
      expect(restored).toBe(1);
      expect(read("existing.txt")).toBe(runVersion);
      expect(read("created.txt")).toBe("alpha\nbeta\n");
    });
  });
}
