// Unknown HERMES_* variables and the known name each is closest to (lib/unknown-variables.ts), and
// the list of known ones against what lib/ reads.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closestVariable, KNOWN_VARIABLES, unknownVariables } from "../../lib/config/unknown-variables.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("unknown HERMES_* variables", () => {
  it("names a typo with the closest known one", () => {
    expect(closestVariable("HERMES_RUN_BUDJET")).toBe("HERMES_RUN_BUDGET");
    expect(closestVariable("HERMES_TELEGRAM_CHATID")).toBe("HERMES_TELEGRAM_CHAT_ID");
    expect(closestVariable("HERMES_TELEGRAM_TOKN")).toBe("HERMES_TELEGRAM_TOKEN");
    expect(closestVariable("hermes_language")).toBe("HERMES_LANGUAGE");
    expect(closestVariable("HERMES_PROGERSS")).toBe("HERMES_PROGRESS");
    expect(closestVariable("HERMES_SOMETHING_ELSE_ENTIRELY")).toBeUndefined();
  });

  it("lists only the unknown ones, and never the tests' own switches", () => {
    expect(
      unknownVariables({ HERMES_TELEGRAM_TOKEN: "x", HERMES_STREAM: "on", HERMES_RUN_BUDJET: "2", HERMES_E2E_CHAT: "group", HERMES_TEST_X: "1", PATH: "/bin" }),
    ).toEqual([{ name: "HERMES_RUN_BUDJET", closest: "HERMES_RUN_BUDGET" }]);
  });

  it("knows every HERMES_ variable lib/ reads", () => {
    const read = new Set<string>();
    // (unknown-variables.ts itself names a typo in its header.)
    for (const file of sources(path.join(REPO, "lib")).filter((file) => !file.endsWith("unknown-variables.ts"))) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/HERMES_[A-Z0-9_]*[A-Z0-9]\b/g)) read.add(match[0]);
    }
    const known = new Set<string>(KNOWN_VARIABLES);
    expect([...read].filter((name) => !known.has(name)).sort()).toEqual([]);
  });
});
