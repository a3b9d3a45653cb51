// The Markdown parser costs start-up nothing: no file imports marked's code statically (types
// only), the one dynamic import is markdown.ts's, and a bridge loads it with its first question
// or answer, not before (a permission prompt never needs it).
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { packageImports } from "../support/package-imports.ts";
import { DIRECTORY, permission, question, request, setup } from "../support/bridge-rig.ts";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("marked", async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("marked is loaded on first use", () => {
  it("only types are imported statically; markdown.ts alone loads it", () => {
    expect(packageImports(ROOT, "marked")).toEqual([
      { file: "lib/text/markdown-rich.ts", how: "type" },
      { file: "lib/text/markdown-table.ts", how: "type" },
      { file: "lib/text/markdown.ts", how: "dynamic" },
    ]);
  });

  it("a bridge loads it with its first question, not at start or for a permission", async () => {
    const { bridge, askPermission, telegram } = setup();
    await askPermission(permission());
    expect(loads.count).toBe(0);
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Use **this**?" })]) });
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("Use <b>this</b>?"))).toBe(true));
    expect(loads.count).toBe(1);
  });
});
