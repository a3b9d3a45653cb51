// OpenCode 2.0.15's command files read as it reads them (lib/opencode2/command-files.ts): the
// directories of `GET /api/config` in its order, `command/` and `commands/` below each, nested
// names, the frontmatter dropped; read-only, capped, no link out of the directory (issue 49, item 10).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { knownTemplate } from "../../lib/opencode2/command-definitions.ts";
import { readConfigSources, readDirectorySource } from "../../lib/opencode2/command-files.ts";

let root: string;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const at = (relative: string) => path.join(root, relative);

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-cmd-files-")));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("readDirectorySource", () => {
  it("reads command/ and commands/ (nested names, sorted: commands/ after command/), the frontmatter dropped", async () => {
    write("cfg/command/ship.md", "---\ndescription: Ship it\n---\nShip !`echo hi`\n");
    write("cfg/command/sub/deep.md", "deep body\n");
    write("cfg/command/dup.md", "---\ndescription: from command\n---\nA\n");
    write("cfg/commands/dup.md", "B\n");
    write("cfg/command/notes.txt", "not a command");
    write("cfg/command/.hidden.md", "hidden !`id`");
    const source = await readDirectorySource(at("cfg"));
    expect(source).toEqual({
      complete: true,
      definitions: [
        { name: ".hidden", template: "hidden !`id`" },
        { name: "dup", template: "A" },
        { name: "ship", template: "Ship !`echo hi`" },
        { name: "sub/deep", template: "deep body" },
        { name: "dup", template: "B" },
      ],
    });
    // commands/ wins over command/, as measured on 2.0.15 (`dup` is "from commands").
    expect(knownTemplate("dup", undefined, [source])).toMatchObject({ template: "B", unsure: "ambiguous" });
  });

  it("a directory that is not there has no commands", async () => {
    expect(await readDirectorySource(at("missing"))).toEqual({ definitions: [], complete: true });
  });

  it("a file over the size cap is one it cannot read; more files than the cap leave it incomplete; too deep too", async () => {
    write("cfg/command/big.md", `big ${"x".repeat(200)}`);
    write("cfg/command/a.md", "a");
    write("cfg/command/b.md", "b");
    write("cfg/command/1/2/3/deep.md", "deep");
    const caps = { files: 10, bytes: 100, depth: 8 };
    expect((await readDirectorySource(at("cfg"), caps)).definitions).toContainEqual({ name: "big" });
    expect(await readDirectorySource(at("cfg"), { ...caps, files: 2 })).toMatchObject({ complete: false });
    const shallow = await readDirectorySource(at("cfg"), { ...caps, depth: 2 });
    expect(shallow.complete).toBe(false);
    expect(shallow.definitions.map((d) => d.name)).not.toContain("1/2/3/deep");
  });

  it("a link out of the directory is not read (file or folder); a link inside it is", async () => {
    write("outside/secret.md", "secret !`cat ~/.ssh/id_ed25519`");
    write("outside/dir/x.md", "x");
    write("cfg/command/real.md", "real");
    fs.symlinkSync(at("outside/secret.md"), at("cfg/command/out.md"));
    fs.symlinkSync(at("cfg/command/real.md"), at("cfg/command/in.md"));
    fs.symlinkSync(at("outside/dir"), at("cfg/command/linked"));
    const source = await readDirectorySource(at("cfg"));
    expect(source.definitions).toEqual([{ name: "in", template: "real" }, { name: "out" }, { name: "real", template: "real" }]);
    expect(source.complete).toBe(false);
    expect(knownTemplate("out", undefined, [source])).toEqual({ others: [], unsure: "unknown" });
  });

  it("a command/ folder that is itself a link out of the directory leaves it incomplete", async () => {
    write("outside/command/x.md", "x");
    fs.mkdirSync(at("cfg"));
    fs.symlinkSync(at("outside/command"), at("cfg/command"));
    expect(await readDirectorySource(at("cfg"))).toEqual({ definitions: [], complete: false });
  });
});

describe("readConfigSources (GET /api/config's entries, in OpenCode's order)", () => {
  it("documents give their commands, directories their files; the last definition wins", async () => {
    write("global/command/ship.md", "global !`curl -s x | sh`");
    write("project/.opencode/command/ship.md", "project !`echo hi`");
    const body = [
      { type: "directory", path: at("global") },
      { type: "document", path: at("project/opencode.json"), info: { commands: { fromcfg: { template: "cfg !`echo cfg`" } } } },
      { type: "directory", path: at("project/.opencode") },
    ];
    const sources = await readConfigSources(body);
    expect(knownTemplate("fromcfg", undefined, sources)).toEqual({ template: "cfg !`echo cfg`", others: [] });
    expect(knownTemplate("ship", undefined, sources)).toEqual({ template: "project !`echo hi`", others: ["global !`curl -s x | sh`"], unsure: "ambiguous" });
  });
  it("an answer Hermes cannot read, or an entry of another kind, leaves every command unknown", async () => {
    expect(knownTemplate("ship", undefined, await readConfigSources(undefined))).toMatchObject({ unsure: "unknown" });
    expect(knownTemplate("ship", undefined, await readConfigSources([{ type: "directory", path: "relative" }]))).toMatchObject({ unsure: "unknown" });
  });
});
