// The strings of MCP servers from the phone in Simplified Chinese.
import { html } from "../text/html.ts";
import type { McpStrings } from "./mcp-strings.ts";

export const mcpZh: McpStrings = {
  menu: "项目的 MCP 服务器：状态，连接或断开",
  help: html`• /mcp（回复某个会话的消息，或选择项目）按 OpenCode 的报告列出项目的 MCP 服务器；按钮可连接或断开其中一个（opencode.json 保持不变）。`,
  pick: html`🔌 <b>查看哪个项目的 MCP 服务器？</b>`,
  head: (project) => html`🔌 <b>${project} 的 MCP 服务器</b>`,
  connected: (name) => html`🟢 <b>${name}</b>：已连接`,
  failed: (name, error) => html`🔴 <b>${name}</b>：失败：${error}`,
  disabled: (name) => html`⚪ <b>${name}</b>：已停用`,
  needsAuth: (name) => html`🔑 <b>${name}</b>：需要认证（在电脑上运行 <code>opencode mcp auth</code>）`,
  other: (name, status) => html`🟡 <b>${name}</b>：${status}`,
  none: html`此项目没有配置 MCP 服务器。`,
  toggled: (name, connected) => (connected ? html`已连接 <b>${name}</b>。` : html`已断开 <b>${name}</b>。`),
  toggleFailed: (name, why) => html`⚠️ OpenCode 拒绝了对 <b>${name}</b> 的更改：${why}`,
  unreadable: (why) => html`⚠️ 无法读取 MCP 服务器：${why}`,
  noRoute: html`此版本的 OpenCode 没有 MCP 接口。`,
  connectButton: (name) => `▶ 连接 ${name}`,
  disconnectButton: (name) => `⏸ 断开 ${name}`,
  connecting: "正在连接…",
  disconnecting: "正在断开…",
  stale: "此列表已过期：请重新发送 /mcp。",
};
