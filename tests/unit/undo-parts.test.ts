// The pure parts of Undo: which run a key names (registry/undo-targets.ts), how its messages look
// (telegram/render/render-undo.ts: escaped names, the red confirmation, callback data in bounds),
// the files OpenCode 1.x's revert diff names, the run's first and last user message, and /undo.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { isUndoCommand } from "../../lib/bridge/runs/undo-control.ts";
import { diffFiles } from "../../lib/opencode/api.ts";
import { RunChanges } from "../../lib/registry/run-changes.ts";
import { UndoTargets } from "../../lib/registry/undo-targets.ts";
import { CALLBACK_DATA_LIMIT, decodeCallback } from "../../lib/telegram/codec.ts";
import { renderUndo, undoButton } from "../../lib/telegram/render/render-undo.ts";

const t = CATALOGS.en;
const session = { project: "proj", sessionTitle: "Fix <b>it</b>", t };

describe("UndoTargets", () => {
  it("gives a run one key however often it is asked for, and another run another key", () => {
    let n = 0;
    const targets = new UndoTargets(() => `key${++n}xyz`);
    const first = targets.targetFor("ses_1", "/p", "msg_1", [{ file: "a", additions: 1, deletions: 0 }]);
    expect(targets.targetFor("ses_1", "/p", "msg_1", [])).toBe(first);
    const second = targets.targetFor("ses_1", "/p", "msg_2", []);
    expect(second.key).not.toBe(first.key);
    expect(targets.byKey(first.key)).toBe(first);
    first.state = "undone";
    expect(targets.undoneIn("ses_1")).toEqual([first]);
    targets.forget("ses_1");
    expect(targets.byKey(first.key)).toBeUndefined();
  });
});

describe("renderUndo", () => {
  it("the confirmation is red, names every file escaped and marks the created ones", () => {
    const files = [
      { file: "src/<script>.ts", additions: 1, deletions: 1, status: "modified" as const },
      { file: "new file.md", additions: 3, deletions: 0, status: "added" as const },
    ];
    const rendered = renderUndo({ kind: "confirm", files }, "Ab3dEf9H", session);
    expect(rendered.text).toContain("<code>src/&lt;script&gt;.ts</code>\n<code>new file.md</code> (new: removed)");
    expect(rendered.text).toContain("Fix &lt;b&gt;it&lt;/b&gt;");
    expect(rendered.keyboard).toEqual([[expect.objectContaining({ text: "⏪ Confirm undo", style: "danger" })]]);
    expect(decodeCallback(rendered.keyboard[0]![0]!.callback_data)).toEqual({ key: "Ab3dEf9H", action: "undoConfirm", question: 0, option: 0 });
  });

  it("lists at most twelve files and counts the rest", () => {
    const files = Array.from({ length: 15 }, (_, i) => ({ file: `f${i}.ts`, additions: 1, deletions: 0 }));
    const text = renderUndo({ kind: "confirm", files }, "Ab3dEf9H", session).text;
    expect(text).toContain("<code>f11.ts</code>");
    expect(text).not.toContain("<code>f12.ts</code>");
    expect(text).toContain("3 more");
  });

  it("says how many files came back and offers Redo; once final, no button", () => {
    expect(renderUndo({ kind: "undone", restored: 1 }, "Ab3dEf9H", session)).toMatchObject({
      text: expect.stringContaining("Undone: 1 file restored"),
      keyboard: [[expect.objectContaining({ text: "↪ Redo" })]],
    });
    const final = renderUndo({ kind: "final", restored: 2 }, "Ab3dEf9H", session);
    expect(final.text).toContain("Undone: 2 files restored");
    expect(final.text).toContain("the undo is final");
    expect(final.keyboard).toEqual([]);
    expect(renderUndo({ kind: "failed", error: "<boom>", retry: "redo" }, "Ab3dEf9H", session).text).toContain("&lt;boom&gt;");
  });

  it("keeps callback data within Telegram's limit for the longest key", () => {
    for (const button of [undoButton("x".repeat(16), t), ...renderUndo({ kind: "undone", restored: 1 }, "x".repeat(16), session).keyboard.flat()])
      expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
  });
});

describe("diffFiles", () => {
  it("names each file of OpenCode's revert diff once (1.x's revert.diff, measured)", () => {
    const diff =
      "diff --git a/created.txt b/created.txt\ndeleted file mode 100644\n--- a/created.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-new file\n" +
      "diff --git a/dir/existing.txt b/dir/existing.txt\n--- a/dir/existing.txt\n+++ b/dir/existing.txt\n@@ -1 +1 @@\n-TWO\n+two\n";
    expect(diffFiles(diff)).toEqual(["created.txt", "dir/existing.txt"]);
    expect(diffFiles("")).toEqual([]);
  });
});

describe("RunChanges: the run's first and last user message", () => {
  it("a run is every user message from the first after an idle; the next run starts fresh", () => {
    const changes = new RunChanges();
    expect(changes.firstMessage("ses_1")).toBeUndefined();
    changes.note("ses_1", "msg_1", undefined);
    changes.note("ses_1", "msg_2", undefined);
    expect([changes.firstMessage("ses_1"), changes.lastMessage("ses_1")]).toEqual(["msg_1", "msg_2"]);
    changes.end("ses_1");
    changes.note("ses_1", "msg_1", [{ file: "late summary", additions: 1, deletions: 0 }]);
    expect(changes.firstMessage("ses_1")).toBe("msg_1");
    changes.note("ses_1", "msg_3", undefined);
    expect([changes.firstMessage("ses_1"), changes.lastMessage("ses_1")]).toEqual(["msg_3", "msg_3"]);
  });
});

describe("isUndoCommand", () => {
  it("takes /undo and /undo@bot, nothing else", () => {
    expect(["/undo", " /undo ", "/UNDO", "/undo@hermes_bot"].map(isUndoCommand)).toEqual([true, true, true, true]);
    expect(["/undo please", "undo", "/undone", "/redo"].map(isUndoCommand)).toEqual([false, false, false, false]);
  });
});
