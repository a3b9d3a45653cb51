// Go back here marks each file changed since by hand (issue 49, item 9): what a run left, read from
// OpenCode's FileDiffs as each version sends them (1.1.53's `after`, 1.18.33's and 2.0.15's
// whole-file patches, measured 2026-12-02); each file on disk compared with the last run's record,
// never through a symlink out of the project nor past the size limit; the confirmation's marks and
// counts in English and Chinese.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { handMarks, currentFingerprint, lastLeft } from "../../lib/bridge/vocabulary/hand-edits.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { leftByRun, leftByRunOf, patchNewSide, RUN_LEFT_LIMIT, textFingerprint } from "../../lib/opencode/run-left.ts";
import { renderGoBackConfirm, type PromptView } from "../../lib/telegram/render/render-vocabulary.ts";
import { html } from "../../lib/text/html.ts";

const LONG_BEFORE = `${Array.from({ length: 40 }, (_, i) => (i === 20 ? "beta" : `line ${i}`)).join("\n")}\n`;
const LONG_AFTER = LONG_BEFORE.replace("beta", "BETA");
/** 1.18.33's patch of a one-line edit in a 40-line file: the whole file as context. */
const PATCH_118 = `Index: second.txt\n===================================================================\n--- second.txt\t\n+++ second.txt\t\n@@ -1,40 +1,40 @@\n${LONG_BEFORE.split(
  "\n",
)
  .slice(0, 40)
  .map((line, i) => (i === 20 ? "-beta\n+BETA" : ` ${line}`))
  .join("\n")}\n`;
/** 2.0.15's (git's format). */
const PATCH_2 =
  "diff --git a/existing.txt b/existing.txt\nindex 4cb29ea..59cb04e 100644\n--- a/existing.txt\n+++ b/existing.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n two\n three\n";

describe("what a run left, from OpenCode's FileDiff", () => {
  it("reads the whole text from 1.1.53's after and from the new side of a whole-file patch (1.18.33, 2.0.15)", () => {
    expect(patchNewSide(PATCH_118)).toBe(LONG_AFTER);
    expect(patchNewSide(PATCH_2)).toBe("ONE\ntwo\nthree\n");
    expect(leftByRun({ file: "existing.txt", before: "one\n", after: "ONE\n", status: "modified" })).toBe(textFingerprint("ONE\n"));
    expect(leftByRun({ file: "second.txt", patch: PATCH_118, status: "modified" })).toBe(textFingerprint(LONG_AFTER));
    // A file written new, one without a final newline, one emptied, one deleted.
    expect(patchNewSide("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n")).toBe("a\nb\n");
    expect(patchNewSide("--- a\n+++ b\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n")).toBe("b");
    expect(patchNewSide("--- a\n+++ b\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+a\n")).toBe("a\n");
    expect(patchNewSide("--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n")).toBe("");
    expect(leftByRun({ file: "gone.txt", patch: "", status: "deleted" })).toBeNull();
  });

  it("says nothing it cannot know: several hunks (part of a file), a binary notice, a hunk not from the first line, counts that do not add up, a text too large", () => {
    expect(patchNewSide("@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n@@ -20,3 +20,3 @@\n x\n-y\n+Y\n z\n")).toBeUndefined();
    expect(patchNewSide("diff --git a/x.png b/x.png\nBinary files a/x.png and b/x.png differ\n")).toBeUndefined();
    expect(patchNewSide("@@ -17,7 +17,7 @@\n a\n-b\n+B\n c\n")).toBeUndefined();
    expect(patchNewSide("@@ -1,3 +1,4 @@\n-a\n+A\n b\n c\n")).toBeUndefined();
    expect(leftByRun({ file: "big.txt", after: "x".repeat(RUN_LEFT_LIMIT + 1) })).toBeUndefined();
    expect(leftByRun({ file: "x.txt", additions: 1, deletions: 0, status: "modified" })).toBeUndefined();
    expect(leftByRunOf([{ file: "a", after: "A" }, { file: "b", patch: "Binary files differ" }, "junk", { after: "no file" }])).toEqual({
      a: textFingerprint("A"),
    });
  });
});

