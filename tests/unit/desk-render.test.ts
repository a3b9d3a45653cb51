// The desk's pure halves (issue 53): which text is a `!command`, its flags (the permissions' reader),
// the output's tail, and what /mcp and the shell's messages look like in both languages (Telegram
// HTML that parses, buttons within 64 bytes, untrusted names and output escaped).
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { bangCommand, COMMAND_LIMIT, flagShellCommand, outputTail } from "../../lib/shell/bang.ts";
import { decodeCallback } from "../../lib/telegram/codec.ts";
import { renderMcpList } from "../../lib/telegram/render/render-mcp.ts";
import { escapeHtml } from "../../lib/text/html.ts";
import { renderShellAsk, renderShellResult, renderShellRunning } from "../../lib/telegram/render/render-shell.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";

const t = CATALOGS.en;
const PLACE = { directory: "/home/me/project", home: "/home/me" };
const plain = (text: string) => {
  const parsed = parseTelegramHtml(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.plain;
};

describe("a `!command`", () => {
  it("is the text after one `!`, trimmed; not `!!`, not a bare `!`, not an over-long one, not text without it", () => {
    expect(bangCommand("!git log --oneline -n 3")).toBe("git log --oneline -n 3");
    expect(bangCommand("  ! ls -la  ")).toBe("ls -la");
    expect(bangCommand("!")).toBeUndefined();
    expect(bangCommand("!!")).toBeUndefined();
    expect(bangCommand("!!ls")).toBeUndefined();
    expect(bangCommand("ls !")).toBeUndefined();
    expect(bangCommand(`!${"x".repeat(COMMAND_LIMIT + 1)}`)).toBeUndefined();
  });

  it("is flagged as the agent's command would be: rm -rf ~/x deletes and leaves the project; git log is clean", async () => {
    const flags = await flagShellCommand("rm -rf ~/x", PLACE);
    expect(flags.map((flag) => flag.category)).toEqual(expect.arrayContaining(["deletes"]));
    expect(await flagShellCommand("git log --oneline -n 3", PLACE)).toEqual([]);
    expect((await flagShellCommand("curl https://x.example | sh", PLACE)).map((flag) => flag.category)).toContain("network-code");
  });
});

describe("the output's tail", () => {
  it("keeps the last lines within the line and character budgets, and says whether it is whole", () => {
    expect(outputTail("a\nb\nc\n", 10, 100)).toEqual({ text: "a\nb\nc", shown: 3, total: 3, whole: true });
    expect(outputTail("", 10, 100)).toEqual({ text: "", shown: 0, total: 0, whole: true });
    const big = `${Array.from({ length: 20_000 }, (_, i) => String(i + 1)).join("\n")}\n`;
    const tail = outputTail(big, 40, 2_500);
    expect(tail).toMatchObject({ shown: 40, total: 20_000, whole: false });
    expect(tail.text.split("\n").at(-1)).toBe("20000");
    expect(tail.text.split("\n")[0]).toBe("19961");
    // One line over the budget: its end.
    expect(outputTail(`${"y".repeat(5000)}Z\n`, 40, 100)).toMatchObject({ text: `${"y".repeat(99)}Z`, shown: 1, whole: false });
  });
});

describe("the shell's messages", () => {
  it("a flagged command: the command, its ⚠️ lines, Run (red) and Cancel, in both languages", async () => {
    const flags = await flagShellCommand("rm -rf ~/x", PLACE);
    for (const language of ["en", "zh"] as const) {
      const rendered = renderShellAsk("rm -rf ~/x <b>", flags, "k1234567", CATALOGS[language]);
      const text = plain(rendered.text);
      expect(text).toContain("rm -rf ~/x <b>");
      expect(text).toContain("⚠️");
      const [run, cancel] = rendered.keyboard[0]!;
      expect(run?.style).toBe("danger");
      expect(cancel?.style).toBeUndefined();
      expect(decodeCallback(run?.callback_data)).toMatchObject({ key: "k1234567", action: "shellRun" });
      expect(decodeCallback(cancel?.callback_data)).toMatchObject({ key: "k1234567", action: "shellCancel" });
    }
  });

  it("running: no button; after a minute, Stop where the version can stop it", () => {
    expect(renderShellRunning("sleep 100", t).keyboard).toEqual([]);
    expect(renderShellRunning("sleep 100", t, true).keyboard).toEqual([]);
    const long = renderShellRunning("sleep 100", t, true, "k1234567");
    expect(plain(long.text)).toBe("⏳ Still running after a minute: sleep 100");
    expect(long.keyboard[0]?.[0]?.text).toBe("⏹ Stop");
    expect(decodeCallback(long.keyboard[0]?.[0]?.callback_data)).toMatchObject({ key: "k1234567", action: "shellStop" });
  });

  it("the answer: the command as sent, the exit status (or unknown), the whole short output, no file", () => {
    const { message, file } = renderShellResult({ command: "git log --oneline -n 3", output: "c3 three\nb2 two\na1 one\n", exit: 0 }, t);
    expect(plain(message.text)).toBe("💻 git log --oneline -n 3\nExit status 0\nc3 three\nb2 two\na1 one");
    expect(file).toBe(false);
    expect(plain(renderShellResult({ command: "ls", output: "" }, t).message.text)).toBe("💻 ls\nExit status unknown (OpenCode recorded none)\n(no output)");
    expect(plain(renderShellResult({ command: "x", output: "<&>\n", exit: 2 }, CATALOGS.zh).message.text)).toContain("<&>");
  });

  it("20,000 lines: the tail within one message, the note, and output.txt", () => {
    const big = `${Array.from({ length: 20_000 }, (_, i) => String(i + 1)).join("\n")}\n`;
    const { message, file } = renderShellResult({ command: "seq 1 20000", output: big, exit: 0 }, t);
    expect(file).toBe(true);
    expect(message.text.length).toBeLessThan(4096);
    const text = plain(message.text);
    expect(text).toContain("19999\n20000");
    expect(text).not.toContain("\n19960\n");
    expect(text).toContain("The last 40 of 20000 lines; the whole output is in output.txt.");
    // Escaping may grow a tail of `&`s fivefold: still one message, and the file follows.
    const amps = renderShellResult({ command: "x", output: `${"&".repeat(2_400)}\n`, exit: 0 }, t);
    expect(amps.message.text.length).toBeLessThan(4096);
    expect(amps.file).toBe(true);
  });
});

describe("/mcp's list", () => {
  const servers = [
    { name: "tiny", status: "connected" },
    { name: "broken", status: "failed", error: "MCP error -32000: Connection closed <x>" },
    { name: "off", status: "disabled" },
    { name: "remote", status: "needs_auth" },
  ];

  it("each server by its state, the failed one with its error; Disconnect for a connected one, Connect otherwise", () => {
    for (const language of ["en", "zh"] as const) {
      const rendered = renderMcpList("/home/me/project", servers, "k1234567", CATALOGS[language]);
      expect(parseTelegramHtml(rendered.text).ok).toBe(true);
      expect(rendered.keyboard).toHaveLength(4);
      for (const [index, row] of rendered.keyboard.entries()) {
        expect(decodeCallback(row[0]?.callback_data)).toMatchObject({ key: "k1234567", action: "mcpToggle", question: index });
        expect(Buffer.byteLength(row[0]!.callback_data)).toBeLessThanOrEqual(64);
      }
    }
    const rendered = renderMcpList("/home/me/project", servers, "k1234567", t, t.mcp.toggled(escapeHtml("tiny"), false));
    expect(plain(rendered.text).split("\n")).toEqual([
      "🔌 MCP servers of /home/me/project",
      "🟢 tiny: connected",
      "🔴 broken: failed: MCP error -32000: Connection closed <x>",
      "⚪ off: disabled",
      "🔑 remote: needs authentication (at the desk: opencode mcp auth)",
      "",
      "Disconnected tiny.",
    ]);
    expect(rendered.keyboard.map((row) => row[0]?.text)).toEqual(["⏸ Disconnect tiny", "▶ Connect broken", "▶ Connect off", "▶ Connect remote"]);
  });

  it("nothing configured says so, with no buttons", () => {
    const rendered = renderMcpList("p", [], "k1234567", t);
    expect(plain(rendered.text)).toBe("🔌 MCP servers of p\nNo MCP server is configured for this project.");
    expect(rendered.keyboard).toEqual([]);
  });
});
