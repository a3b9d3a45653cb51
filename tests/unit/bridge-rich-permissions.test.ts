// A permission's long diff as a rich message (issue 52): with rich messages, an edit whose diff is
// longer than the message's preview is one rich message, its summary open and the whole diff in a
// collapsible block, Allow offered and no .diff file; its edits (the tap's verdict, "sent again")
// stay rich. A short diff and a bash command stay today's HTML. A server without rich messages:
// the .diff file and today's message, the rich method never asked again, logged once.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { DIRECTORY, permission, setup } from "../support/bridge-rig.ts";
import { findBlocks, plainOf } from "../support/telegram/rich.ts";

const DIFF = [
  "Index: /p/src/app.ts",
  "===================================================================",
  "--- /p/src/app.ts",
  "+++ /p/src/app.ts",
  "@@ -1,3 +1,300 @@",
  ...Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `-old line ${i} <b>&"x"</b>` : `+new line ${i} <i>&amp;</i> 漢字 😀`)),
].join("\n");

const edit = (diff = DIFF) => permission({ permission: "edit", patterns: ["src/app.ts"], metadata: { filepath: "/p/src/app.ts", diff }, always: ["*"] });

describe("Bridge: a permission's long diff as a rich message", () => {
  it("a 300-line diff: one rich message, the whole diff in a collapsible block, Allow offered, no .diff; the verdict edits it rich", async () => {
    const { telegram, opencode, askPermission, tap } = setup({ rich: "supported" });
    expect(DIFF.length).toBeGreaterThan(4096);
    const req = edit();
    const message = await askPermission(req);
    expect(message.rich).toBeDefined();
    const [details] = findBlocks(message.rich!, "details");
    expect(details).toBeDefined();
    expect(details!.attrs.open).toBeUndefined();
    const summary = plainOf(details!.children[0]!);
    expect(summary).toMatch(/The whole diff of \/p\/src\/app\.ts \(\+\d+ −\d+\): tap to open/);
    // Every line of the diff, verbatim.
    expect(plainOf(details!)).toContain(DIFF.split("\n").slice(4).join("\n"));
    expect(message.text).toMatch(/^.*\n.*\n[\s\S]*src\/app\.ts/);
    expect(message.keyboard.flat().map((button) => button.text)).toContain("Allow once");
    expect(telegram.documents).toEqual([]);
    await tap(message, "Allow once");
    await vi.waitFor(() => expect(message.text).toContain("Allowed once from Telegram"));
    expect(message.keyboard).toEqual([]);
    expect(message.rich).toBeDefined();
    expect(findBlocks(message.rich!, "details")).toHaveLength(1);
    expect(opencode.posts).toEqual([{ url: "/permission/{requestID}/reply", path: { requestID: req.id }, body: { reply: "once" } }]);
  });

  it("a diff that fits the preview, and a command, stay today's HTML", async () => {
    const { telegram, askPermission } = setup({ rich: "supported" });
    const short = await askPermission(edit("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y"));
    expect(short.rich).toBeUndefined();
    expect(short.text).toContain('<pre><code class="language-diff">');
    const bash = await askPermission(permission());
    expect(bash.rich).toBeUndefined();
    expect(telegram.richCalls).toBe(0);
  });

  it("a server without rich messages: the .diff file first and today's message, logged once, never asked again", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const { telegram, askPermission } = setup({ rich: "refused", logger });
    const first = await askPermission(edit());
    expect(first.rich).toBeUndefined();
    expect(first.text).toContain("whole diff is in the file above");
    expect(telegram.documents.map((d) => d.filename)).toEqual(["app.ts.diff"]);
    expect(first.replyTo).toBe(telegram.documents[0]!.messageId);
    expect(first.keyboard.flat().map((button) => button.text)).toContain("Allow once");
    const second = await askPermission({ ...edit(), id: "per_second", patterns: ["src/other.ts"] });
    expect(second.rich).toBeUndefined();
    expect(telegram.richCalls).toBe(1);
    expect(lines.filter((line) => line.includes("no rich messages"))).toHaveLength(1);
    // Nothing sent twice: one message and one .diff per prompt.
    expect(telegram.messages.filter((m) => m.text.includes("File: <code>/p/src/app.ts</code>"))).toEqual([first, second]);
    expect(telegram.documents.map((d) => d.filename)).toEqual(["app.ts.diff", "app.ts.diff"]);
  });

  it("sent again (/pending): the new copy is rich too, the old one says so, rich", async () => {
    const { telegram, bridge, askPermission, say } = setup({ rich: "supported" });
    const message = await askPermission(edit());
    void bridge;
    await say("/pending");
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.rich && m.text.includes("src/app.ts") && m.keyboard.length > 0)).toHaveLength(1));
    await vi.waitFor(() => expect(message.keyboard).toEqual([]));
    expect(message.rich).toBeDefined();
    void DIRECTORY;
  });
});
