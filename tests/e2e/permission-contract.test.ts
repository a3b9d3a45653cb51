// OpenCode's permission behaviour, measured on the real `opencode serve` (no Hermes loaded) with
// `permission: { bash: "ask", edit: "ask" }`, a scripted LLM, and the SSE stream of the project.
// Every assertion is a fact the permission bridge builds on: when an OpenCode upgrade changes one
// of them, this file fails and names it. One OpenCode per version, one session per scenario.
//
// Scenarios use distinct bash commands on purpose: an `always` reply approves its pattern
// (`echo *`, `date *`, ...) for every later request of the instance, in any session.
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordEvents, type EventRecorder } from "../support/event-stream.ts";
import { contentText, messagesOf } from "../support/llm/chat-request.ts";
import { parseDirective } from "../support/llm/directive.ts";
import { directive, startMockLlm, type MockLlm, type Step } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS, startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";

const E2E_TIMEOUT = 90_000;
const WAIT = { timeoutMs: 30_000 };

type Ev = { id?: string; type: string; properties: any };

/** 1.1.53 requires `description`; 1.18.33 ignores it. */
const bash = (command: string) => ({ tool: "bash", args: { command, description: `run ${command}` } });

describe.each(OPENCODE_VERSIONS)("OpenCode %s permission contract", (version) => {
  const old = version === "1.1.53";
  let llm: MockLlm;
  let oc: OpencodeServer;
  const recorders: EventRecorder[] = [];

  beforeAll(async () => {
    llm = await startMockLlm();
    oc = await startOpencode({ version, llmBaseURL: llm.baseURL, plugins: [], permission: { bash: "ask", edit: "ask" } });
  }, 120_000);
  afterEach(() => {
    for (const r of recorders.splice(0)) r.close();
  });
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
  });

  /** The project's SSE stream, connected (server.connected seen) before anything is prompted. */
  async function watch(directory = oc.directory) {
    const rec = await recordEvents(oc.url, directory);
    recorders.push(rec);
    const events = rec.events as Ev[];
    await pollUntil(() => events.some((e) => e.type === "server.connected"), { what: "server.connected on /event", ...WAIT });
    const context = () =>
      `events: ${JSON.stringify(events.filter((e) => /^(permission|question|session\.(idle|error|created))/.test(e.type)))}\n${oc.logs().slice(-2000)}`;
    const of = (type: string, sessionID?: string) =>
      events.filter((e) => e.type === type && (sessionID === undefined || e.properties?.sessionID === sessionID));
    return {
      events,
      of,
      /** permission.* and session.idle of one session, in arrival order, as [type, requestID|undefined, reply|undefined]. */
      timeline: (sessionID: string) =>
        events
          .filter((e) => (e.type.startsWith("permission.") || e.type === "session.idle") && e.properties?.sessionID === sessionID)
          .map((e) => [e.type, e.properties.requestID ?? e.properties.id, e.properties.reply]),
      asked: (sessionID: string, n = 1) =>
        pollUntil(() => (of("permission.asked", sessionID).length >= n ? of("permission.asked", sessionID).map((e) => e.properties) : undefined), {
          what: `${n} permission.asked in ${sessionID}`,
          context,
          ...WAIT,
        }),
      idle: (sessionID: string, count = 1) =>
        pollUntil(() => of("session.idle", sessionID).length >= count, { what: `session.idle #${count} of ${sessionID}`, context, ...WAIT }),
    };
  }

  /** Parallel calls may raise their permission.asked in any order: sort them by command. */
  const byCommand = (asked: any[], commands: string[]) => commands.map((c) => asked.find((a) => a.patterns[0] === c)!);
  const reply = (id: string, body: unknown) => oc.request("POST", `/permission/${id}/reply`, { body });
  const pending = async () => (await oc.request<any[]>("GET", "/permission")).body;
  const resultOf = (callID: string) => llm.waitForToolResult((r) => r.toolCallId === callID, { what: `the tool result of ${callID}`, ...WAIT });
  /** Agent (non-title) LLM requests whose scripted user message is exactly this step. */
  const agentRequests = (step: Step) =>
    llm.requests.filter(
      (r) =>
        Array.isArray(r.tools) &&
        r.tools.length > 0 &&
        messagesOf(r).some((m) => m.role === "user" && JSON.stringify(parseDirective(contentText(m.content))) === JSON.stringify(step)),
    );
  const toolNames = (request: any): string[] => request.tools.map((t: any) => t.function.name).sort();
  async function start(step: Step) {
    const session = await oc.createSession();
    await oc.prompt(session.id, directive(step));
    return session.id;
  }
  async function toolParts(sessionID: string) {
    const res = await oc.request<any[]>("GET", `/session/${sessionID}/message`);
    return res.body
      .flatMap((m) => m.parts)
      .filter((p: any) => p.type === "tool")
      .map((p: any) => ({ tool: p.tool, status: p.state.status, error: p.state.error }));
  }
  const rejected = (feedback?: string) =>
    `${old ? "Error: " : ""}The user rejected permission to use this specific tool call${feedback ? ` with the following feedback: ${feedback}` : "."}`;

  it(
    "a/h/i: one bash call: permission.asked, GET /permission, reply once, permission.replied, late and bad replies",
    async () => {
      const ev = await watch();
      const step = { ...bash("echo hi"), then: [{ text: "A done" }] };
      const sessionID = await start(step);
      const [asked] = await ev.asked(sessionID);
      expect(asked).toEqual({
        id: expect.stringMatching(/^per_/),
        sessionID,
        permission: "bash",
        patterns: ["echo hi"],
        metadata: old ? {} : { command: "echo hi" },
        always: ["echo *"],
        tool: { messageID: expect.stringMatching(/^msg_/), callID: expect.stringMatching(/^call_/) },
      });
      const envelope = ev.of("permission.asked", sessionID)[0]!;
      if (old) expect(envelope.id).toBeUndefined();
      else expect(envelope.id).toMatch(/^evt_/);

      // h: GET /permission lists exactly the permission.asked properties.
      expect(await pending()).toEqual([asked]);

      expect(await reply(asked.id, { reply: "once" })).toEqual({ status: 200, body: true });
      expect((await resultOf(asked.tool.callID)).content).toBe("hi\n");
      await ev.idle(sessionID);
      expect(ev.of("permission.replied", sessionID).map((e) => e.properties)).toEqual([{ sessionID, requestID: asked.id, reply: "once" }]);
      expect(agentRequests(step)).toHaveLength(2); // the call, then the text after its result
      expect(await pending()).toEqual([]);

      // i: answering again, or an unknown id: 1.18 says 404, 1.1.53 says 200 true and does nothing.
      const unknown = "per_0000000000000000000000000";
      for (const id of [asked.id, unknown]) {
        const res = await reply(id, { reply: "once" });
        if (old) expect(res).toEqual({ status: 200, body: true });
        else expect(res).toEqual({ status: 404, body: { _tag: "PermissionNotFoundError", requestID: id, message: `Permission request not found: ${id}` } });
      }
      const malformedId = await reply("nonsense", { reply: "once" });
      if (old) expect(malformedId).toMatchObject({ status: 500, body: { name: "UnknownError" } });
      else expect(malformedId).toMatchObject({ status: 400, body: { name: "BadRequest", data: { kind: "Params" } } });
      const badReply = await reply(asked.id, { reply: "maybe" });
      expect(badReply.status).toBe(400);
      if (old) expect(badReply.body).toMatchObject({ success: false, error: [{ path: ["reply"], values: ["once", "always", "reject"] }] });
      else expect(badReply.body).toMatchObject({ name: "BadRequest", data: { kind: "Payload" } });
      await sleep(300);
      expect(ev.of("permission.replied")).toHaveLength(1); // late replies raise no event
    },
    E2E_TIMEOUT,
  );

  it(
    "b: `always` approves the pattern: no permission.asked (nor replied) again, in this session or a new one",
    async () => {
      const ev = await watch();
      const sessionID = await start({ ...bash("date"), then: [{ text: "B1 done" }] });
      const [asked] = await ev.asked(sessionID);
      expect(asked).toMatchObject({ patterns: ["date"], always: ["date *"] });
      expect(await reply(asked.id, { reply: "always" })).toEqual({ status: 200, body: true });
      await ev.idle(sessionID);
      expect(ev.of("permission.replied", sessionID).map((e) => e.properties)).toEqual([{ sessionID, requestID: asked.id, reply: "always" }]);

      const results = llm.toolResults.length;
      await oc.prompt(sessionID, directive({ ...bash("date"), then: [{ text: "B2 done" }] }));
      await ev.idle(sessionID, 2);
      const other = await start({ ...bash("date"), then: [{ text: "B3 done" }] });
      await ev.idle(other);
      expect(llm.toolResults.slice(results)).toHaveLength(2); // both commands ran
      expect(ev.of("permission.asked")).toHaveLength(1);
      expect(ev.of("permission.replied")).toHaveLength(1);
    },
    E2E_TIMEOUT,
  );

  it(
    "c: two parallel calls ask twice; `reject` on the first rejects the second too and stops the agent loop",
    async () => {
      const ev = await watch();
      const step = { tools: [bash("uname -s"), bash("whoami")], then: [{ text: "C done" }] };
      const sessionID = await start(step);
      const asked = await ev.asked(sessionID, 2);
      const [first, second] = byCommand(asked, ["uname -s", "whoami"]);
      expect([first.always, second.always]).toEqual([["uname *"], ["whoami *"]]);
      expect(first.tool.messageID).toBe(second.tool.messageID); // one assistant message, two calls
      expect(first.tool.callID).not.toBe(second.tool.callID);
      expect(await pending()).toEqual(expect.arrayContaining(asked));
      expect(await pending()).toHaveLength(2);

      expect(await reply(first.id, { reply: "reject" })).toEqual({ status: 200, body: true });
      await ev.idle(sessionID);
      expect(ev.timeline(sessionID).slice(2)).toEqual([
        ["permission.replied", first.id, "reject"],
        ["permission.replied", second.id, "reject"], // cascaded by OpenCode, nobody answered it
        ["session.idle", undefined, undefined],
      ]);
      expect(await pending()).toEqual([]);
      expect(await toolParts(sessionID)).toEqual([
        { tool: "bash", status: "error", error: rejected() },
        { tool: "bash", status: "error", error: rejected() },
      ]);
      expect(agentRequests(step)).toHaveLength(1); // the LLM is not called again: the turn ends
      expect(llm.toolResults.some((r) => r.toolCallId === first.tool.callID || r.toolCallId === second.tool.callID)).toBe(false);
      expect(ev.of("session.error")).toEqual([]);
    },
    E2E_TIMEOUT,
  );

  it(
    "d: `always` on one of parallel calls auto-approves the pending ones its pattern covers (reply 'always'), not the others",
    async () => {
      const ev = await watch();
      const step = { tools: [bash("echo a"), bash("echo b"), bash("pwd")], then: [{ text: "D done" }] };
      const sessionID = await start(step);
      const [a, b, pwd] = byCommand(await ev.asked(sessionID, 3), ["echo a", "echo b", "pwd"]);
      expect([a.always, b.always, pwd.always]).toEqual([["echo *"], ["echo *"], ["pwd *"]]);

      expect(await reply(a.id, { reply: "always" })).toEqual({ status: 200, body: true });
      await pollUntil(() => ev.of("permission.replied", sessionID).length >= 2, { what: "the cascaded reply", ...WAIT });
      await sleep(300);
      expect(ev.timeline(sessionID).slice(3)).toEqual([
        ["permission.replied", a.id, "always"],
        ["permission.replied", b.id, "always"], // cascaded, reported as "always"
      ]);
      expect(await pending()).toEqual([pwd]);
      expect(await reply(pwd.id, { reply: "once" })).toEqual({ status: 200, body: true });
      await ev.idle(sessionID);
      // All three results reach the LLM together, in call order, in one request.
      const next = agentRequests(step)[1]!;
      expect(
        messagesOf(next)
          .filter((m) => m.role === "tool")
          .map((m) => [m.tool_call_id, contentText(m.content)]),
      ).toEqual([
        [a.tool.callID, "a\n"],
        [b.tool.callID, "b\n"],
        [pwd.tool.callID, `${oc.directory}\n`],
      ]);
    },
    E2E_TIMEOUT,
  );

  it(
    "cascades stay inside one session: reject or always in session A leaves session B's pending permission alone",
    async () => {
      const ev = await watch();
      const A = await start({ ...bash("uname -m"), then: [{ text: "XA done" }] });
      const B = await start({ ...bash("hostname"), then: [{ text: "XB done" }] });
      const [a] = await ev.asked(A);
      const [b] = await ev.asked(B);
      await reply(a.id, { reply: "reject" });
      await ev.idle(A);
      await sleep(300);
      expect(await pending()).toEqual([b]);
      await reply(b.id, { reply: "once" });
      await ev.idle(B);

      const C = await start({ ...bash("ls -a"), then: [{ text: "YC done" }] });
      const D = await start({ ...bash("ls -l"), then: [{ text: "YD done" }] });
      const [c] = await ev.asked(C);
      const [d] = await ev.asked(D);
      expect([c.always, d.always]).toEqual([["ls *"], ["ls *"]]);
      await reply(c.id, { reply: "always" });
      await ev.idle(C);
      await sleep(300);
      expect(await pending()).toEqual([d]); // matches `ls *`, yet stays pending in the other session
      expect(ev.of("permission.replied", D)).toEqual([]);
      await reply(d.id, { reply: "once" });
      await ev.idle(D);
    },
    E2E_TIMEOUT,
  );

  it(
    "e: `reject` with a message: the LLM gets the feedback as the tool result and is called again in the same turn",
    async () => {
      const ev = await watch();
      const step = { ...bash("cat opencode.json"), then: [{ text: "E done" }] };
      const sessionID = await start(step);
      const [asked] = await ev.asked(sessionID);
      expect(await reply(asked.id, { reply: "reject", message: "use printf instead" })).toEqual({ status: 200, body: true });
      expect((await resultOf(asked.tool.callID)).content).toBe(rejected("use printf instead"));
      await ev.idle(sessionID);
      expect(ev.of("permission.replied", sessionID).map((e) => e.properties)).toEqual([{ sessionID, requestID: asked.id, reply: "reject" }]);
      expect(agentRequests(step)).toHaveLength(2);
      expect(await toolParts(sessionID)).toEqual([{ tool: "bash", status: "error", error: rejected("use printf instead") }]);
    },
    E2E_TIMEOUT,
  );

  it(
    "e: `reject` with a message while a parallel call is pending: the other is rejected without it and the loop stops",
    async () => {
      const ev = await watch();
      const step = { tools: [bash("wc -c opencode.json"), bash("wc -l opencode.json")], then: [{ text: "E2 done" }] };
      const sessionID = await start(step);
      const [first, second] = byCommand(await ev.asked(sessionID, 2), ["wc -c opencode.json", "wc -l opencode.json"]);
      await reply(first.id, { reply: "reject", message: "use printf instead" });
      await ev.idle(sessionID);
      expect(ev.of("permission.replied", sessionID).map((e) => [e.properties.requestID, e.properties.reply])).toEqual([
        [first.id, "reject"],
        [second.id, "reject"],
      ]);
      expect(await toolParts(sessionID)).toEqual([
        { tool: "bash", status: "error", error: rejected("use printf instead") },
        { tool: "bash", status: "error", error: rejected() },
      ]);
      expect(agentRequests(step)).toHaveLength(1); // the feedback never reaches the LLM
    },
    E2E_TIMEOUT,
  );

  it(
    "f: write (new file) and edit (existing file) ask for `edit` with filepath and a unified diff",
    async () => {
      const ev = await watch();
      const created = join(oc.directory, "new-file.html");
      const existing = join(oc.directory, "existing.txt");
      writeFileSync(existing, "line one\nold text\n");
      const sessionID = await start({
        tool: "write",
        args: { filePath: created, content: '<b>bold & "quoted"</b>\n' },
        then: [
          { tool: "read", args: { filePath: existing } }, // edit refuses a file the session has not read
          { tool: "edit", args: { filePath: existing, oldString: "old text", newString: '<b>&"new"</b>' } },
          { text: "F done" },
        ],
      });
      const header = (p: string) => `Index: ${p}\n===================================================================\n--- ${p}\n+++ ${p}\n`;
      const [write] = await ev.asked(sessionID);
      expect(write).toEqual({
        id: expect.stringMatching(/^per_/),
        sessionID,
        permission: "edit",
        patterns: [relative("/", created)], // relative to the worktree, which is "/" outside git
        metadata: { filepath: created, diff: `${header(created)}@@ -0,0 +1,1 @@\n+<b>bold & "quoted"</b>\n` },
        always: ["*"],
        tool: { messageID: expect.stringMatching(/^msg_/), callID: expect.stringMatching(/^call_/) },
      });
      await reply(write.id, { reply: "once" });
      expect((await resultOf(write.tool.callID)).content).toBe("Wrote file successfully.");
      const [, edit] = await ev.asked(sessionID, 2);
      expect(edit).toMatchObject({
        permission: "edit",
        patterns: [relative("/", existing)],
        metadata: { filepath: existing, diff: `${header(existing)}@@ -1,2 +1,2 @@\n line one\n-old text\n+<b>&"new"</b>\n` },
        always: ["*"],
      });
      expect(Object.keys(edit.metadata).sort()).toEqual(["diff", "filepath"]);
      await reply(edit.id, { reply: "once" });
      expect((await resultOf(edit.tool.callID)).content).toBe("Edit applied successfully.");
      await ev.idle(sessionID);
    },
    E2E_TIMEOUT,
  );

  it(
    "g: a `task` sub-agent runs in a child session (parentID set) whose permission.asked carries the child's sessionID",
    async () => {
      const ev = await watch();
      const child = { ...bash("id -u"), then: [{ text: "child done" }] };
      const task = { tool: "task", args: { description: "child bash", prompt: directive(child), subagent_type: "general" }, then: [{ text: "G done" }] };
      const parent = await start(task);
      const created = await pollUntil(() => ev.of("session.created").find((e) => e.properties.info?.parentID === parent), {
        what: "the child session.created",
        ...WAIT,
      });
      const childID: string = created.properties.info.id;
      expect(created.properties.info).toMatchObject({ parentID: parent, title: "child bash (@general subagent)", directory: oc.directory });
      if (old)
        expect(created.properties.sessionID).toBeUndefined(); // 1.1.53: only info.id
      else expect(created.properties.sessionID).toBe(childID);
      expect(ev.of("session.created").find((e) => e.properties.info?.id === parent)?.properties.info.parentID).toBeUndefined();

      const [asked] = await ev.asked(childID);
      expect(asked).toMatchObject({ sessionID: childID, permission: "bash", patterns: ["id -u"], always: ["id *"] });
      expect(ev.of("permission.asked", parent)).toEqual([]);
      expect(await pending()).toEqual([asked]);
      await reply(asked.id, { reply: "once" });
      expect((await resultOf(asked.tool.callID)).content).toBe(`${process.getuid!()}\n`);
      await ev.idle(parent);
      const idles = ev.events.filter((e) => e.type === "session.idle").map((e) => e.properties.sessionID);
      expect(idles.indexOf(childID)).toBeLessThan(idles.indexOf(parent));

      // The parent gets the child's last text back; the sub-agent is offered neither question
      // nor task nor todowrite (the parent has all three).
      const taskResult = await llm.waitForToolResult((r) => r.content.includes("<task_result>") && r.content.includes(childID), WAIT);
      expect(taskResult.content).toBe(
        old
          ? `task_id: ${childID} (for resuming to continue this task if needed)\n\n<task_result>\nchild done\n</task_result>`
          : `<task id="${childID}" state="completed">\n<task_result>\nchild done\n</task_result>\n</task>`,
      );
      expect(toolNames(agentRequests(child)[0])).toEqual(["bash", "edit", "glob", "grep", "read", "skill", "webfetch", "write"]);
      expect(toolNames(agentRequests(task)[0])).toEqual([
        "bash",
        "edit",
        "glob",
        "grep",
        "question",
        "read",
        "skill",
        "task",
        "todowrite",
        "webfetch",
        "write",
      ]);
      const children = await oc.request<any[]>("GET", `/session/${parent}/children`);
      expect(children.body.map((s) => [s.id, s.parentID])).toEqual([[childID, parent]]);
    },
    E2E_TIMEOUT,
  );

  it(
    "g: by default a sub-agent's question call fails as an unavailable tool; `agent.general.permission.question: allow` enables it",
    async () => {
      const question = {
        questions: [
          {
            question: "Child asks?",
            header: "Child",
            options: [
              { label: "Yes", description: "y" },
              { label: "No", description: "n" },
            ],
          },
        ],
      };
      const childStep = { tool: "question", args: question, then: [{ text: "child q done" }] };
      const taskStep = {
        tool: "task",
        args: { description: "child question", prompt: directive(childStep), subagent_type: "general" },
        then: [{ text: "GQ done" }],
      };

      const ev = await watch();
      const parent = await start(taskStep);
      await ev.idle(parent);
      expect(ev.of("question.asked")).toEqual([]);
      const invalid = llm.toolResults.find((r) => r.content.includes("unavailable tool 'question'"));
      expect(invalid?.content).toMatch(/^The arguments provided to the tool are invalid: Model tried to call unavailable tool 'question'\. Available tools: /);

      // A second project (own instance, same process) whose config lets the general agent ask.
      const allowed = await oc.addProject("question-allowed");
      const projectConfig = JSON.parse(readFileSync(join(allowed, "opencode.json"), "utf8"));
      writeFileSync(join(allowed, "opencode.json"), JSON.stringify({ ...projectConfig, agent: { general: { permission: { question: "allow" } } } }, null, 2));
      const ev2 = await watch(allowed);
      const session = await oc.createSession({ directory: allowed });
      await oc.prompt(session.id, directive(taskStep), { directory: allowed });
      const asked = await pollUntil(() => ev2.of("question.asked")[0], { what: "the child's question.asked", ...WAIT });
      const childID = ev2.of("session.created").find((e) => e.properties.info?.parentID === session.id)?.properties.info.id;
      expect(asked.properties).toMatchObject({ sessionID: childID, questions: question.questions });
      expect((await oc.request("POST", `/question/${asked.properties.id}/reply`, { body: { answers: [["Yes"]] }, directory: allowed })).status).toBe(200);
      await ev2.idle(session.id);
      expect(llm.toolResults.some((r) => r.content.includes('"Child asks?"="Yes"'))).toBe(true);
    },
    E2E_TIMEOUT,
  );
});
