// What `setup` writes into opencode.json, by where the command line runs (lib/cli/plugin-spec.ts): a
// clone and an installed package are named by their plugin.ts, only a copy npx fetched from a
// registry by name@version; and which spec a config holds for Hermes.
import { describe, expect, it } from "vitest";
import { hermesEntryIn, hermesSpecIn, ownCommand, ownEntry, ownPluginSpec } from "../../lib/cli/plugin-spec.ts";

const files = (present: Record<string, string>) => ({
  exists: (file: string) => Object.hasOwn(present, file),
  read: (file: string) => present[file],
});

describe("the entry setup writes", () => {
  it("a clone (a .git or a tsconfig.json beside plugin.ts): the clone's plugin.ts", () => {
    const { exists, read } = files({ "/home/me/hermes/.git": "" });
    expect(ownPluginSpec("/home/me/hermes/plugin.ts", "0.2.0", exists, read).spec).toBe("/home/me/hermes/plugin.ts");
    expect(ownCommand("/home/me/hermes/plugin.ts", exists)).toBe("node /home/me/hermes/bin/opencode-hermes.mjs");
  });

  it("a copy npx fetched from the registry: name@version", () => {
    const root = "/home/me/.npm/_npx/ab12/node_modules/opencode-hermes";
    const lock = JSON.stringify({
      packages: { "node_modules/opencode-hermes": { version: "0.2.0", resolved: "https://registry.npmjs.org/opencode-hermes/-/opencode-hermes-0.2.0.tgz" } },
    });
    const { exists, read } = files({ "/home/me/.npm/_npx/ab12/node_modules/.package-lock.json": lock });
    expect(ownPluginSpec(`${root}/plugin.ts`, "0.2.0", exists, read)).toMatchObject({ spec: "opencode-hermes@0.2.0" });
    expect(ownCommand(`${root}/plugin.ts`, exists)).toBe("npx opencode-hermes");
  });

  it("a copy npx unpacked from a tarball: its plugin.ts, with the caveat that npx's cache is temporary", () => {
    const root = "/home/me/.npm/_npx/cd34/node_modules/opencode-hermes";
    const lock = JSON.stringify({
      packages: { "node_modules/opencode-hermes": { version: "0.2.0", resolved: "file:/home/me/hermes/opencode-hermes-0.2.0.tgz" } },
    });
    const { exists, read } = files({ "/home/me/.npm/_npx/cd34/package-lock.json": lock });
    const own = ownPluginSpec(`${root}/plugin.ts`, "0.2.0", exists, read);
    expect(own.spec).toBe(`${root}/plugin.ts`);
    expect(own.note).toMatch(/npm i -g/);
  });

  it("an installed package (npm i -g of a tarball or of the registry's): its plugin.ts", () => {
    const { exists, read } = files({});
    const plugin = "/usr/local/lib/node_modules/opencode-hermes/plugin.ts";
    expect(ownPluginSpec(plugin, "0.2.0", exists, read).spec).toBe(plugin);
    expect(ownCommand(plugin, exists)).toBe("opencode-hermes");
  });

  it("OpenCode 2's entry for a clone's plugin.ts is its folder's file: URL; a name stays a name; the key a spec was found under", () => {
    const clone = { spec: "/home/me/hermes/plugin.ts", why: "this clone's plugin.ts" };
    expect(ownEntry("2.0.15", clone)).toEqual({
      spec: "file:///home/me/hermes",
      why: "the folder /home/me/hermes (OpenCode 2.0.15 loads a local plugin from its folder)",
      key: "plugins",
    });
    expect(ownEntry("2.0.15", { spec: "opencode-hermes@0.2.0", why: "the published package" })).toMatchObject({
      spec: "opencode-hermes@0.2.0",
      key: "plugins",
    });
    expect(ownEntry("1.18.33", clone)).toEqual({ ...clone, key: "plugin" });
    expect(ownEntry(undefined, clone)).toEqual({ ...clone, key: "plugin" });
    expect(hermesEntryIn({ plugin: ["/home/me/hermes/plugin.ts"] })).toEqual({ spec: "/home/me/hermes/plugin.ts", key: "plugin" });
    expect(hermesEntryIn({ plugins: [{ package: "file:///home/me/hermes" }] })).toEqual({ spec: "file:///home/me/hermes", key: "plugins" });
  });

  it("reads the spec of the last Hermes entry: a name, a path, a tuple, OpenCode 2's package", () => {
    expect(hermesSpecIn({ plugin: ["other-plugin", "opencode-hermes@0.2.0"] })).toBe("opencode-hermes@0.2.0");
    expect(hermesSpecIn({ plugin: [["/home/me/hermes/plugin.ts", { chatId: 1 }]] })).toBe("/home/me/hermes/plugin.ts");
    expect(hermesSpecIn({ plugins: [{ package: "/home/me/hermes", options: {} }] })).toBe("/home/me/hermes");
    expect(hermesSpecIn({ plugin: ["other-plugin"] })).toBeUndefined();
  });
});
