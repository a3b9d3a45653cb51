// The strings of the shell from the phone in Simplified Chinese.
import { html } from "../text/html.ts";
import type { ShellStrings } from "./shell-strings.ts";

export const shellZh: ShellStrings = {
  help: html`• <code>!</code><i>命令</i> 回复某个会话的消息（或在其话题中发送），通过 OpenCode 的 shell 在该会话的目录中运行，与在电脑上一样；带风险标记的命令会先询问（<code>HERMES_SHELL=off</code> 可关闭）。`,
  off: html`手机上的 shell 已关闭（<code>HERMES_SHELL=off</code>）。`,
  busy: html`会话正在工作：请在完成后再发送命令。`,
  noRoute: html`此版本的 OpenCode 没有 shell 接口。`,
  gone: html`OpenCode 中已没有这个会话。`,
  ask: (command) => html`⚠️ <b>运行这条命令？</b>\n<pre>${command}</pre>`,
  cancelled: (command) => html`✖ 未运行：<code>${command}</code>`,
  running: (command) => html`⏳ 正在运行 <code>${command}</code>…`,
  stillRunning: (command) => html`⏳ 一分钟后仍在运行：<code>${command}</code>`,
  exit: (command, status) => html`💻 <code>${command}</code>\n退出状态 <b>${status}</b>`,
  exitUnknown: (command) => html`💻 <code>${command}</code>\n退出状态未知（OpenCode 未记录）`,
  noOutput: html`（无输出）`,
  tailNote: (shown, total) => html`共 ${total} 行，显示最后 ${shown} 行；完整输出见 output.txt。`,
  outputCaption: html`完整输出`,
  failed: (command, why) => html`⚠️ <code>${command}</code> 无法运行：${why}`,
  runButton: "▶ 运行",
  cancelButton: "✖ 取消",
  stopButton: "⏹ 停止",
  stopping: "正在停止…",
  starting: "正在运行…",
  cancelling: "已取消",
  stale: "这条命令已不在等待中。",
};
