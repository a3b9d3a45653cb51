// The strings of MCP servers from the phone in English.
import { html } from "../text/html.ts";
import type { McpStrings } from "./mcp-strings.ts";

export const mcpEn: McpStrings = {
  menu: "A project's MCP servers: their state, connect or disconnect one",
  help: html`• /mcp (in reply to a session's message, or with a project picked) lists the project's MCP servers as OpenCode reports them; a button connects or disconnects one (opencode.json stays as it is).`,
  pick: html`🔌 <b>Which project's MCP servers?</b>`,
  head: (project) => html`🔌 <b>MCP servers of ${project}</b>`,
  connected: (name) => html`🟢 <b>${name}</b>: connected`,
  failed: (name, error) => html`🔴 <b>${name}</b>: failed: ${error}`,
  disabled: (name) => html`⚪ <b>${name}</b>: disabled`,
  needsAuth: (name) => html`🔑 <b>${name}</b>: needs authentication (at the desk: <code>opencode mcp auth</code>)`,
  other: (name, status) => html`🟡 <b>${name}</b>: ${status}`,
  none: html`No MCP server is configured for this project.`,
  toggled: (name, connected) => (connected ? html`Connected <b>${name}</b>.` : html`Disconnected <b>${name}</b>.`),
  toggleFailed: (name, why) => html`⚠️ OpenCode refused the change of <b>${name}</b>: ${why}`,
  unreadable: (why) => html`⚠️ Could not read the MCP servers: ${why}`,
  noRoute: html`This OpenCode has no MCP routes.`,
  connectButton: (name) => `▶ Connect ${name}`,
  disconnectButton: (name) => `⏸ Disconnect ${name}`,
  connecting: "Connecting…",
  disconnecting: "Disconnecting…",
  stale: "This list is out of date: send /mcp again.",
};
