// MCP servers from the phone on the gate (issue 53, docs/phone.md): `/mcp` as a reply to a
// session's message or in its topic, `/mcp` on its own (gathered like /diff), the picker's and the
// toggles' taps. Added before the bridge's own routes: typed text would otherwise become the
// session's next prompt, Commands answers any command it does not know with /help, and UserInput
// calls any tap it does not know stale.
import type { Gate } from "../core/gate.ts";
import { SessionPosts, type SessionPostDeps } from "../core/session-posts.ts";
import { type McpDeps, McpLists } from "./mcp-lists.ts";

export function routeMcp(gate: Gate, deps: Omit<McpDeps, "posts"> & SessionPostDeps): void {
  const lists = new McpLists({ ...deps, posts: new SessionPosts(deps, "an MCP list") });
  gate.route("callback", { claim: (tap) => lists.claimTap(tap) });
  gate.route("text", { claim: (text) => lists.claimText(text) });
  gate.route("command", {
    claim: (command) => lists.claimCommand(command),
    unclaimed: (command, after) => lists.unclaimed(command, after.parts),
    gathers: (command) => lists.gathers(command),
    partFor: (command) => lists.partFor(command),
  });
}