describe("each file now against what the last run that touched it left", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
  });
  const project = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-hand-"));
    made.push(root);
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    return root;
  };

  it("marks a file changed by hand, a file the run deleted and that is back, and a file gone since; not one as the run left it", () => {
    const root = project({ "kept.txt": "ONE\n", "edited.txt": "BETA by hand\n", "back.txt": "again\n" });
    const entries: PromptView[] = [
      {
        messageID: "m2",
        text: "two",
        files: ["edited.txt", "back.txt", "gone.txt"],
        left: { "edited.txt": textFingerprint("BETA\n"), "back.txt": null, "gone.txt": textFingerprint("x\n") },
      },
      {
        messageID: "m1",
        text: "one",
        files: ["kept.txt", "edited.txt"],
        left: { "kept.txt": textFingerprint("ONE\n"), "edited.txt": textFingerprint("beta\n") },
      },
    ];
    // edited.txt's last run is m2 (newest first): its record is the one compared.
    expect(lastLeft(entries, 1, "edited.txt")).toBe(textFingerprint("BETA\n"));
    const marks = handMarks(entries, 1, ["kept.txt", "edited.txt", "back.txt", "gone.txt"], root);
    expect(Object.fromEntries(marks)).toEqual({ "edited.txt": "hand", "back.txt": "hand", "gone.txt": "hand" });
    // Edited back to what the run left: unmarked again.
    fs.writeFileSync(path.join(root, "edited.txt"), "BETA\n");
    expect(handMarks(entries, 1, ["edited.txt"], root).size).toBe(0);
  });

  it("cannot tell (never 'unchanged') without a record, without a repository, past the size limit, through a symlink out of the project, for a name that climbs out, or for bytes that are not UTF-8", () => {
    const outside = project({ "secret.txt": "ONE\n" });
    const root = project({ "norecord.txt": "x\n", "big.txt": "x".repeat(RUN_LEFT_LIMIT + 1), "binary.bin": "" });
    fs.writeFileSync(path.join(root, "binary.bin"), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    fs.symlinkSync(outside, path.join(root, "linkdir"));
    fs.symlinkSync(path.join(root, "nowhere"), path.join(root, "dangling.txt"));
    const same = textFingerprint("ONE\n");
    const files = ["norecord.txt", "big.txt", "binary.bin", "link.txt", "linkdir/secret.txt", "../secret.txt", "dangling.txt"];
    const left = Object.fromEntries(files.filter((file) => file !== "norecord.txt").map((file) => [file, same]));
    const entries: PromptView[] = [{ messageID: "m", text: "p", files, left }];
    const marks = handMarks(entries, 0, files, root);
    expect(Object.fromEntries(marks)).toEqual(Object.fromEntries(files.map((file) => [file, "unknown"])));
    expect(currentFingerprint(root, "link.txt")).toBeUndefined();
    expect(handMarks(entries, 0, ["big.txt"], undefined).get("big.txt")).toBe("unknown");
    // A symlink inside the project is followed.
    fs.writeFileSync(path.join(root, "real.txt"), "ONE\n");
    fs.symlinkSync(path.join(root, "real.txt"), path.join(root, "inner.txt"));
    expect(currentFingerprint(root, "inner.txt")).toBe(same);
  });
});

describe("Go back here's confirmation with the marks", () => {
  const entries: PromptView[] = [
    { messageID: "m2", text: "second", files: ["b.ts"] },
    { messageID: "m1", text: "first", files: ["a.ts", "c<x>.ts"] },
  ];
  const marks = new Map([
    ["b.ts", "hand" as const],
    ["c<x>.ts", "unknown" as const],
  ]);

  it("marks each file changed by hand and each it cannot tell, and says how many, in English and Chinese; the Confirm stays red", () => {
    const en = renderGoBackConfirm(entries, 1, html`p`, "Ab3dEf9H", CATALOGS.en, marks);
    expect(en.text).toContain("<code>a.ts</code>\n");
    expect(en.text).toContain("<code>b.ts</code> ✋ changed since by hand: your edit is lost");
    expect(en.text).toContain("<code>c&lt;x&gt;.ts</code> ❔ cannot tell whether it was changed since by hand");
    expect(en.text).toContain("✋ <b>1 file was changed since by hand</b>: going back overwrites that edit.");
    expect(en.text).toContain("❔ For 1 file Hermes cannot tell");
    expect(en.keyboard.flat()).toEqual([expect.objectContaining({ style: "danger" })]);
    const zh = renderGoBackConfirm(entries, 1, html`p`, "Ab3dEf9H", CATALOGS.zh, marks);
    expect(zh.text).toContain("<code>b.ts</code> ✋ 此后被手动更改过：你的修改将丢失");
    expect(zh.text).toContain("✋ <b>1 个文件此后被手动更改过</b>");
    expect(zh.text).toContain("❔ 有 1 个文件 Hermes 无法判断");
    const two = renderGoBackConfirm(
      entries,
      1,
      html`p`,
      "Ab3dEf9H",
      CATALOGS.en,
      new Map([
        ["a.ts", "hand"],
        ["b.ts", "hand"],
      ]),
    );
    expect(two.text).toContain("✋ <b>2 files were changed since by hand</b>: going back overwrites those edits.");
  });

  it("a Confirm refused after a later hand edit names the file last (the answer is cut at its end), in English and Chinese", () => {
    expect(CATALOGS.en.vocabulary.history.handSinceConfirm("src/a.ts")).toMatch(
      /^A file was changed by hand since this confirmation: nothing was changed\..* src\/a\.ts$/,
    );
    expect(CATALOGS.zh.vocabulary.history.handSinceConfirm("src/a.ts")).toMatch(/^此确认之后有文件被手动更改过：未做任何更改。.*src\/a\.ts$/);
  });

  it("without marks says nothing of hands", () => {
    const plain = renderGoBackConfirm(entries, 1, html`p`, "Ab3dEf9H", CATALOGS.en);
    expect(plain.text).not.toContain("✋");
    expect(plain.text).not.toContain("❔");
    expect(plain.text).toContain("<code>a.ts</code>\n<code>c&lt;x&gt;.ts</code>\n<code>b.ts</code>\nTap <b>Confirm go back</b>.");
  });
});
