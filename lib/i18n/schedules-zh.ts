// The strings of scheduled runs in Simplified Chinese.
import type { ScheduleStrings } from "./schedules-strings.ts";
import { html } from "../text/html.ts";

export const scheduleZh: ScheduleStrings = {
  everyMinutes: (minutes) => (minutes === 1 ? "每分钟" : `每 ${minutes} 分钟`),
  everyHours: (hours) => (hours === 1 ? "每小时" : `每 ${hours} 小时`),
  daily: (time) => `每天 ${time}`,
  weekdays: (time) => `每个工作日 ${time}`,
  once: (time) => `仅一次，${time}`,
  days: ["周日", "周一", "周二", "周三", "周四", "周五", "周六"],
  created: (when, project, instruction, next) =>
    html`⏰ <b>已安排</b>：${when}，在 <b>${project}</b>：${instruction}\n下次运行：${next}。/schedules 列出全部。`,
  usage: html`用法：<code>/every 30m</code>、<code>/every 2h</code>、<code>/every day 09:00</code> 或 <code>/every weekdays 09:00</code> 后接指令，或 <code>/at 18:00</code> 后接指令（仅一次）。`,
  errors: {
    empty: "⏰ 要运行什么，什么时候运行？",
    badWhen: "⏰ 没看懂时间。",
    tooShort: "⏰ 最短间隔为 1 分钟。",
    tooLong: "⏰ 最长间隔为一周。",
    badTime: "⏰ 时间格式为 HH:MM，从 00:00 到 23:59。",
    noInstruction: "⏰ 要运行什么？请在时间后写上指令。",
  },
  pick: html`⏰ <b>在哪个项目中运行这个定时任务？</b>`,
  picked: (project) => html`⏰ 定时任务位于 <b>${project}</b>`,
  off: (why) => html`⚠️ 本机的定时任务已停用：${why}。`,
  saveFailed: (why) => html`⚠️ 无法保存定时任务（${why}）。`,
  full: html`定时任务文件已满：现有任务太长，放不下新的一条；请在 /schedules 中取消一条`,
  listTitle: (count, zone) => html`⏰ <b>定时任务</b>（${count}）· 时间为本机时间（${zone}）`,
  item: (index, when, project, next, instruction) => html`${index}. ${when} · <b>${project}</b> · 下次 ${next}\n<blockquote>${instruction}</blockquote>`,
  none: html`⏰ 没有定时任务。用 <code>/every 30m …</code>、<code>/every weekdays 09:00 …</code> 或 <code>/at 18:00 …</code> 创建。`,
  cancelButton: (index) => `✖ 取消 ${index}`,
  confirmButton: (index) => `✖ 确认取消 ${index}`,
  confirmHint: "再点一次即取消",
  cancelled: "已取消",
  gone: "该定时任务已不存在",
  running: (when, project, instruction) => html`⏰ <b>定时运行</b>（${when}）于 <b>${project}</b>：${instruction}`,
  title: (instruction) => `⏰ ${instruction}`,
  missed: (when, project, at, instruction) =>
    html`⏰ <b>已错过</b>：原定 ${at}（${when}）在 <b>${project}</b> 的运行没有执行，当时没有 OpenCode 打开该项目：${instruction}`,
  failed: (project, why) => html`⚠️ <b>${project}</b> 中的定时运行无法启动（${why}）。`,
};
