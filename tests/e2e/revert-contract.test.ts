// OpenCode's own revert, measured on the real binaries with no Hermes loaded: what Undo builds on
// (docs/undo.md). A run edits existing.txt and writes created.txt; revert (1.x `POST
// /session/:id/revert`, 2.0.15 `POST /api/session/:id/revert/stage`) and unrevert (1.x `POST
// …/unrevert`, 2.0.15 `DELETE …/revert`) in a git project and in a plain folder, while busy, and
// after the next prompt. When an OpenCode upgrade changes one of these facts, this file names it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { isOpencode2, OPENCODE2_VERSION, OPENCODE_VERSIONS, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";

const ORIGINAL = "one\ntwo\nthree\n";
const EDITED = "one\nTWO\nmore\nthree\n";

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("OpenCode %s revert contract", { timeout: 180_000 }, (version) => {
  const v2 = isOpencode2(version);
  const key = v2 ? "path" : "filePath";
  let llm: MockLlm;
  let oc: OpencodeServer;
  beforeAll(async () => {
    llm = await startMockLlm();
    oc = await startOpencode({
      version,
      llmBaseURL: llm.baseURL,
      plugins: [],
      permission: { edit: "allow", bash: "allow" },
      warmup: false,
      ...(v2 ? { password: "x" } : {}),
    });
  }, 120_000);
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
  });

  const where = (dir: string) => `location%5Bdirectory%5D=${encodeURIComponent(dir)}`;
  const files = (dir: string) =>
    ["existing.txt", "created.txt"].map((name) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), "utf8") : null));
  function project(name: string, git: boolean): string {
    const dir = path.join(path.dirname(oc.directory), name);
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(oc.directory, "opencode.json"), path.join(dir, "opencode.json"));
    fs.writeFileSync(path.join(dir, "existing.txt"), ORIGINAL);
    if (git)
      for (const args of [
        ["init", "-q"],
        ["add", "."],
        ["commit", "-qm", "start"],
      ])
        execFileSync("git", ["-c", "user.email=t@e.com", "-c", "user.name=T", ...args], { cwd: dir, stdio: "ignore" });
    return dir;
  }
  /** A session whose run edits existing.txt and writes created.txt (then sleeps `sleepS`); resolves with it and its first user message. */
  async function run(dir: string, sleepS = 0): Promise<{ id: string; user: string }> {
    const session = await oc.createSession({ directory: dir });
    const steps = [
      { tool: "edit", args: { [key]: path.join(dir, "existing.txt"), oldString: "two", newString: "TWO\nmore" } },
      { tool: "write", args: { [key]: path.join(dir, "created.txt"), content: "new file\n" } },
      ...(sleepS
        ? [v2 ? { tool: "shell", args: { command: `sleep ${sleepS}` } } : { tool: "bash", args: { command: `sleep ${sleepS}`, description: "wait" } }]
        : []),
      { text: "edited" },
    ];
    await oc.prompt(session.id, directive({ tool: "read", args: { [key]: path.join(dir, "existing.txt") }, then: steps }), { directory: dir });
    await pollUntil(() => files(dir)[1] !== null || undefined, { timeoutMs: 60_000, what: "the run's write" });
    const messages = v2
      ? (await oc.request("GET", `/api/session/${session.id}/message?${where(dir)}`)).body.data
      : (await oc.request("GET", `/session/${session.id}/message`, { directory: dir })).body;
    const user = (messages as any[]).map((m) => (v2 ? m : m.info)).find((m) => m.type === "user" || m.role === "user").id as string;
    return { id: session.id, user };
  }
  const idle = async (id: string, dir: string) => {
    await sleep(300);
    await pollUntil(async () => !(await oc.isBusy(id, { directory: dir })), { timeoutMs: 60_000, intervalMs: 100, what: "idle" });
  };
  const revert = (id: string, dir: string, messageID: string) =>
    v2
      ? oc.request("POST", `/api/session/${id}/revert/stage?${where(dir)}`, { body: { messageID, files: true } })
      : oc.request("POST", `/session/${id}/revert`, { body: { messageID }, directory: dir });
  const unrevert = (id: string, dir: string) =>
    v2 ? oc.request("DELETE", `/api/session/${id}/revert?${where(dir)}`) : oc.request("POST", `/session/${id}/unrevert`, { body: {}, directory: dir });
  const snapshotOf = (body: any) => (v2 ? body?.data?.snapshot : body?.revert?.snapshot);

  it("in a git project: revert restores the edit (and removes the created file but on 1.1.53), unrevert puts the run back, the next prompt makes it final", async () => {
    const dir = project("git-project", true);
    const { id, user } = await run(dir);
    await idle(id, dir);
    expect(files(dir)).toEqual([EDITED, "new file\n"]);
    const reverted = await revert(id, dir, user);
    expect(reverted.status).toBe(200);
    expect(snapshotOf(reverted.body)).toEqual(expect.any(String));
    if (version === "1.1.53") {
      // 1.1.53's snapshots race its tools (docs/undo.md): the created file stayed in every revert
      // measured, and once in five the edit was not reverted either.
      expect(files(dir)[1]).toBe("new file\n");
      expect([ORIGINAL, EDITED]).toContain(files(dir)[0]);
    } else expect(files(dir)).toEqual([ORIGINAL, null]);
    expect((await unrevert(id, dir)).status).toBe(v2 ? 204 : 200);
    expect(files(dir)).toEqual([EDITED, "new file\n"]);

    await revert(id, dir, user);
    const reverted2 = files(dir);
    await oc.prompt(id, directive({ text: "the next prompt" }), { directory: dir });
    await idle(id, dir);
    expect((await unrevert(id, dir)).status).toBe(v2 ? 204 : 200);
    expect(files(dir)).toEqual(reverted2); // answered, but nothing comes back
  });

  it("while the session works: refused, files untouched", async () => {
    const dir = project("busy-project", true);
    const { id, user } = await run(dir, 5);
    const before = files(dir);
    const refused = await revert(id, dir, user);
    expect(refused.status).toBe(version === "1.1.53" ? 500 : 409);
    expect(JSON.stringify(refused.body)).toMatch(/busy/i);
    expect(files(dir)).toEqual(before);
    await idle(id, dir);
  });

  it("without git: answered 200 without a snapshot, files untouched", async () => {
    const dir = project("plain-folder", false);
    const { id, user } = await run(dir);
    await idle(id, dir);
    const reverted = await revert(id, dir, user);
    expect(reverted.status).toBe(200);
    expect(snapshotOf(reverted.body)).toBeUndefined();
    expect(files(dir)).toEqual([EDITED, "new file\n"]);
    await unrevert(id, dir);
  });
});
