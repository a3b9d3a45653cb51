import { afterEach, describe, expect, it, vi } from "vitest";
import { describeRequest } from "../../lib/bridge/prompts/permission-feedback.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { DIRECTORY, permission, setup } from "../support/bridge-rig.ts";

afterEach(() => vi.useRealTimers());

describe("Bridge: permissions", () => {
  it("shows what is being approved and what Always covers", async () => {
    const { askPermission } = setup();
    const message = await askPermission(
      permission({ metadata: { command: "rm -rf <build> && echo done" }, patterns: ["rm -rf <build> && echo done"], always: ["rm *"] }),
    );
    expect(message.text).toContain("Permission: bash");
    expect(message.text).toContain("<pre>rm -rf &lt;build&gt; &amp;&amp; echo done</pre>");
    expect(message.text).toContain("<b>Always</b> also allows, from now on in this project: <code>rm *</code>");
    expect(message.keyboard.map((row) => row.map((b) => b.text))).toEqual([["Allow once", "Always"], ["Reject", "Reject with feedback"], ["⏹ Stop"]]);
  });

  it("shows the patterns when the metadata is empty (OpenCode ≤ 1.15)", async () => {
    const { askPermission } = setup();
    const message = await askPermission(permission({ metadata: {}, patterns: ["git push"] }));
    expect(message.text).toContain("Patterns: <code>git push</code>");
  });

  it.each([
    ["Allow once", { reply: "once" }, "Allowed once"],
    ["Always", { reply: "always" }, "Always allowed"],
    ["Reject", { reply: "reject" }, "Rejected"],
  ] as const)("%s replies %j and says so", async (button, body, status) => {
    const { opencode, tap, askPermission, settled } = setup();
    const req = permission();
    const message = await askPermission(req);
    await tap(message, button);
    await settled(message, `${status}</b> from Telegram`);
    expect(opencode.posts).toEqual([{ url: "/permission/{requestID}/reply", path: { requestID: req.id }, body }]);
  });

  it("Reject with feedback sends the typed text as the reject message", async () => {
    const { opencode, tap, askPermission, say, settled, forceReply } = setup();
    const req = permission();
    const message = await askPermission(req);
    await tap(message, "Reject with feedback");
    const prompt = await forceReply();
    await say("use printf, not echo", prompt.messageId);
    await settled(message, "Rejected with feedback</b> from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ reply: "reject", message: "use printf, not echo" });
    expect(message.text).toContain("use printf, not echo");
  });

  describe("where OpenCode drops a reject's message (2.0.15)", () => {
    /** OpenCode 1.x's routes, but a reject's message is lost as on 2.0.15. */
    class DropsRejectMessage extends OpencodeApi {
      override readonly rejectKeepsMessage = false;
    }
    function setup2(options: Parameters<typeof setup>[0] = {}) {
      const rig = setup(options);
      rig.bridge.attach({ directory: DIRECTORY, opencode: new DropsRejectMessage(rig.opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) });
      return rig;
    }
    const feedback = "use <printf> & not echo 🙂";

    it("rejects, then sends the exact feedback to that session as its next message, marked, and says so on the phone", async () => {
      const { opencode, tap, askPermission, say, settled, forceReply } = setup2();
      const req = permission({ sessionID: "ses_1", metadata: { command: "echo hello" } });
      const message = await askPermission(req);
      await tap(message, "Reject with feedback");
      await say(`  ${feedback}\n`, (await forceReply()).messageId);
      await settled(message, "Rejected with feedback</b> from Telegram");
      expect(opencode.posts).toEqual([
        { url: "/permission/{requestID}/reply", path: { requestID: req.id }, body: { reply: "reject" } },
        {
          url: "/session/{sessionID}/prompt_async",
          path: { sessionID: "ses_1" },
          body: {
            parts: [{ type: "text", text: `(Sent from Telegram, in answer to your permission request that I rejected: bash echo hello)\n\n${feedback}` }],
          },
        },
      ]);
      expect(message.text).toContain("💬 Feedback: <i>use &lt;printf&gt; &amp; not echo 🙂</i>");
      expect(message.text).toContain("↪️ OpenCode 2 drops the feedback of a reject, so it went to the session as your next message.");
    });

    it("a sub-agent's feedback goes to the run's main session: the reject ended the sub-agent, so nobody would read it there", async () => {
      const { opencode, bridge, tap, askPermission, say, settled, forceReply } = setup2();
      opencode.sessions.set("ses_child", { id: "ses_child", title: "child bash", parentID: "ses_1" });
      const req = permission({ sessionID: "ses_child" });
      const message = await askPermission(req);
      await vi.waitFor(() => expect(bridge.registry.sessions.rootOf("ses_child")).toBe("ses_1"));
      await tap(message, "Reject with feedback");
      await say(feedback, (await forceReply()).messageId);
      await settled(message, "Rejected with feedback</b> from Telegram");
      expect(opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async")).toEqual([
        {
          url: "/session/{sessionID}/prompt_async",
          path: { sessionID: "ses_1" },
          body: {
            parts: [
              { type: "text", text: `(Sent from Telegram, in answer to your sub-agent's permission request that I rejected: bash echo hello)\n\n${feedback}` },
            ],
          },
        },
      ]);
      expect(message.text).toContain("the reject ended the sub-agent, so it went to the main session as your next message.");
    });

    it("a feedback message OpenCode refuses is shown as not delivered; the reject stands", async () => {
      const { opencode, tap, askPermission, say, settled, forceReply } = setup2();
      const req = permission();
      const message = await askPermission(req);
      await tap(message, "Reject with feedback");
      const ask = await forceReply();
      const original = opencode.request.bind(opencode);
      opencode.request = async (method, url, options) =>
        url === "/session/{sessionID}/prompt_async" ? { status: 500, data: { name: "Error", data: { message: "<boom>" } } } : original(method, url, options);
      await say(feedback, ask.messageId);
      await settled(message, "Rejected with feedback</b> from Telegram");
      expect(message.text).toMatch(/sending it as your next message failed: .*&lt;boom&gt;.*The agent did not get it\./);
      expect(opencode.posts[0]?.body).toEqual({ reply: "reject" });
    });

    it("the marked message names the request (its command, else its patterns), in the chat's language, the feedback untouched", () => {
      const bash = permission({ permission: "bash", metadata: { command: "rm -rf build" }, patterns: ["rm -rf build"] });
      const edit = permission({ permission: "edit", metadata: {}, patterns: ["src/a.ts", "src/b.ts"] });
      expect(describeRequest(bash)).toBe("bash rm -rf build");
      expect(describeRequest(edit)).toBe("edit src/a.ts, src/b.ts");
      expect(describeRequest(permission({ metadata: { command: "x".repeat(1_000) } })).length).toBeLessThanOrEqual(300);
      expect(CATALOGS.zh.permission.feedbackForAgent("bash rm -rf build", feedback, false)).toBe(
        `（从 Telegram 发送，回复你那个被我拒绝的权限请求：bash rm -rf build）\n\n${feedback}`,
      );
      expect(CATALOGS.zh.permission.feedbackAsMessage).toContain("下一条消息");
    });

    it("a plain Reject and the other buttons are unchanged", async () => {
      const { opencode, tap, askPermission, settled } = setup2();
      const req = permission();
      const message = await askPermission(req);
      await tap(message, "Reject");
      await settled(message, "Rejected</b> from Telegram");
      expect(opencode.posts).toEqual([{ url: "/permission/{requestID}/reply", path: { requestID: req.id }, body: { reply: "reject" } }]);
      expect(message.text).not.toContain("next message");
    });
  });

  it("a decision made in the terminal edits the message", async () => {
    const { bridge, askPermission, settled } = setup();
    const req = permission();
    const message = await askPermission(req);
    bridge.handleEvent(DIRECTORY, { type: "permission.replied", sessionID: "ses_1", requestID: req.id, reply: "once" });
    await settled(message, "Allowed once</b> in the terminal");
  });

  it("a reject from the phone cascades: every other pending request of the session says so", async () => {
    const { opencode, bridge, tap, askPermission, settled } = setup();
    const first = permission({ metadata: { command: "echo one" }, patterns: ["echo one"] });
    const second = permission({ metadata: { command: "echo two" }, patterns: ["echo two"] });
    const one = await askPermission(first);
    const two = await askPermission(second);
    // OpenCode rejects the other pending request of the session on its own.
    const announce = opencode.announce;
    opencode.announce = (event) => {
      announce(event);
      if (event.type === "permission.replied")
        bridge.handleEvent(DIRECTORY, { type: "permission.replied", sessionID: "ses_1", requestID: second.id, reply: "reject" });
    };
    await tap(one, "Reject");
    await settled(one, "Rejected</b> from Telegram");
    await settled(two, "together with another request");
    expect(opencode.posts).toHaveLength(1);
  });

  it("an Always from the terminal auto-approves matching requests, shown as such", async () => {
    const { bridge, askPermission, settled } = setup();
    const first = permission({ metadata: { command: "echo a" }, patterns: ["echo a"] });
    const second = permission({ metadata: { command: "echo b" }, patterns: ["echo b"] });
    const one = await askPermission(first);
    const two = await askPermission(second);
    bridge.handleEvent(DIRECTORY, { type: "permission.replied", sessionID: "ses_1", requestID: first.id, reply: "always" });
    bridge.handleEvent(DIRECTORY, { type: "permission.replied", sessionID: "ses_1", requestID: second.id, reply: "always" });
    await settled(one, "Always allowed</b> in the terminal");
    await settled(two, "Auto-approved");
  });

  it("identical requests get their own messages and are answered one by one", async () => {
    const { telegram, opencode, tap, bridge, settled } = setup();
    const a = permission();
    const b = permission();
    bridge.handleEvent(DIRECTORY, { type: "permission.asked", request: a });
    bridge.handleEvent(DIRECTORY, { type: "permission.asked", request: b });
    await vi.waitFor(() => expect(telegram.messages.filter((m) => m.keyboard.length > 0)).toHaveLength(2));
    const [first, second] = telegram.messages;
    await tap(first!, "Allow once");
    await settled(first!, "Allowed once");
    expect(second!.keyboard.length).toBeGreaterThan(0);
    await tap(second!, "Allow once");
    await settled(second!, "Allowed once");
    expect(opencode.posts.map((post) => post.path?.requestID)).toEqual([a.id, b.id]);
  });

  it("labels sub-agent sessions with their parent's title", async () => {
    const { bridge, askPermission } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_parent", title: "Build the API" } });
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_child", title: "Explore", parentID: "ses_parent" } });
    const message = await askPermission(permission({ sessionID: "ses_child" }));
    expect(message.text).toContain("sub-agent of <i>Build the API</i>");
  });

  it("looks up the parent of a sub-agent session it never saw created", async () => {
    const { opencode, askPermission } = setup();
    opencode.sessions.set("ses_kid", { id: "ses_kid", title: "Scout", parentID: "ses_mom" });
    opencode.sessions.set("ses_mom", { id: "ses_mom", title: "Main work" });
    const message = await askPermission(permission({ sessionID: "ses_kid" }));
    await vi.waitFor(() => expect(message.text).toContain("sub-agent of <i>Main work</i>"));
    expect(message.text).toContain("Scout");
  });

  it("a long diff is cut in the message and sent in full just before it, all HTML-safe", async () => {
    const { telegram, askPermission } = setup();
    const diff = Array.from({ length: 400 }, (_, i) => `+ line ${i} <b>&"x"</b>`).join("\n");
    const message = await askPermission(
      permission({ permission: "edit", patterns: ["src/app.ts"], metadata: { filepath: "/p/src/app.ts", diff }, always: ["*"] }),
    );
    expect(message.text.length).toBeLessThanOrEqual(4096);
    expect(message.text).toContain("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;");
    expect(message.text).toContain("whole diff is in the file above");
    expect(telegram.documents).toHaveLength(1);
    expect(telegram.documents[0]).toMatchObject({ filename: "app.ts.diff", content: diff });
    expect(message.replyTo).toBe(telegram.documents[0]!.messageId);
    expect(message.keyboard[0]!.map((button) => button.text)).toEqual(["Allow once", "Always"]);
  });

  it("optional expiry rejects and says expired", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { opencode, bridge, telegram } = setup({ permissionTtlMs: 10_000 });
    const req = permission();
    bridge.handleEvent(DIRECTORY, { type: "permission.asked", request: req });
    await vi.advanceTimersByTimeAsync(10);
    await vi.advanceTimersByTimeAsync(10_500);
    expect(opencode.posts[0]).toEqual({ url: "/permission/{requestID}/reply", path: { requestID: req.id }, body: { reply: "reject" } });
    await vi.advanceTimersByTimeAsync(100);
    expect(telegram.messages[0]?.text).toContain("Expired");
    expect(telegram.messages[0]?.keyboard).toEqual([]);
  });

  it("permissions never expire by default", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { opencode, bridge } = setup();
    bridge.handleEvent(DIRECTORY, { type: "permission.asked", request: permission() });
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(opencode.posts).toHaveLength(0);
  });

  it("a 200 that OpenCode never applies (1.1.53 answers 200 to anything) keeps the request answerable", async () => {
    const { opencode, tap, askPermission } = setup({ announce: false });
    const req = permission();
    opencode.permissions = [req];
    const message = await askPermission(req);
    await tap(message, "Allow once");
    await vi.waitFor(() => expect(message.text).toContain("did not apply"), { timeout: 2_000 });
    expect(message.keyboard.flat().map((b) => b.text)).toContain("Allow once");
  });
});
