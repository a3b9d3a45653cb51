import { describe, expect, it } from "vitest";
import type { InstanceLink } from "../../lib/bridge/core/desk.ts";
import { InstanceLinks } from "../../lib/bridge/core/instance-links.ts";
import type { OpencodeEndpoint } from "../../lib/opencode/endpoint.ts";
import { createPermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import { colorQuestion } from "../support/fixtures.ts";

function link(directory: string, lists: { questions?: string[]; permissions?: string[]; failing?: boolean } = {}): InstanceLink {
  const list = (ids: string[] = []) => (lists.failing ? Promise.reject(new Error("down")) : Promise.resolve(ids.map((id) => ({ id }))));
  const opencode = { listQuestions: () => list(lists.questions), listPermissions: () => list(lists.permissions) } as unknown as OpencodeEndpoint;
  return { directory, opencode };
}

const question = (id: string, directory = "/a") => createQuestionPrompt({ id, sessionID: "ses_1", questions: [colorQuestion()] }, directory, `k${id}`, 0);
const permission = (id: string) =>
  createPermissionPrompt({ id, sessionID: "ses_1", permission: "bash", patterns: [], always: [], metadata: {} }, "/a", `k${id}`, 0);

describe("InstanceLinks", () => {
  it("answers through the newest link of a directory, and the older one again once the newest goes", async () => {
    const links = new InstanceLinks();
    const first = link("/a", { questions: ["first"] });
    const second = link("/a", { questions: ["second"] });
    links.add(first);
    links.add(second);
    links.add(link("/b"));
    const listed = async () => (await links.linkFor("/a")!.opencode.listQuestions()).map((request) => request.id);
    expect(await listed()).toEqual(["second"]);
    links.delete(second);
    expect(await listed()).toEqual(["first"]);
    links.delete(first);
    expect(links.linkFor("/a")).toBeUndefined();
    expect(links.directories()).toEqual(["/b"]);
  });

  it("adds the phone's choice of model and agent to every prompt, as it is when the prompt is sent", async () => {
    let choice = {};
    const links = new InstanceLinks(() => choice);
    const sent: unknown[] = [];
    const prompt = async (...args: unknown[]) => {
      sent.push(args);
      return { ok: true };
    };
    const opencode = { prompt } as unknown as OpencodeEndpoint;
    links.add({ directory: "/a", opencode });
    await links.linkFor("/a")!.opencode.prompt("ses_1", [{ type: "text", text: "hi" }]);
    choice = { model: { providerID: "p", modelID: "m" }, agent: "plan" };
    await links.linkFor("/a")!.opencode.prompt("ses_1", [{ type: "text", text: "again" }]);
    expect(sent).toEqual([
      ["ses_1", [{ type: "text", text: "hi" }], {}],
      ["ses_1", [{ type: "text", text: "again" }], { model: { providerID: "p", modelID: "m" }, agent: "plan" }],
    ]);
  });

  // The digest's "started from the phone" (issue 51): a prompt, a command, a compaction and a shell command sent through the links are told; a reply is not.
  it("tells its watcher which session the phone starts a run in, before the call", async () => {
    const links = new InstanceLinks();
    const told: string[] = [];
    const ok = async () => ({ ok: true });
    const vocabulary = { runCommand: async () => (told.includes("ses_c") ? { ok: true } : { ok: false }), compact: ok, listCommands: async () => [] };
    const opencode = { prompt: ok, replyQuestion: ok, vocabulary, desk: { shell: ok, listMcp: async () => [] } } as unknown as OpencodeEndpoint;
    links.add({ directory: "/a", opencode });
    links.watchPrompts({ promptedFromPhone: (sessionID) => void told.push(sessionID) });
    const steered = links.linkFor("/a")!.opencode;
    await steered.prompt("ses_p", [{ type: "text", text: "hi" }]);
    expect(await steered.vocabulary!.runCommand!("ses_c", "test", "")).toEqual({ ok: true });
    await steered.vocabulary!.compact!("ses_k");
    await steered.desk!.shell!("ses_s", "ls");
    await steered.replyQuestion("que_1", [["Red"]]);
    await steered.vocabulary!.listCommands!();
    await steered.desk!.listMcp!();
    expect(told).toEqual(["ses_p", "ses_c", "ses_k", "ses_s"]);
  });

  it("tells whether OpenCode still lists a request, on the list of its kind", async () => {
    const links = new InstanceLinks();
    links.add(link("/a", { questions: ["que_1"], permissions: ["per_1"] }));
    expect(await links.stillPending(question("que_1"))).toBe(true);
    expect(await links.stillPending(question("per_1"))).toBe(false);
    expect(await links.stillPending(permission("per_1"))).toBe(true);
    expect(await links.stillPending(question("que_1", "/elsewhere"))).toBe(false); // no instance: not pending there
  });

  it("counts a list it can't get as not pending", async () => {
    const links = new InstanceLinks();
    links.add(link("/a", { failing: true }));
    expect(await links.stillPending(question("que_1"))).toBe(false);
  });
});
