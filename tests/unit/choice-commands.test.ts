// /model and /agent in one process (bridge-rig: a Bridge with an in-memory Telegram and a fake
// OpenCode 1.x), the parts other processes add passed in by hand; and the pure pieces.
import { describe, expect, it, vi } from "vitest";
import { mergeChoiceParts, parseChoicePart } from "../../lib/bridge/steering/choice-part.ts";
import { shortKey } from "../../lib/bridge/core/short-key.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { HttpResult } from "../../lib/opencode/transport.ts";
import { CHOICES_PER_PAGE, renderChoicePicker } from "../../lib/telegram/render/render-choice.ts";
import { CHAT, OWNER, setup } from "../support/bridge-rig.ts";

let updateId = 100;
const command = (text: string, from = OWNER) => ({
  update_id: ++updateId,
  message: { message_id: 77, from: { id: from }, chat: { id: CHAT, type: "private" }, text },
});

/** The bridge-rig with OpenCode 1.x's providers and agents routes answering. */
function rig() {
  const r = setup({ allowedUsers: [OWNER] });
  const request = r.opencode.request.bind(r.opencode);
  r.opencode.request = async (method, url, options): Promise<HttpResult> => {
    if (method === "GET" && url === "/config/providers")
      return { status: 200, data: { providers: [{ id: "mock", models: { "mock-model": { name: "Mock" }, "mock-model-2": { name: "Two" } } }], default: {} } };
    if (method === "GET" && url === "/agent")
      return {
        status: 200,
        data: [
          { name: "build", mode: "primary" },
          { name: "plan", mode: "primary" },
          { name: "general", mode: "subagent" },
          { name: "title", mode: "primary", hidden: true },
        ],
      };
    return request(method, url, options);
  };
  const tapOn = (messageId: number, data: string, from = OWNER) => ({
    update_id: ++updateId,
    callback_query: { id: `cb-${updateId}`, from: { id: from }, data, message: { message_id: messageId, chat: { id: CHAT, type: "private" } } },
  });
  const prompts = () => r.opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async");
  return { ...r, tapOn, prompts };
}

describe("/model and /agent", () => {
  it("/model lists what OpenCode reports; a tap is applied by every process (a gathered tap) and the next prompt names it", async () => {
    const { telegram, bridge, tapOn, prompts } = rig();
    await bridge.handleUpdate(command("/model"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no picker")));
    expect(picker.keyboard.flat().map((b) => b.text)).toEqual(["mock/mock-model", "mock/mock-model-2", "✅ ↺ OpenCode's default"]);
    const tap = tapOn(picker.messageId, telegram.button(picker, "mock/mock-model-2").callback_data);
    expect(bridge.gathers(tap)).toBe(true);
    expect(await bridge.claimUpdate(tap)).toBeUndefined();
    await bridge.handleUpdate(tap);
    await vi.waitFor(() => expect(picker.keyboard.flat().map((b) => b.text)).toContain("✅ mock/mock-model-2"));
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: "Now: mock/mock-model-2" });
    await bridge.handleUpdate(command("/new go"));
    await vi.waitFor(() => expect(prompts()[0]?.body).toMatchObject({ model: { providerID: "mock", modelID: "mock-model-2" } }));
  });

  it("/agent lists primary agents only; /agent plan chooses without a picker; /agent default goes back", async () => {
    const { telegram, bridge, prompts } = rig();
    await bridge.handleUpdate(command("/agent"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no picker")));
    expect(picker.keyboard.flat().map((b) => b.text)).toEqual(["build", "plan", "✅ ↺ OpenCode's default"]);
    await bridge.handleUpdate(command("/agent PLAN"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("<code>plan</code>"));
    expect(telegram.messages.at(-1)?.keyboard).toEqual([]);
    await bridge.handleUpdate(command("/new one"));
    await vi.waitFor(() => expect(prompts()[0]?.body).toMatchObject({ agent: "plan" }));
    await bridge.handleUpdate(command("/agent default"));
    await bridge.handleUpdate(command("/new two"));
    await vi.waitFor(() => expect(prompts()).toHaveLength(2));
    expect(prompts()[1]?.body).not.toHaveProperty("agent");
  });

  it("a name OpenCode does not report changes nothing and shows the picker; a stranger's /model and tap change nothing", async () => {
    const { telegram, bridge, tapOn, prompts } = rig();
    await bridge.handleUpdate(command("/model gpt-9"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no picker")));
    expect(picker.text).toContain("nothing called <code>gpt-9</code>");
    await bridge.handleUpdate(command("/model mock-model-2", 666));
    await bridge.handleUpdate(tapOn(picker.messageId, telegram.button(picker, "mock/mock-model-2").callback_data, 666));
    expect(telegram.callbackAnswers.at(-1)?.text).toContain("Not authorized");
    await bridge.handleUpdate(command("/new three"));
    await vi.waitFor(() => expect(prompts()).toHaveLength(1));
    expect(prompts()[0]?.body).not.toHaveProperty("model");
  });

  it("/status shows what the phone's prompts use", async () => {
    const { telegram, bridge } = rig();
    await bridge.handleUpdate(command("/model mock-model-2"));
    await bridge.handleUpdate(command("/status"));
    await vi.waitFor(() =>
      expect(telegram.messages.at(-1)?.text).toContain("Prompts from the phone: 🧠 <code>mock/mock-model-2</code> · 🤖 OpenCode's default"),
    );
  });
});

describe("the lists of /model and /agent", () => {
  it("a part from another process is checked whole", () => {
    const key = shortKey("a/b");
    expect(parseChoicePart({ items: [{ key, label: "a/b" }], current: key })).toEqual({ items: [{ key, label: "a/b" }], current: key });
    for (const bad of [null, { items: "x" }, { items: [{ key: "nothex", label: "x" }] }, { items: [{ key, label: "" }] }, { items: [], current: "zz" }])
      expect(parseChoicePart(bad)).toBeUndefined();
  });

  it("parts merge by key, sorted by label, the choice in use from the first part naming one", () => {
    const a = { key: shortKey("b"), label: "b" };
    const b = { key: shortKey("a"), label: "a" };
    expect(mergeChoiceParts([{ items: [a] }, { items: [b, a], current: b.key }])).toEqual({ items: [b, a], current: b.key });
  });

  it("pages: ◀ ▶ turn them, labels are revealed and cut, callback data stays within 64 bytes", () => {
    const items = Array.from({ length: CHOICES_PER_PAGE + 3 }, (_, index) => ({
      key: shortKey(`m${index}`),
      label: `p/${"\u202E"}${"x".repeat(100)}${index}`,
    }));
    const first = renderChoicePicker("model", { items }, 0, CATALOGS.en);
    expect(first.keyboard.flat().map((b) => b.text)).toContain("More options ▶");
    const second = renderChoicePicker("model", { items, current: items.at(-1)!.key }, 1, CATALOGS.en);
    expect(second.keyboard.flat().filter((b) => b.text.startsWith("✅ "))).toHaveLength(1);
    expect(second.keyboard.flat().map((b) => b.text)).toContain("◀ Previous options");
    for (const button of [...first.keyboard, ...second.keyboard].flat()) {
      expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
      expect(button.text).not.toContain("\u202E");
    }
    expect(second.text).toContain("⟨U+202E⟩");
  });
});
