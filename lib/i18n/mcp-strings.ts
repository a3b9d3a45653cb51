// The shape of the strings of MCP servers from the phone (/mcp, its toggles, docs/phone.md): part
// of the catalogue (strings.ts' `mcp`), filled in by mcp-en.ts and mcp-zh.ts. Parameters typed Html
// come escaped; plain strings are button labels and callback answers.
import type { Html } from "../text/html.ts";

export interface McpStrings {
  /** The menu's line for /mcp (plain), and /help's line. */
  menu: string;
  help: Html;
  pick: Html;
  /** The list: its head line, one line per server by its state, nothing configured. */
  head: (project: Html) => Html;
  connected: (name: Html) => Html;
  failed: (name: Html, error: Html) => Html;
  disabled: (name: Html) => Html;
  needsAuth: (name: Html) => Html;
  other: (name: Html, status: Html) => Html;
  none: Html;
  /** What a toggle did, under the list (the list itself is read again after it). */
  toggled: (name: Html, connected: boolean) => Html;
  toggleFailed: (name: Html, why: Html) => Html;
  unreadable: (why: Html) => Html;
  noRoute: Html;
  /** Buttons (plain; the server's name cut to fit). */
  connectButton: (name: string) => string;
  disconnectButton: (name: string) => string;
  /** Callback answers (plain). */
  connecting: string;
  disconnecting: string;
  stale: string;
}
