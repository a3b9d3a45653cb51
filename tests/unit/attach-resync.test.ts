// Attach mode's pieces that need no server: the plugin check and the resync after a reconnect
// (on a real Bridge with an in-memory Telegram and a fake OpenCode).
import { describe, expect, it, vi } from "vitest";
import { hermesPluginIn } from "../../lib/attach/plugin-check.ts";
import { isHermesSpec } from "../../lib/config/hermes-spec.ts";
import { OWN_PLUGIN } from "../../lib/config/package-info.ts";

import { OpencodeApi } from "../../lib/opencode/api.ts";
import type { HttpResult, OpencodeTransport } from "../../lib/opencode/transport.ts";
import { DIRECTORY, question, request, setup } from "../support/bridge-rig.ts";

describe("isHermesSpec", () => {
  it.each([
    "opencode-hermes",
    "opencode-hermes@0.1.0",
    "opencode-hermes@latest",
    `file://${OWN_PLUGIN}`,
    OWN_PLUGIN,
    "file:///home/you/hermes/plugin.ts",
    "/home/you/hermes/plugin.ts",
    "/home/you/.config/opencode/node_modules/opencode-hermes/plugin.ts",
    "/srv/node_modules/opencode-hermes",
    ["opencode-hermes", { some: "option" }],
  ])("recognizes %j", (spec) => {
    expect(isHermesSpec(spec)).toBe(true);
  });

  it.each([
    "",
    "opencode-hermes-extra",
    "hermes",
    "@scope/opencode-hermes",
    "file:///home/you/other/plugin.ts",
    "/home/you/hermesx/plugin.ts",
    "opencode-wakatime",
    42,
    null,
    {},
  ])("does not take %j for Hermes", (spec) => {
    expect(isHermesSpec(spec, "/nowhere/plugin.ts")).toBe(false);
  });
});

describe("hermesPluginIn", () => {
  const transport = (answers: Array<HttpResult | Error>): OpencodeTransport & { calls: number } => {
    const t = {
      calls: 0,
      async request() {
        const answer = answers[Math.min(t.calls++, answers.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return t;
  };

  it("reads the instance's plugin list", async () => {
    expect(await hermesPluginIn(transport([{ status: 200, data: { plugin: ["file:///x/hermes/plugin.ts"] } }]))).toEqual({
      loaded: true,
      spec: "file:///x/hermes/plugin.ts",
    });
    expect(await hermesPluginIn(transport([{ status: 200, data: { plugin: [] } }]))).toEqual({ loaded: false });
    expect(await hermesPluginIn(transport([{ status: 200, data: {} }]))).toEqual({ loaded: false });
  });

  it("retries, then says it could not tell", async () => {
    const flaky = transport([new Error("ECONNRESET"), { status: 500, data: "x" }, { status: 200, data: { plugin: ["opencode-hermes"] } }]);
    expect(await hermesPluginIn(flaky, { retries: 3 })).toEqual({ loaded: true, spec: "opencode-hermes" });
    expect(flaky.calls).toBe(3);
    const down = transport([{ status: 401, data: "Unauthorized" }]);
    expect(await hermesPluginIn(down, { retries: 1 })).toEqual({ loaded: undefined, error: "GET /config answered 401" });
  });
});

describe("Bridge.resync", () => {
  it("closes prompts OpenCode no longer has, delivers the ones raised during the gap, keeps the rest", async () => {
    const rig = setup();
    const gone = request([question({ question: "Gone during the gap?" })]);
    const kept = request([question({ question: "Still pending?" })]);
    const fresh = request([question({ question: "Raised during the gap?" })]);
    const goneMessage = await rig.ask(gone);
    const keptMessage = await rig.ask(kept);
    rig.opencode.pending = [kept, fresh];

    expect(await rig.bridge.resync(rig.link)).toEqual({ pending: 2, closed: 1 });
    await rig.settled(goneMessage, "No longer pending");
    await vi.waitFor(() => expect(rig.telegram.messages.find((m) => m.text.includes("Raised during the gap?"))?.keyboard.length).toBeGreaterThan(0));
    expect(keptMessage.keyboard.length).toBeGreaterThan(0);
    expect(rig.telegram.messages.filter((m) => m.text.includes("Still pending?"))).toHaveLength(1);
    expect(
      rig.bridge.registry
        .pendingIn(DIRECTORY)
        .map((p) => p.requestID)
        .sort(),
    ).toEqual([kept.id, fresh.id].sort());
  });

  it("leaves alone a prompt raised while the lists were being read, and one with a reply in flight", async () => {
    const rig = setup();
    const busy = request([question({ question: "Busy?" })]);
    const busyMessage = await rig.ask(busy);
    rig.bridge.registry.byRequest(busy.id)!.busy = true;
    rig.opencode.pending = [];
    const late = request([question({ question: "Late?" })]);
    const original = rig.opencode.request.bind(rig.opencode);
    rig.opencode.request = async (method, url, options) => {
      if (method === "GET" && url === "/question") rig.bridge.handleEvent(DIRECTORY, { type: "question.asked", request: late });
      return original(method, url, options);
    };
    expect(await rig.bridge.resync(rig.link)).toEqual({ pending: 0, closed: 0 });
    await vi.waitFor(() => expect(rig.telegram.messages.find((m) => m.text.includes("Late?"))?.keyboard.length).toBeGreaterThan(0));
    expect(busyMessage.text).not.toContain("No longer pending");
    expect(rig.bridge.registry.pendingIn(DIRECTORY)).toHaveLength(2);
  });

  it("closes nothing when OpenCode can't be asked", async () => {
    const rig = setup();
    const message = await rig.ask(request());
    const failing: OpencodeTransport = { request: async () => ({ status: 503, data: "starting" }) };
    await expect(rig.bridge.resync({ directory: DIRECTORY, opencode: new OpencodeApi(failing) })).rejects.toThrow("503");
    expect(message.keyboard.length).toBeGreaterThan(0);
    expect(rig.bridge.registry.pendingIn(DIRECTORY)).toHaveLength(1);
  });
});
