// /new in one process (bridge-rig: a Bridge with an in-memory Telegram and a fake OpenCode 1.x),
// with the parts other processes would add passed in by hand, and the pure pieces: the part's
// check, the project keys and the picker's labels.
import { describe, expect, it, vi } from "vitest";
import { parseProjectsPart, projectKey } from "../../lib/bridge/steering/projects-part.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { projectLabels, renderProjectPicker } from "../../lib/telegram/render/render-new.ts";
import { CHAT, DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

let updateId = 0;
const command = (text: string, from = OWNER) => ({
  update_id: ++updateId,
  message: { message_id: 77, from: { id: from }, chat: { id: CHAT, type: "private" }, text },
});
const prompts = (opencode: ReturnType<typeof setup>["opencode"]) => opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async");
const created = (opencode: ReturnType<typeof setup>["opencode"]) => opencode.posts.filter((post) => post.url === "/session");

describe("/new", () => {
  it("with one project served here: a new session gets the text, and the Running message (a reply to /new) continues it", async () => {
    const { telegram, opencode, bridge, say } = setup();
    const update = command("/new fix the flaky test");
    expect(bridge.gathers(update)).toBe(true);
    expect(await bridge.partFor(update)).toEqual({ directories: [DIRECTORY] });
    await bridge.handleUpdate(update);
    const running = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Running")) ?? Promise.reject(new Error("no Running")));
    expect(running.replyTo).toBe(77);
    expect(created(opencode)).toHaveLength(1);
    const sessionID = prompts(opencode)[0]!.path!.sessionID!;
    expect(prompts(opencode)[0]!.body).toEqual({ parts: [{ type: "text", text: "fix the flaky test" }] });
    await say("and the other one", running.messageId);
    await vi.waitFor(() => expect(prompts(opencode)).toHaveLength(2));
    expect(prompts(opencode)[1]).toMatchObject({ path: { sessionID }, body: { parts: [{ type: "text", text: "and the other one" }] } });
  });

  it("without text: a force-reply request, whose reply starts the session", async () => {
    const { telegram, opencode, bridge, say } = setup();
    await bridge.handleUpdate(command("/new"));
    const ask = await vi.waitFor(() => telegram.messages.find((m) => m.forceReply) ?? Promise.reject(new Error("no request")));
    expect(ask.text).toContain("project"); // the project's name
    expect(created(opencode)).toEqual([]);
    await say("write the docs", ask.messageId);
    await vi.waitFor(() => expect(prompts(opencode)[0]?.body).toEqual({ parts: [{ type: "text", text: "write the docs" }] }));
  });

  it("with a second project in another process: a picker; a tap on this process' project is claimed here, the other's is not", async () => {
    const { telegram, opencode, bridge } = setup({ allowedUsers: [OWNER] });
    const update = command("/new ship it");
    await bridge.handleUnclaimed(update, [await bridge.partFor(update), { directories: ["/home/dev/other"] }]);
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length === 2) ?? Promise.reject(new Error("no picker")));
    // Each project row: the project, and 🌿 for the new session in a new worktree of it (issue 44).
    expect(picker.keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["📁 other", "🌿 New worktree"],
      ["📁 project", "🌿 New worktree"],
    ]);
    expect(created(opencode)).toEqual([]);
    const tapOn = (label: string, from = OWNER) => ({
      update_id: ++updateId,
      callback_query: {
        id: `cb-${updateId}`,
        from: { id: from },
        data: telegram.button(picker, label).callback_data,
        message: {
          message_id: picker.messageId,
          chat: { id: CHAT, type: "private" },
          reply_to_message: { message_id: 77, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, text: "/new ship it" },
        },
      },
    });
    expect(await bridge.claimUpdate(tapOn("📁 other"))).toBeUndefined(); // the other process' project
    // A stranger's tap: not this process' work (the process that polls refuses it), nothing started.
    expect(await bridge.claimUpdate(tapOn("📁 project", 666))).toBeUndefined();
    await bridge.handleUnclaimed(tapOn("📁 project", 666));
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    const claim = await bridge.claimUpdate(tapOn("📁 project"));
    const again = await bridge.claimUpdate(tapOn("📁 project")); // a quick second tap, before the buttons go
    await claim!();
    await again!();
    await vi.waitFor(() => expect(prompts(opencode)[0]?.body).toEqual({ parts: [{ type: "text", text: "ship it" }] }));
    expect(created(opencode)).toHaveLength(1);
    await vi.waitFor(() => expect(picker.keyboard).toEqual([]));
    expect(picker.text).toContain("New session in <b>project</b>");
  });

  it("a stranger's /new and a malformed part from another process change nothing", async () => {
    const { telegram, opencode, bridge } = setup({ allowedUsers: [OWNER] });
    await runToQuiet(() => bridge.handleUpdate(command("/new evil", 666)));
    expect(await bridge.partFor(command("/new evil", 666))).toBeUndefined();
    expect(created(opencode)).toEqual([]);
    expect(telegram.messages).toEqual([]);
    // A forged part naming a relative path is dropped: only this process' own project is offered, so it starts straight away.
    const update = command("/new only here");
    await bridge.handleUnclaimed(update, [await bridge.partFor(update), { directories: ["../../etc"] }]);
    await vi.waitFor(() => expect(created(opencode)).toHaveLength(1));
  });

  it("says when no project runs Hermes, and when OpenCode refuses to create the session", async () => {
    const { telegram, opencode, bridge } = setup();
    await bridge.handleUnclaimed(command("/new x"), []);
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("No project runs Hermes"));
    opencode.replyStatus = 500;
    await bridge.handleUpdate(command("/new y"));
    await vi.waitFor(() => expect(telegram.messages.at(-1)?.text).toContain("Could not start a new session (OpenCode answered 500"));
  });
});

describe("the projects of /new", () => {
  it("a part is a list of absolute paths, or it is dropped whole", () => {
    expect(parseProjectsPart({ directories: ["/a", "/b c"] })).toEqual({ directories: ["/a", "/b c"] });
    for (const bad of [
      null,
      {},
      { directories: "x" },
      { directories: ["rel"] },
      { directories: [3] },
      { directories: ["/a\0"] },
      { directories: ["/x".repeat(3000)] },
    ])
      expect(parseProjectsPart(bad)).toBeUndefined();
    expect(parseProjectsPart({ directories: Array.from({ length: 101 }, (_, i) => `/p${i}`) })).toBeUndefined();
  });

  it("keys are short and fit the callback codec; names collide only with their parent added", () => {
    expect(projectKey("/home/dev/project")).toMatch(/^[0-9a-f]{12}$/);
    expect(projectKey("/a")).not.toBe(projectKey("/b"));
    expect([...projectLabels(["/srv/app", "/home/app", "/x/tool"]).values()]).toEqual(["srv/app", "home/app", "tool"]);
  });

  it("the picker's labels are revealed and cut, and its callback data stays within 64 bytes", () => {
    const hostile = `/p/${"\u202E".repeat(3)}${"👩‍👩‍👧".repeat(80)}`;
    const picker = renderProjectPicker([{ key: projectKey(hostile), directory: hostile }], CATALOGS.en);
    const [button] = picker.keyboard.flat();
    expect(button!.text).toContain("⟨U+202E⟩");
    expect([...new Intl.Segmenter().segment(button!.text)].length).toBeLessThanOrEqual(64);
    expect(Buffer.byteLength(button!.callback_data)).toBeLessThanOrEqual(64);
  });
});
