// What a prompt nobody answered in time (HERMES_QUESTION_TTL, HERMES_PERMISSION_TTL) sends
// OpenCode: a question is dismissed, a permission rejected; gone when its instance is.
import type { Outcome } from "../../opencode/endpoint.ts";
import type { Prompt } from "../../registry/registry.ts";
import type { InstanceLinks } from "../core/instance-links.ts";

export async function rejectExpired(links: Pick<InstanceLinks, "linkFor">, prompt: Prompt): Promise<Outcome> {
  const opencode = links.linkFor(prompt.directory)?.opencode;
  if (!opencode) return { ok: false, gone: true };
  const { requestID } = prompt;
  return prompt.kind === "question" ? opencode.rejectQuestion(requestID) : opencode.replyPermission(requestID, { reply: "reject" });
}
