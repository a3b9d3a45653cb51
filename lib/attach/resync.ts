// After a gap in the event stream (a reconnect), bring one directory's prompts up to date from
// OpenCode's pending lists: prompts raised during the gap are delivered, prompts resolved during
// the gap are closed ("No longer pending": how they ended is not known).
//
// Built on the Bridge's public API only. A `Bridge.resync(link, pending)` that settles through the
// bridge's own per-prompt queue would be tidier (see the attach-mode report); until then, prompts
// with a reply in flight (`busy`) are left to that reply, which settles them itself.
import type { Bridge, InstanceLink } from "../bridge/bridge.ts";
import type { PermissionRequest, QuestionRequest } from "../sse/events.ts";

export interface ResyncResult {
  /** Pending in OpenCode (new ones are delivered, known ones stay as they are). */
  pending: number;
  /** Hermes had them as pending, OpenCode no longer does. */
  closed: number;
}

export async function resyncDirectory(bridge: Bridge, link: InstanceLink): Promise<ResyncResult> {
  const directory = link.directory;
  // Only prompts known before asking can be judged by the answer: one raised after the lists were
  // read is pending though it is not on them.
  const before = bridge.registry.pendingIn(directory);
  const [questions, permissions]: [QuestionRequest[], PermissionRequest[]] = await Promise.all([link.opencode.listQuestions(), link.opencode.listPermissions()]);
  for (const request of questions) bridge.handleEvent(directory, { type: "question.asked", request });
  for (const request of permissions) bridge.handleEvent(directory, { type: "permission.asked", request });
  const live = new Set<string>([...questions.map((q) => q.id), ...permissions.map((p) => p.id)]);
  let closed = 0;
  for (const prompt of before) {
    if (live.has(prompt.requestID) || prompt.state !== "pending" || prompt.busy) continue;
    closed++;
    void bridge.settle(prompt, "gone").catch((error: unknown) => bridge.log.warn({ err: String(error), requestID: prompt.requestID }, "could not close a prompt after resync"));
  }
  if (closed > 0) bridge.log.info({ directory, closed }, "closed prompts resolved while the event stream was down");
  return { pending: live.size, closed };
}
