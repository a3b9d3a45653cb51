// The shell parser costs start-up nothing: no file imports mvdan-sh's code statically, the one
// dynamic import is shell-syntax.ts', and a bridge loads it with its first command to read, not at
// start, not for a question or an edit. Then the same bridge puts the command's flags on the message
// and offers "Allow in this session" only without them.
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { packageImports } from "../support/package-imports.ts";
import { DIRECTORY, permission, question, request, setup } from "../support/bridge-rig.ts";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("mvdan-sh", async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the shell parser is loaded on first use", () => {
  it("only types are imported statically; shell-syntax.ts alone loads it", () => {
    expect(packageImports(ROOT, "mvdan-sh")).toEqual([
      { file: "lib/approvals/shell-syntax.ts", how: "type" },
      { file: "lib/approvals/shell-syntax.ts", how: "dynamic" },
    ]);
  });

  it("a bridge loads it with its first command, not at start, for a question or an edit", async () => {
    const { bridge, askPermission, telegram } = setup();
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Which?" })]) });
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("Which?"))).toBe(true));
    await askPermission(permission({ permission: "edit", patterns: ["src/a.ts"], metadata: { filepath: `${DIRECTORY}/src/a.ts` }, always: ["*"] }));
    expect(loads.count).toBe(0);
    await askPermission(permission({ patterns: ["rm -rf src"], metadata: { command: "rm -rf src" }, always: ["rm *"] }));
    expect(loads.count).toBe(1);
    const flagged = telegram.messages.find((m) => m.text.includes("rm -rf src"))!;
    expect(flagged.text).toContain("⚠️ <b>Deletes or discards</b>: <code>rm -rf src</code>");
    expect(JSON.stringify(flagged.keyboard)).not.toContain("Allow in this session");
    await askPermission(permission());
    const ordinary = telegram.messages.find((m) => m.text.includes("echo hello"))!;
    expect(ordinary.text).not.toContain("⚠️");
    expect(JSON.stringify(ordinary.keyboard)).toContain("Allow in this session");
  });
});
