// What a run changed: the diffs OpenCode reports on a run's user messages, gathered per run,
// listed in the Done notice and written out as a .diff (from before/after texts where OpenCode
// 1.1.53 gives no patch). Pure, plus the one Telegram call that carries the file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { RunChanges } from "../../lib/registry/run-changes.ts";
import { parseEvent } from "../../lib/opencode/events.ts";
import { createTelegramApi } from "../../lib/telegram/wire/api.ts";
import { MESSAGE_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { unifiedDiff } from "../../lib/text/line-diff.ts";
import { changesDiff, renderChanges } from "../../lib/telegram/render/render-changes.ts";
import { renderNotice } from "../../lib/telegram/render/render-notice.ts";
import { DEFAULT_CHAT_ID, parseTelegramHtml, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const t = CATALOGS.en;

/** Applies a unified diff to a text (what `patch` would do), to check the diff is right. */
function applyDiff(before: string, diff: string): string {
  const old = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 0;
  for (const hunk of diff.split(/^@@ /m).slice(1)) {
    const header = /^-(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@\n/.exec(hunk)!;
    const start = Number(header[1]) - (header[2] === "0" ? 0 : 1);
    while (at < start) out.push(old[at++]!);
    for (const line of hunk.slice(header[0].length).replace(/\n$/, "").split("\n")) {
      if (line.startsWith("+")) out.push(line.slice(1));
      else if (line.startsWith("-")) expect(old[at++]).toBe(line.slice(1));
      else if (line.startsWith(" ")) {
        expect(old[at]).toBe(line.slice(1));
        out.push(old[at++]!);
      }
    }
  }
  while (at < old.length) out.push(old[at++]!);
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

describe("unifiedDiff", () => {
  const numbered = (n: number, change: (i: number) => string | undefined = () => undefined) =>
    `${Array.from({ length: n }, (_, i) => change(i) ?? `line ${i}`).join("\n")}\n`;
  it.each([
    ["an edit", "one\ntwo\nthree\nfour\n", "one\nTWO\nTHREE\nthree-and-a-half\nfour\n"],
    ["a new file", "", "alpha\nbeta\n"],
    ["a deleted file", "a\nb\n", ""],
    ["two distant changes", numbered(40), numbered(40, (i) => (i === 3 || i === 30 ? `changed ${i}` : undefined))],
    ["changes close together", numbered(20), numbered(20, (i) => (i === 5 || i === 9 ? `changed ${i}` : undefined))],
    ["a file too big to minimise", numbered(3000), numbered(3000, (i) => (i === 1500 ? "middle" : undefined))],
  ])("%s: the diff turns the old text into the new one", (_name, before, after) => {
    const diff = unifiedDiff("f.txt", before, after);
    expect(diff.startsWith("--- a/f.txt\n+++ b/f.txt\n@@ -")).toBe(true);
    expect(applyDiff(before, diff.split("\n").slice(2).join("\n"))).toBe(after);
  });

  it("shows an edit with three lines of context, as diff -u does", () => {
    expect(unifiedDiff("f", "one\ntwo\nthree\nfour\n", "one\nTWO\nTHREE\nthree-and-a-half\nfour\n")).toBe(
      "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n one\n-two\n-three\n+TWO\n+THREE\n+three-and-a-half\n four\n",
    );
    expect(unifiedDiff("f", "same\n", "same\n")).toBe("");
  });
});

describe("RunChanges", () => {
  const change = (file: string, additions: number, deletions: number, patch?: string) => ({ file, additions, deletions, ...(patch ? { patch } : {}) });

  it("gathers a run's user messages, adding up a file changed twice", () => {
    const runs = new RunChanges();
    runs.note("s", "m1", undefined);
    runs.note("s", "m1", [change("a.ts", 2, 1, "P1")]);
    runs.note("s", "m2", [change("a.ts", 1, 0, "P2"), change("b.ts", 3, 0)]);
    expect(runs.of("s")).toEqual([{ file: "a.ts", additions: 3, deletions: 1, patch: "P1\nP2" }, change("b.ts", 3, 0)]);
    expect(runs.of("other")).toEqual([]);
  });

  it("a summary arriving after the idle still counts; the next message starts a new run", () => {
    const runs = new RunChanges();
    runs.note("s", "m1", undefined);
    runs.end("s");
    runs.note("s", "m1", [change("late.ts", 1, 1)]);
    expect(runs.of("s")).toEqual([change("late.ts", 1, 1)]);
    runs.note("s", "m2", undefined);
    expect(runs.of("s")).toEqual([]);
    runs.forget("s");
    expect(runs.of("s")).toEqual([]);
  });
});

describe("parsing a user message's summary", () => {
  it("reads summary.diffs (1.18: patch; 1.1.53: before/after), dropping malformed entries and fields", () => {
    const parsed = parseEvent({
      type: "message.updated",
      properties: {
        info: {
          id: "msg_1",
          sessionID: "ses_1",
          role: "user",
          summary: {
            diffs: [
              { file: "a.txt", patch: "P", additions: 3, deletions: 2, status: "modified" },
              { file: "b.txt", before: "x\n", after: "y\n", additions: -4, deletions: "2" },
              { additions: 1 },
              "junk",
            ],
          },
        },
      },
    });
    expect(parsed?.event).toEqual({
      type: "message.role",
      sessionID: "ses_1",
      messageID: "msg_1",
      role: "user",
      changes: [
        { file: "a.txt", additions: 3, deletions: 2, status: "modified", patch: "P" },
        { file: "b.txt", additions: 0, deletions: 0, before: "x\n", after: "y\n" },
      ],
    });
  });

  it("an assistant message's summary is not a run's changes", () => {
    const parsed = parseEvent({
      type: "message.updated",
      properties: { info: { id: "msg_2", sessionID: "ses_1", role: "assistant", summary: { diffs: [{ file: "a", additions: 1, deletions: 0 }] } } },
    });
    expect(parsed?.event).toEqual({ type: "message.role", sessionID: "ses_1", messageID: "msg_2", role: "assistant" });
  });
});

describe("renderChanges and changesDiff", () => {
  it("lists files with their counts, marks new and deleted ones, and shows hostile names as text", () => {
    const html = renderChanges(
      [
        { file: "src/<b>\u202Eevil.ts", additions: 3, deletions: 2, status: "modified" },
        { file: "new.txt", additions: 1, deletions: 0, status: "added" },
        { file: "old.txt", additions: 0, deletions: 4, status: "deleted" },
      ],
      t,
    );
    expect(html).toBe(
      "📝 <b>3 files changed</b> (+4 −6):\n<code>src/&lt;b&gt;⟨U+202E⟩evil.ts</code> +3 −2\n<code>new.txt</code> +1 −0 (new)\n<code>old.txt</code> +0 −4 (deleted)",
    );
    expect(parseTelegramHtml(html).ok).toBe(true);
  });

  it("many files: a dozen are listed and the rest counted; the Done notice stays within one message", () => {
    const changes = Array.from({ length: 40 }, (_, i) => ({ file: `${"deep/".repeat(40)}file-${i}.ts`, additions: i, deletions: 1 }));
    const html = renderChanges(changes, t);
    expect(html).toContain("…and 28 more");
    const notice = renderNotice({ kind: "done", sessionID: "s", busyMs: 60_000, lastText: "x".repeat(5_000) }, { project: "p", t }, html).html;
    expect(visibleLength(notice)).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(notice).toContain("…and 28 more");
    expect(parseTelegramHtml(notice).ok).toBe(true);
  });

  it("the .diff joins OpenCode's patches, or diffs the texts before and after; none without either", () => {
    expect(
      changesDiff([
        { file: "a", additions: 1, deletions: 0, patch: "Index: a\n+x" },
        { file: "b", additions: 1, deletions: 1, before: "1\n", after: "2\n" },
      ]),
    ).toBe("Index: a\n+x\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-1\n+2\n");
    expect(changesDiff([{ file: "a", additions: 1, deletions: 0 }])).toBeUndefined();
    expect(changesDiff([])).toBeUndefined();
  });
});

describe("sendDocument as a reply, through telegraf", () => {
  let fake: FakeTelegram;
  beforeAll(async () => {
    fake = await startFakeTelegram();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("the file replies to the message it names (telegraf would drop reply_parameters from an upload)", async () => {
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const notice = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("Done"));
    const { messageId } = await api.sendDocument(DEFAULT_CHAT_ID, "changes.diff", "+a\n", { caption: trustedHtml("diff"), replyTo: notice.messageId });
    expect(fake.messages().find((m) => m.messageId === messageId)?.replyToMessageId).toBe(notice.messageId);
  });
});
