// The strings of the queue from the phone in Simplified Chinese.
import { html } from "../text/html.ts";
import type { QueueStrings } from "./queue-strings.ts";

export const queueZh: QueueStrings = {
  menu: "等待忙碌会话的消息：移除或立即发送",
  help: html`• /queue 列出等待忙碌会话的消息（回复某个会话的消息或在其话题中：只列该会话的），可 ✖ 移除（不再发送）或 ⏩ 立即发送（停止当前运行并接着发送它）。`,
  queued: (place) => html`⏳ 智能体正忙：你的消息在队列中排第 <b>${place}</b> 位，当前运行结束后发送。✖ 移除可收回；⏩ 立即发送会停止运行并发送它。`,
  head: (count) => html`⏳ <b>${count} 条等待中</b>（最早的在前）`,
  line: (n, words, who, ago, where) => html`${n}. «${words}» · ${who}，${ago}前 · ${where}`,
  empty: html`没有等待中的消息：忙碌的会话没有排队的消息。`,
  someone: "某人",
  confirm: (words) => html`⏩ <b>停止当前运行并立即发送这条？</b>\n«${words}»`,
  removed: (words) => html`✖ 已移除，不会发送：«${words}»`,
  sent: (words) => html`▶ 已发送给智能体：«${words}»`,
  sendingNow: (words) => html`⏩ 正在停止运行；接着发送：«${words}»`,
  stopFailed: (why) => html`⚠️ 无法停止运行：${why}\n消息仍在等待。`,
  removeButton: (n) => (n === undefined ? "✖ 移除" : `✖ 移除 ${n}`),
  sendNowButton: (n) => (n === undefined ? "⏩ 立即发送" : `⏩ 立即发送 ${n}`),
  confirmButton: "⏩ 停止运行并发送",
  backButton: "↩ 返回",
  removing: "已移除：不会发送",
  tapConfirm: "确认以停止运行",
  stopping: "正在停止运行…",
  stale: "这条消息已不在等待。",
};
