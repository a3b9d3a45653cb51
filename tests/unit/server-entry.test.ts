import { describe, expect, it } from "vitest";
import HermesPlugin from "../../plugin.ts";
import * as pluginModule from "../../plugin.ts";
import entry from "../../server.ts";

describe("the package entry points", () => {
  it("plugin.ts has exactly one export, the 1.x plugin function (1.1.53 calls every export)", () => {
    expect(Object.keys(pluginModule)).toEqual(["default"]);
    expect(typeof HermesPlugin).toBe("function");
  });

  it("server.ts is { id, server, setup }: 1.18 calls server, OpenCode 2 calls setup", () => {
    expect(Object.keys(entry).sort()).toEqual(["id", "server", "setup"]);
    expect(entry.id).toBe("hermes");
    expect(entry.server).toBe(HermesPlugin);
    expect(typeof entry.setup).toBe("function");
  });

  it("setup does nothing (and never throws) where the context is not OpenCode 2's", async () => {
    for (const ctx of [undefined, null, {}, { directory: "/p", client: {} }, { event: {} }, { event: { subscribe: 1 }, location: { directory: "/p" } }]) {
      await expect(entry.setup(ctx)).resolves.toBeUndefined();
    }
  });
});
