import { describe, expect, it } from "vitest";
import type { InstanceLink } from "../../lib/bridge/desk.ts";
import { InstanceLinks } from "../../lib/bridge/instance-links.ts";
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
  it("answers through the newest link of a directory, and the older one again once the newest goes", () => {
    const links = new InstanceLinks();
    const first = link("/a");
    const second = link("/a");
    links.add(first);
    links.add(second);
    links.add(link("/b"));
    expect(links.linkFor("/a")).toBe(second);
    links.delete(second);
    expect(links.linkFor("/a")).toBe(first);
    links.delete(first);
    expect(links.linkFor("/a")).toBeUndefined();
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
