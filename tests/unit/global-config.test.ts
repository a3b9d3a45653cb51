// What the user's global OpenCode config says for Hermes (lib/config/global-config.ts): the only opencode.json
// the chat and the allow-list are taken from.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { globalConfigFile, globalHermesOptions, hermesEntryOptions } from "../../lib/config/global-config.ts";

const ENV = { HOME: "/home/u", XDG_CONFIG_HOME: "/cfg" };
const DIR = path.join("/cfg", "opencode");

function files(map: Record<string, string>): (file: string) => string | undefined {
  return (file) => map[file];
}

describe("hermesEntryOptions", () => {
  it("reads both shapes: 1.x [spec, options] tuples and 2.x { package, options }", () => {
    expect(hermesEntryOptions({ plugin: ["other", ["opencode-hermes@0.2.0", { chatId: 42 }]] })).toEqual({ chatId: 42 });
    expect(hermesEntryOptions({ plugins: [{ package: "opencode-hermes", options: { chatId: -100 } }] })).toEqual({ chatId: -100 });
  });

  it("an entry without options gives {}; no Hermes entry gives nothing", () => {
    expect(hermesEntryOptions({ plugin: ["opencode-hermes"] })).toEqual({});
    expect(hermesEntryOptions({ plugin: [["opencode-wakatime", { chatId: 1 }]] })).toBeUndefined();
    expect(hermesEntryOptions(["opencode-hermes"])).toBeUndefined();
  });
});

describe("globalHermesOptions", () => {
  it("reads $XDG_CONFIG_HOME/opencode, JSONC allowed, with {env:NAME} substituted as OpenCode does", () => {
    const text = '{\n  // mine\n  "plugin": [["opencode-hermes", { "chatId": "{env:MY_CHAT}", "allowedUsers": [7], }]],\n}\n';
    expect(globalHermesOptions({ ...ENV, MY_CHAT: "-1001" }, files({ [path.join(DIR, "opencode.json")]: text }))).toEqual({
      file: path.join(DIR, "opencode.json"),
      options: { chatId: "-1001", allowedUsers: [7] },
    });
  });

  it("OpenCode's order: config.json, opencode.json, opencode.jsonc, then $OPENCODE_CONFIG; the last Hermes entry wins", () => {
    const entry = (chatId: number) => JSON.stringify({ plugin: [["opencode-hermes", { chatId }]] });
    const all = {
      [path.join(DIR, "config.json")]: entry(1),
      [path.join(DIR, "opencode.json")]: entry(2),
      [path.join(DIR, "opencode.jsonc")]: entry(3),
      "/elsewhere/oc.json": entry(4),
    };
    expect(globalHermesOptions(ENV, files(all)).options).toEqual({ chatId: 3 });
    expect(globalHermesOptions({ ...ENV, OPENCODE_CONFIG: "/elsewhere/oc.json" }, files(all))).toEqual({ file: "/elsewhere/oc.json", options: { chatId: 4 } });
    // A later file without Hermes does not undo an earlier one's entry.
    expect(globalHermesOptions(ENV, files({ ...all, [path.join(DIR, "opencode.jsonc")]: "{}" })).options).toEqual({ chatId: 2 });
  });

  it("no file, or none listing Hermes: no options, and the file setup would write to name in a problem", () => {
    expect(globalHermesOptions(ENV, files({}))).toEqual({ file: path.join(DIR, "opencode.json") });
    expect(globalHermesOptions({ HOME: "/home/u" }, files({ "/home/u/.config/opencode/opencode.json": "not json" }))).toEqual({
      file: "/home/u/.config/opencode/opencode.json",
    });
    expect(globalConfigFile({ HOME: "/home/u" })).toBe("/home/u/.config/opencode/opencode.json");
  });
});
