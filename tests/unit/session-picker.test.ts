// /sessions in one process (bridge-rig: a Bridge with an in-memory Telegram and a fake OpenCode 1.x),
// and the pure pieces: the part's check, the list's pages, the last answer's cut.
import { describe, expect, it, vi } from "vitest";
import { parseSessionsPart } from "../../lib/bridge/steering/sessions-part.ts";
import { shortKey } from "../../lib/bridge/core/short-key.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { HttpResult } from "../../lib/opencode/transport.ts";
import { renderAnswerHeader, renderSessionPicker, SESSIONS_PER_PAGE } from "../../lib/telegram/render/render-sessions.ts";
import { CHAT, OWNER, setup } from "../support/bridge-rig.ts";

let updateId = 500;
const command = (text: string, from = OWNER) => ({
  update_id: ++updateId,
  message: { message_id: 77, from: { id: from }, chat: { id: CHAT, type: "private" }, text },
});
const NOW = Date.now();

function rig(answer: string) {
  const r = setup({ allowedUsers: [OWNER] });
  const request = r.opencode.request.bind(r.opencode);
  r.opencode.request = async (method, url, options): Promise<HttpResult> => {
    if (method === "GET" && url === "/session")
      return {
        status: 200,
        data: [
          { id: "ses_old", title: "Old work", time: { created: 0, updated: NOW - 3_600_000 } },
          { id: "ses_new", title: "New work", time: { created: 0, updated: NOW - 60_000 } },
          { id: "ses_child", title: "child", parentID: "ses_new", time: { created: 0, updated: NOW } },
        ],
      };
    if (method === "GET" && url === "/session/{sessionID}/message")
      return {
        status: 200,
        data: [
          { info: { role: "user" }, parts: [{ type: "text", text: "q" }] },
          { info: { role: "assistant" }, parts: [{ type: "text", text: answer }] },
        ],
      };
    return request(method, url, options);
  };
  const tapOn = (messageId: number, data: string, from = OWNER) => ({
    update_id: ++updateId,
    callback_query: { id: `cb-${updateId}`, from: { id: from }, data, message: { message_id: messageId, chat: { id: CHAT, type: "private" } } },
  });
  return { ...r, tapOn };
}

describe("/sessions", () => {
  it("lists root sessions newest first; the pick posts the last answer, and a reply to it continues that session", async () => {
    const { telegram, bridge, tapOn, say, opencode } = rig("All <done>.");
    await bridge.handleUpdate(command("/sessions"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no list")));
    expect(picker.keyboard.flat().map((b) => b.text)).toEqual(["⚪ project · New work · 1 min 0 s ago", "⚪ project · Old work · 1 h 0 min ago"]);
    await bridge.handleUpdate(tapOn(picker.messageId, telegram.button(picker, "⚪ project · Old work · 1 h 0 min ago").callback_data));
    const shown = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("All &lt;done&gt;.")) ?? Promise.reject(new Error("no answer")));
    expect(shown.text).toContain("<b>Old work</b>");
    await say("go on", shown.messageId);
    await vi.waitFor(() => expect(opencode.posts.find((post) => post.url === "/session/{sessionID}/prompt_async")?.path).toEqual({ sessionID: "ses_old" }));
  });

  it("a long answer is shortened to its end, and sent whole as a file replying to it", async () => {
    const long = `${"word ".repeat(2_000)}THE-END`;
    const { telegram, bridge, tapOn } = rig(long);
    await bridge.handleUpdate(command("/sessions"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no list")));
    await bridge.handleUpdate(tapOn(picker.messageId, picker.keyboard[0]![0]!.callback_data));
    await vi.waitFor(() => expect(telegram.documents).toHaveLength(1));
    expect(telegram.documents[0]).toMatchObject({ filename: "answer.md", content: long });
    const shown = telegram.messages.find((m) => m.messageId === telegram.documents[0]!.replyTo)!;
    expect(shown.text).toContain("the whole answer is in the file <code>answer.md</code> below");
    expect(shown.text).toContain("THE-END");
  });

  it("a stranger's /sessions and tap show nothing", async () => {
    const { telegram, bridge, tapOn } = rig("secret answer");
    await bridge.handleUpdate(command("/sessions", 666));
    expect(telegram.messages).toEqual([]);
    await bridge.handleUpdate(command("/sessions"));
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no list")));
    await bridge.handleUpdate(tapOn(picker.messageId, picker.keyboard[0]![0]!.callback_data, 666));
    expect(telegram.callbackAnswers.at(-1)?.text).toContain("Not authorized");
    expect(telegram.messages.some((m) => m.text.includes("secret answer"))).toBe(false);
  });
});

describe("the list of /sessions", () => {
  const entry = (index: number) => ({ key: shortKey(`s${index}`), project: "p", title: `t${index}`, busy: index === 0, updated: NOW - index * 1000 });

  it("a part is checked whole", () => {
    expect(parseSessionsPart({ sessions: [entry(0)] })).toEqual([entry(0)]);
    for (const bad of [
      null,
      { sessions: [{ ...entry(0), key: "x" }] },
      { sessions: [{ ...entry(0), busy: "no" }] },
      { sessions: [{ ...entry(0), updated: -1 }] },
    ])
      expect(parseSessionsPart(bad)).toBeUndefined();
  });

  it("pages, busy marked, labels revealed and cut, callback data within 64 bytes", () => {
    const sessions = Array.from({ length: SESSIONS_PER_PAGE + 2 }, (_, index) => entry(index));
    sessions[1] = { ...sessions[1]!, title: `\u202E${"x".repeat(200)}` };
    const first = renderSessionPicker(sessions, 0, NOW, CATALOGS.en);
    expect(first.keyboard[0]![0]!.text).toMatch(/^🟢 p · t0/);
    expect(first.keyboard[1]![0]!.text).toContain("⟨U+202E⟩");
    expect(first.keyboard.flat().map((b) => b.text)).toContain("More options ▶");
    for (const button of first.keyboard.flat()) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
    expect(
      renderSessionPicker(sessions, 1, NOW, CATALOGS.en)
        .keyboard.flat()
        .map((b) => b.text),
    ).toContain("◀ Previous options");
  });

  it("the answer's header escapes and marks the title", () => {
    const header = renderAnswerHeader("p<", "\u202E<b>t</b>", CATALOGS.en);
    expect(header).toContain("<b>⟨U+202E⟩&lt;b&gt;t&lt;/b&gt;</b>");
    expect(header).toContain("<code>p&lt;</code>");
    expect(renderAnswerHeader("p", undefined, CATALOGS.en)).toContain("untitled");
  });
});
