// The strings of rich messages in Chinese.
import { html } from "../text/html.ts";
import type { RichStrings } from "./rich-strings.ts";

export const richZh: RichStrings = {
  answerCut: (shown, total, file) =>
    html`<i>✂️ 一条消息只放得下回答的结尾（共 ${total} 个字符，显示 ${shown} 个）：完整回答见下方文件 <code>${file}</code>。</i>`,
  diffSummary: (file, added, removed) => html`📄 <code>${file}</code> 的完整差异（+${added} −${removed}）：点开查看`,
  fileSummary: (file, kind, added, removed) => html`📄 <code>${file}</code>${kind} +${added} −${removed}`,
  diffLeftOut: (count, file) => html`✂️ 有 ${count} 个文件的改动放不进这条消息：完整差异见下方文件 <code>${file}</code>。`,
  scheduleColumns: ["#", "时间", "项目", "下次运行", "指令"],
  historyColumns: ["#", "提示", "改动的文件"],
};
