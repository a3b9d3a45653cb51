// What /mcp looks like (issue 53, docs/phone.md): a project's MCP servers with their state as
// OpenCode reports it (connected, failed with its error, disabled, needs authentication), one
// toggle each, and a line on what the last toggle did. Pure. Names and errors are OpenCode's
// (from the project's config and the servers themselves): untrusted, revealed, escaped and cut.
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback } from "../codec.ts";
import { EMPTY_HTML, escapeWithin, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";

/** A server as the list shows it (lib/opencode's `McpServerState`). */
export interface McpServerView {
  name: string;
  status: string;
  error?: string;
}

/** Servers listed with a toggle each; more are counted in the list but get no button (a page of buttons is enough). */
export const MCP_TOGGLES = 20;
const NAME_LIMIT = 80;
const BUTTON_NAME_LIMIT = 40;
const ERROR_LIMIT = 300;

/** Whether a toggle connects (everything but a connected server) or disconnects. */
export function togglesOn(server: McpServerView): boolean {
  return server.status !== "connected";
}

export function renderMcpList(project: string, servers: readonly McpServerView[], key: string, t: Strings, note?: Html): RenderedMessage {
  const m = t.mcp;
  const lines = [m.head(escapeWithin(reveal(project, t), NAME_LIMIT))];
  if (servers.length === 0) lines.push(m.none);
  for (const server of servers) lines.push(serverLine(server, t));
  if (note) lines.push(EMPTY_HTML, note);
  const keyboard = servers.slice(0, MCP_TOGGLES).map((server, index) => [toggleButton(server, key, index, t)]);
  return { text: joinHtml(lines, "\n"), keyboard };
}

function serverLine(server: McpServerView, t: Strings): Html {
  const m = t.mcp;
  const name = escapeWithin(reveal(server.name, t), NAME_LIMIT);
  switch (server.status) {
    case "connected":
      return m.connected(name);
    case "failed":
      return m.failed(name, escapeWithin(reveal(server.error ?? "", t), ERROR_LIMIT));
    case "disabled":
      return m.disabled(name);
    case "needs_auth":
      return m.needsAuth(name);
    default:
      return m.other(name, escapeWithin(reveal(server.error ? `${server.status}: ${server.error}` : server.status, t), ERROR_LIMIT));
  }
}

function toggleButton(server: McpServerView, key: string, index: number, t: Strings): InlineButton {
  const name = Array.from(reveal(server.name, t)).slice(0, BUTTON_NAME_LIMIT).join("");
  const text = togglesOn(server) ? t.mcp.connectButton(name) : t.mcp.disconnectButton(name);
  return { text, callback_data: encodeCallback({ key, action: "mcpToggle", question: index, option: 0 }) };
}
