// The strings of OpenCode's own vocabulary on the phone in Simplified Chinese.
import type { VocabularyStrings } from "./vocabulary-strings.ts";
import { EMPTY_HTML, html } from "../text/html.ts";

export const vocabularyZh: VocabularyStrings = {
  menu: {
    commands: "项目的 OpenCode 命令（回复会话的消息）",
    compact: "压缩会话的上下文（回复会话的消息）",
    fork: "把会话分叉为新会话（回复会话的消息）",
    history: "会话最近的提示：回到此处或分叉（回复会话的消息）",
  },
  howTo: html`请用它回复会话的消息（完成通知、你的提示），或在该会话的话题中发送。`,
  lacks: (what) => html`⚪ 此 OpenCode 没有${what}的接口：未做任何操作。`,
  names: { commands: "列出命令", command: "运行命令", compact: "压缩", fork: "分叉", history: "历史", back: "回退" },
  notRunning: html`此会话的 OpenCode 未在运行：未做任何操作。`,
  failed: (error) => html`⚠️ OpenCode 拒绝了：${error}`,
  commands: {
    title: (project, count) => html`📜 <b>${project} 的命令</b>（${count}）\n点按即可在此会话中运行，或回复 <code>/名称 参数</code>。`,
    item: (name, description, source) =>
      html`<code>/${name}</code>${description ? html`：${description}` : EMPTY_HTML}${source ? html`（<i>${source}</i>）` : EMPTY_HTML}`,
    none: (project) => html`📜 OpenCode 在 ${project} 中没有命令。`,
    shadowed: (names) => html`<i>${names}：与 Hermes 的命令同名；按钮运行的是 OpenCode 的命令。</i>`,
    page: (page, pages) => html`第 ${page}/${pages} 页`,
    ran: (name, title) => html`▶️ <b>/${name}</b> 已发送到 ${title}`,
    running: "正在发送命令…",
    preview: (name, title, body) => html`📜 <b>/${name}</b> · ${title}\n它会发送：\n${body}\n点按<b>运行</b>发送。`,
    noTemplate: html`<i>此 OpenCode 不提供该命令发送的内容。</i>`,
    unknownTemplate: html`⚠️ <b>Hermes 无法显示此命令会运行什么</b>：OpenCode 不提供，Hermes 也没有找到它可以读取的该命令定义。它可能会在本机运行 shell 命令。`,
    ambiguous: html`⚠️ 此命令有多个定义且内容不同：Hermes 无法确定 OpenCode 会运行哪一个。下面列出所有定义中的 shell 命令。`,
    args: (args) => html`参数：<code>${args}</code>`,
    shellLines: (count) => html`⚠️ OpenCode 会先在本机运行其中的 ${count} 行 shell 命令，不经询问：`,
    moreLines: (count, flagged) => html`还有 ${count} 行${flagged > 0 ? html`，⚠️ ${flagged} 行有风险标记` : EMPTY_HTML}`,
    run: (name) => `▶️ 运行 /${name}`,
    tapRun: "点按运行发送",
  },
  compact: {
    busy: html`⚠️ 会话正在工作：请等运行结束（或停止它）再压缩。未做任何更改。`,
    working: (title) => html`🗜 <b>正在压缩</b> · ${title}…`,
    done: (title, fill) => html`🗜 <b>已压缩</b> · ${title}\n${fill}`,
    doneNoFill: (title) => html`🗜 <b>已压缩</b> · ${title}`,
    fill: (before, after, window) => html`🧠 ${before}% → ${after}%（共 ${window}）`,
    fillTokens: (before, after) => html`🧠 ${before} → ${after} 个令牌`,
  },
  fork: {
    button: "⑂ 分叉",
    made: (title, original, link) =>
      html`⑂ <b>已分叉</b>：${title}\n来自 ${link ? html`<a href="${link}">${original}</a>` : original}。在此回复将继续分叉的会话；原会话不变。`,
    forking: "正在分叉…",
    titlePrefix: "⑂ ",
  },
  history: {
    title: (title, count) => html`🕘 <b>最近的提示</b> · ${title}（${count}，最新在前）`,
    item: (index, text, files) => html`${index}、${text}\n   文件：${files}`,
    noFiles: html`<i>没有更改文件</i>`,
    none: html`🕘 此会话还没有提示。`,
    pick: (index) => `${index}`,
    back: "⏪ 回到此处",
    forkHere: "⑂ 从此处分叉",
    confirmBack: "⏪ 确认回退",
    confirm: (title, text, later, files, notes) =>
      html`⏪ <b>回到此提示之前？</b> · ${title}\n${text}\n${later > 0 ? html`这也会撤销之后的 ${later} 次运行（OpenCode 会回退此后的每一次运行）。` : EMPTY_HTML}这些文件将恢复到它之前的样子：\n${files}\n${notes}点按<b>确认回退</b>。`,
    handMark: html`✋ 此后被手动更改过：你的修改将丢失`,
    handSinceConfirm: (file) => `此确认之后有文件被手动更改过：未做任何更改。请再次点按“回到此处”查看标记。${file}`,
    unknownMark: html`❔ 无法判断此后是否被手动更改过`,
    handCount: (files) => html`✋ <b>${files} 个文件此后被手动更改过</b>：回退会覆盖这些修改。\n`,
    unknownCount: (files) =>
      html`❔ 有 ${files} 个文件 Hermes 无法判断此后是否被手动更改过（此 OpenCode 没有记录运行留下的内容，或文件太大无法比较，或指向项目之外）。\n`,
    tooMany: (title, files, runs) =>
      html`⏪ <b>未提供</b> · ${title}\n回到这里会恢复 ${runs} 次运行中的 ${files} 个文件，一条消息列不下：请在 OpenCode 中回退。未做任何更改。`,
    tooManyTap: "文件太多，无法列出：请在 OpenCode 中回退。未做任何更改。",
    tapConfirm: "点按确认回退",
    going: "正在回退…",
    backDone: (title, restored) => html`⏪ <b>已回退：恢复了 ${restored} 个文件</b> · ${title}`,
    busy: "会话正在工作：请等运行结束（或停止它）。未做任何更改。",
    newer: "此列表之后会话又有了新的运行：请重新发送 /history。未做任何更改。",
    gone: "此列表已失效：请重新发送 /history。",
  },
};
