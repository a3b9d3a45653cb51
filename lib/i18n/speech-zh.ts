// 语音回答的简体中文字符串。
import { html } from "../text/html.ts";
import type { SpeechStrings } from "./speech-strings.ts";

export const speechZh: SpeechStrings = {
  command: "语音回答：/voice on、off 或 auto（auto：只回答语音消息）",
  mode: {
    on: html`🔊 语音回答：<b>开</b>。每条“完成”通知之后都会附上回答的语音消息。`,
    off: html`🔇 语音回答：<b>关</b>。`,
    auto: html`🔊 语音回答：<b>自动</b>。由语音消息开始或继续的运行，其回答也会以语音消息发送。`,
  },
  usage: html`请使用 <code>/voice on</code>、<code>/voice off</code> 或 <code>/voice auto</code>。`,
  notConfigured: html`⚠️ 语音回答需要一个语音合成服务。请在运行 OpenCode 的环境中设置 <code>HERMES_SPEECH_URL</code>（见 docs/speech.md）。`,
  caption: html`🔊 回答的语音`,
  failed: (detail) => html`⚠️ 无法朗读回答（${detail}）。回答见上方文字。`,
  keyRefused: html`⚠️ 无法朗读回答：语音合成服务拒绝了密钥（请检查 <code>HERMES_SPEECH_KEY</code>）。`,
  foreignListener: (address, uid) => html`⚠️ 未朗读回答：${address} 正被本机的另一个用户（uid ${uid}）监听，因此没有向那里发送任何内容。`,
  spoken: {
    codeBlock: (lines) => `（一段 ${lines} 行的代码）`,
    table: (rows) => `（一个 ${rows} 行的表格）`,
    link: "（一个链接）",
    restInText: "其余内容见文字。",
  },
};
