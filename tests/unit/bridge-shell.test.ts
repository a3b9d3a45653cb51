// `!command` through the bridge (issue 53), with an in-memory Telegram and a fake OpenCode 1.x: a
// reply to a session's message runs through the shell route once (the answer edited in place);
// HERMES_SHELL=off, a stranger's `!`, a reply to no session's message and `!!` send nothing to OpenCode.
import { describe, expect, it, vi } from "vitest";
import { CHAT, DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

let updateId = 0;
const SHELL = "/session/{sessionID}/shell";

function rig(options: { shell?: boolean } = {}) {
  const r = setup({ allowedUsers: [OWNER], ...options });
  r.bridge.registry.noteMessage({ chatId: CHAT, messageId: 50 }, { sessionID: "ses_1", directory: DIRECTORY });
  r.opencode.answers.set(SHELL, {
    status: 200,
    data: { info: { role: "assistant" }, parts: [{ type: "tool", tool: "bash", state: { status: "completed", output: "a1 one\n[exit 0]\n" } }] },
  });
  const send = (text: string, from = OWNER, replyTo: number | undefined = 50) =>
    r.bridge.handleUpdate({
      update_id: ++updateId,
      message: {
        message_id: 900 + updateId,
        from: { id: from, first_name: "U" },
        chat: { id: CHAT, type: "private" },
        text,
        ...(replyTo !== undefined ? { reply_to_message: { message_id: replyTo } } : {}),
      },
    });
  const shellCalls = () => r.opencode.posts.filter((post) => post.url === SHELL);
  return { ...r, send, shellCalls };
}

describe("`!command` through the bridge", () => {
  it("a reply to a session's message runs once through OpenCode's shell route; the answer shows the status and the output", async () => {
    const r = rig();
    await r.send("!git log --oneline -n 1");
    await vi.waitFor(() => expect(r.telegram.messages.some((m) => m.text.includes("Exit status <b>0</b>"))).toBe(true));
    expect(r.shellCalls()).toHaveLength(1);
    expect(r.shellCalls()[0]?.path).toEqual({ sessionID: "ses_1" });
    expect(JSON.stringify(r.shellCalls()[0]!.body)).toContain("git log --oneline -n 1");
    const answer = r.telegram.messages.find((m) => m.text.includes("Exit status"))!;
    expect(answer.text).toContain("a1 one");
    expect(answer.text).not.toContain("[exit 0]");
  });

  it("HERMES_SHELL=off: says so and sends nothing to OpenCode", async () => {
    const r = rig({ shell: false });
    await r.send("!ls");
    await vi.waitFor(() => expect(r.telegram.messages.some((m) => m.text.includes("HERMES_SHELL=off"))).toBe(true));
    expect(r.shellCalls()).toEqual([]);
  });

  it("a stranger's `!`, `!!` and a `!` replying to no session's message send nothing to OpenCode and get no shell answer", async () => {
    const r = rig();
    await runToQuiet(async () => {
      await r.send("!touch /tmp/stranger", 666);
      await r.send("!!ls");
      await r.send("!ls", OWNER, 77);
    });
    expect(r.shellCalls()).toEqual([]);
    expect(r.telegram.messages.filter((m) => /Exit status|Running|Run this command/.test(m.text))).toEqual([]);
  });
});
