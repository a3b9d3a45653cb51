// Every user-facing string, in English and Simplified Chinese (HERMES_LANGUAGE picks one).
// Strings that go out as Telegram HTML may contain Hermes' own tags; parameters are escaped by the
// caller before they are passed in, unless a parameter's name says it is plain text.

export type Language = "en" | "zh";

/** A text decided now and worded later, in the chat's language. */
export type Text = (t: Strings) => string;

export interface Strings {
  button: { done: string; type: string; dismiss: string; confirm: string; once: string; always: string; reject: string; feedback: string; previous: string; next: string; stop: string; stopConfirm: string };
  /** Stopping a run from the phone; `title` parameters come escaped. */
  stop: {
    running: (title: string) => string;
    confirm: (title: string) => string;
    stopping: (title: string) => string;
    stopped: (title: string) => string;
    notRunning: (title: string) => string;
    failed: (title: string, error: string) => string;
    pick: string;
    nothingRunning: string;
    tapConfirm: string;
    halting: string;
    notBusy: string;
  };
  question: {
    asking: string;
    sending: string;
    answered: string;
    answeredElsewhere: string;
    dismissed: string;
    dismissedElsewhere: string;
    expired: string;
    gone: string;
    defaultHeader: string;
    chooseAny: string;
    cut: string;
    dismissWarning: string;
    page: (first: number, last: number, total: number) => string;
  };
  permission: {
    asking: string;
    sending: string;
    expired: string;
    gone: string;
    title: (name: string) => string;
    file: string;
    diffCut: string;
    patterns: string;
    alwaysAllows: string;
    more: (count: number) => string;
    feedback: string;
    cascadeRejected: string;
    cascadeApproved: string;
    allowedOnce: string;
    alwaysAllowed: string;
    rejected: string;
    rejectedWithFeedback: string;
    fromTelegram: string;
    inTerminal: string;
    diffCaption: (file: string) => string;
    omitted: (count: number) => string;
    shortened: (file: string) => string;
    notAttached: string;
  };
  /** The full-request file a shortened permission prompt comes with (plain text). */
  permissionFile: { caption: string; heading: (name: string) => string; marked: string; command: string; file: string; patterns: (count: number) => string; always: (count: number) => string; exact: string };
  /** Markers for what would otherwise be invisible (plain text). */
  reveal: { spaces: (count: number) => string; tabs: (count: number) => string; blanks: (spaces: number, tabs: number) => string; lineBreaks: (count: number) => string };
  context: { subagentOf: string };
  notice: {
    done: (duration: string) => string;
    failed: (name: string) => string;
    retrying: (attempt: string) => string;
    attempt: (n: number) => string;
    retryOnce: string;
    replyHint: string;
    seconds: (n: number) => string;
    minutes: (m: number, s: number) => string;
    hours: (h: number, m: number) => string;
  };
  note: {
    chosen: (label: string) => string;
    selected: (label: string) => string;
    unselected: (label: string) => string;
    done: string;
    choiceClosed: string;
    pickOne: string;
    alreadyAnswered: string;
    onlyOptions: string;
    emptyAnswer: string;
    answerReceived: string;
    replyWithAnswer: string;
    tapConfirm: string;
    tapDismissFirst: string;
    dismissing: string;
    wrongButton: string;
    /** A tap nobody claimed while a process sharing the bot did not answer: it may be that process' prompt. */
    notAnswering: string;
    /** Toast: the relay's socket directory is unsafe, so this process can't take part in polling. */
    relayUnavailable: (reason: string) => string;
    /** A toast (plain text): another program polls the bot. */
    pollConflict: string;
    allowedOnce: string;
    alwaysAllowed: string;
    rejected: string;
    replyWithFeedback: string;
    nothingToAllowAlways: string;
    page: (page: number, pages: number) => string;
    notPending: string;
    notAuthorized: string;
    sending: string;
    invalidAnswer: (detail: string) => string;
    expiredButFailed: (error: string) => string;
    unreachable: (error: string) => string;
    notApplied: string;
  };
  input: { answerTo: (header: string) => string; feedback: string; feedbackPlaceholder: string };
  talk: { queued: string; notSent: (why: string, text: string) => string; quoteCut: (file: string) => string; fileCaption: string; notRunning: string; sessionGone: string };
  /** What a run changed, in its Done notice. */
  changes: { title: (files: number, added: number, removed: number) => string; added: string; deleted: string; more: (count: number) => string; fileCaption: string };
  /** Photos and files sent from the phone. `textHeader` goes into the prompt (plain text). */
  files: { textHeader: (name: string) => string; tooBig: (size: string, limit: string) => string; typeRefused: (what: string) => string; noSession: string; downloadFailed: (why: string) => string; notSent: (why: string) => string };
  start: { hello: string; ids: (chatId: number, userId: number) => string; configured: string; setChat: (chatId: number) => string };
  status: {
    title: string;
    noSessions: string;
    sessions: (count: number) => string;
    busy: string;
    busyFor: (duration: string) => string;
    idle: string;
    untitled: string;
    andMore: (count: number) => string;
    nothingWaiting: string;
    waiting: (count: number) => string;
    pendingHint: string;
    sentAgain: string;
  };
  help: { lines: string[] };
  commands: { status: string; pending: string; stop: string; help: string; start: string };
  /** OpenCode 2 only. `reason` is escaped by the caller. */
  host: { formsUnreachable: (reason: string) => string };
}

const en: Strings = {
  button: { done: "Done", type: "Type an answer", dismiss: "Dismiss", confirm: "Confirm", once: "Allow once", always: "Always", reject: "Reject", feedback: "Reject with feedback", previous: "◀ Previous options", next: "More options ▶", stop: "⏹ Stop", stopConfirm: "⏹ Confirm stop" },
  stop: {
    running: (title) => `▶️ <b>Running</b> · ${title}\n<i>⏹ Stop ends the run, as Esc does in the terminal.</i>`,
    confirm: (title) => `⏹ <b>Stop this run?</b> · ${title}\nThe agent stops where it is. Tap <b>Confirm stop</b>.`,
    stopping: (title) => `⏳ <b>Stopping…</b> · ${title}`,
    stopped: (title) => `⏹ <b>Run stopped from Telegram</b> · ${title}`,
    notRunning: (title) => `⚪ <b>Not running</b> · ${title}: nothing to stop.`,
    failed: (title, error) => `⚠️ <b>Could not stop the run</b> · ${title}\n${error}`,
    pick: "⏹ <b>Which run should stop?</b>",
    nothingRunning: "Nothing is running.",
    tapConfirm: "Tap Confirm stop to stop the run",
    halting: "Stopping the run…",
    notBusy: "That session is not running",
  },
  question: {
    asking: "❓ <b>OpenCode is asking</b>",
    sending: "⏳ <b>Sending your answer…</b>",
    answered: "✅ <b>Answered from Telegram</b>",
    answeredElsewhere: "✅ <b>Answered in the terminal</b>",
    dismissed: "🚫 <b>Dismissed from Telegram</b>",
    dismissedElsewhere: "🚫 <b>Dismissed in the terminal</b>",
    expired: "⌛ <b>Expired</b>: nobody answered in time, so the question was dismissed",
    gone: "⚪ <b>No longer pending</b>: OpenCode closed this question",
    defaultHeader: "Question",
    chooseAny: " <i>(choose any, then Done)</i>",
    cut: " <i>(cut: the full question is in the terminal)</i>",
    dismissWarning: "⚠️ Dismissing stops the agent's run. Tap <b>Confirm</b> to dismiss, or pick an answer.",
    page: (first, last, total) => `<i>Options ${first}–${last} of ${total}: ◀ ▶ below show the others.</i>`,
  },
  permission: {
    asking: "❓ <b>OpenCode asks for permission</b>",
    sending: "⏳ <b>Sending your decision…</b>",
    expired: "⌛ <b>Expired</b>: rejected because nobody answered in time",
    gone: "⚪ <b>No longer pending</b>: OpenCode closed this request",
    title: (name) => `🔐 <b>Permission: ${name}</b>`,
    file: "File",
    diffCut: "<i>The diff is longer than this preview: the whole diff is in the file above.</i>",
    patterns: "Patterns",
    alwaysAllows: "<b>Always</b> also allows, from now on in this project:",
    more: (count) => ` and ${count} more`,
    feedback: "💬 Feedback:",
    cascadeRejected: "🚫 <b>Rejected</b> together with another request of this session",
    cascadeApproved: "✅ <b>Auto-approved</b>: an earlier “Always” covers it",
    allowedOnce: "✅ <b>Allowed once</b>",
    alwaysAllowed: "✅ <b>Always allowed</b>",
    rejected: "🚫 <b>Rejected</b>",
    rejectedWithFeedback: "↩️ <b>Rejected with feedback</b>",
    fromTelegram: "from Telegram",
    inTerminal: "in the terminal",
    diffCaption: (file) => `Full diff of <code>${file}</code>`,
    omitted: (count) => `⟨… ${count} characters not shown here …⟩`,
    shortened: (file) => `✂️ <b>Shortened here.</b> The full request, every character of it and every pattern, is in the file <code>${file}</code> above. Read it before you allow.`,
    notAttached: "⚠️ <b>Shortened, and the full text could not be attached</b>, so <b>Allow</b> is not offered here: decide in the terminal, or reject.",
  },
  permissionFile: {
    caption: "📄 The full permission request: what <b>Allow</b> and <b>Always</b> approve",
    heading: (name) => `OpenCode asks for permission: ${name}`,
    marked: "Invisible characters, bidi controls and long runs of blanks are marked ⟨…⟩; the exact text follows at the end.",
    command: "Command",
    file: "File",
    patterns: (count) => `Patterns (${count}):`,
    always: (count) => `"Always" also allows, from now on in this project (${count}):`,
    exact: "Exact text (JSON)",
  },
  reveal: {
    spaces: (count) => `⟨${count} spaces⟩`,
    tabs: (count) => `⟨${count} tabs⟩`,
    blanks: (spaces, tabs) => `⟨${spaces} spaces and ${tabs} tabs⟩`,
    lineBreaks: (count) => `⟨${count} line breaks⟩`,
  },
  context: { subagentOf: "🤖 sub-agent of" },
  notice: {
    done: (duration) => `✅ <b>Done</b> after ${duration}`,
    failed: (name) => `❌ <b>Failed</b>: ${name}`,
    retrying: (attempt) => `⏳ <b>OpenCode keeps retrying</b>${attempt}: the provider is failing or rate-limiting`,
    attempt: (n) => ` (attempt ${n})`,
    retryOnce: "<i>This is reported once per run; the agent carries on by itself when the provider recovers.</i>",
    replyHint: "<i>Reply to this message to send the agent your next instruction.</i>",
    seconds: (n) => `${n} s`,
    minutes: (m, s) => `${m} min ${s} s`,
    hours: (h, m) => `${h} h ${m} min`,
  },
  note: {
    chosen: (label) => `Chosen: ${label}`,
    selected: (label) => `Selected: ${label}`,
    unselected: (label) => `Unselected: ${label}`,
    done: "Done",
    choiceClosed: "That choice is no longer open",
    pickOne: "Pick at least one option, or type an answer",
    alreadyAnswered: "That question is already answered",
    onlyOptions: "This question only accepts its options",
    emptyAnswer: "An empty answer can't be sent",
    answerReceived: "Answer received",
    replyWithAnswer: "Reply to the next message with your answer",
    tapConfirm: "Tap Confirm to dismiss the question",
    tapDismissFirst: "Tap Dismiss first",
    dismissing: "Dismissing…",
    wrongButton: "That button does not belong here",
    notAnswering: "The OpenCode process with this prompt did not answer in time. Tap again in a moment.",
    relayUnavailable: (reason) => `Hermes can't share the bot with other OpenCode windows (${reason}), so this one does not poll Telegram.`,
    pollConflict: "Another program is polling this Telegram bot (409 Conflict). Hermes keeps retrying.",
    allowedOnce: "Allowed once",
    alwaysAllowed: "Always allowed",
    rejected: "Rejected",
    replyWithFeedback: "Reply to the next message with your feedback",
    nothingToAllowAlways: "This request has nothing to allow always",
    page: (page, pages) => `Page ${page} of ${pages}`,
    notPending: "This is no longer pending",
    notAuthorized: "Not authorized",
    sending: "Sending your answer…",
    invalidAnswer: (detail) => `That answer can't be sent: ${detail}`,
    expiredButFailed: (error) => `It expired, but telling OpenCode failed: ${error}`,
    unreachable: (error) => `Could not reach OpenCode (${error}). Tap again to retry.`,
    notApplied: "OpenCode accepted the answer but did not apply it",
  },
  input: {
    answerTo: (header) => `✍️ Reply to this message with your answer to <b>${header}</b>.`,
    feedback: "✍️ Reply to this message with your feedback: the agent gets it instead of running the command.",
    feedbackPlaceholder: "feedback for the agent",
  },
  talk: {
    queued: "⏳ The agent is busy: your message is queued, and it reads it as soon as the current step ends.",
    notSent: (why, text) => `⚠️ Not sent to the agent (${why}). Your message:\n<blockquote>${text}</blockquote>`,
    quoteCut: (file) => `\n<i>Only its start fits here: your whole message is in the file <code>${file}</code> below.</i>`,
    fileCaption: "📄 Your message, in full (it was not sent to the agent)",
    notRunning: "that project's OpenCode is not running",
    sessionGone: "that session no longer exists",
  },
  changes: {
    title: (files, added, removed) => `📝 <b>${files === 1 ? "1 file" : `${files} files`} changed</b> (+${added} −${removed}):`,
    added: " (new)",
    deleted: " (deleted)",
    more: (count) => `<i>…and ${count} more (all in the .diff file)</i>`,
    fileCaption: "📝 What this run changed",
  },
  files: {
    textHeader: (name) => `File ${name}, sent from Telegram:`,
    tooBig: (size, limit) => `⚠️ Not sent to the agent: the file is ${size}, and Telegram lets a bot download at most ${limit}.`,
    typeRefused: (what) => `⚠️ Not sent to the agent: Hermes takes photos, images (JPEG, PNG, GIF, WebP) and text files, not ${what}.`,
    noSession: "⚠️ Not sent to the agent: reply with the photo or file to a Hermes message of the session it is for (or post it in that session's topic).",
    downloadFailed: (why) => `⚠️ Not sent to the agent: the file could not be downloaded from Telegram (${why}). Try sending it again.`,
    notSent: (why) => `⚠️ Not sent to the agent (${why}).`,
  },
  start: {
    hello: "👋 This is <b>Hermes</b>, the OpenCode bridge.",
    ids: (chatId, userId) => `This chat's id is <code>${chatId}</code> and your user id is <code>${userId}</code>.`,
    configured: "✅ This chat is configured: OpenCode's questions will appear here.",
    setChat: (chatId) => `Set <code>HERMES_TELEGRAM_CHAT_ID=${chatId}</code> to receive OpenCode's questions in this chat.`,
  },
  status: {
    title: "📊 <b>Hermes status</b>",
    noSessions: "No sessions seen yet.",
    sessions: (count) => `<b>Sessions</b> (${count})`,
    busy: "🟢 busy",
    busyFor: (duration) => `🟢 busy for ${duration}`,
    idle: "⚪ idle",
    untitled: "untitled",
    andMore: (count) => `… and ${count} more`,
    nothingWaiting: "Nothing is waiting for you.",
    waiting: (count) => `<b>Waiting for you</b> (${count})`,
    pendingHint: "<i>/pending sends them all again, at the bottom of the chat.</i>",
    sentAgain: "⤵️ <i>Sent again below.</i>",
  },
  help: {
    lines: [
      "🪽 <b>Hermes</b> puts OpenCode's questions and permission prompts on this chat.",
      "",
      "• Tap a button to answer; the agent carries on. Answers given in the terminal show up here too.",
      "• <b>Type an answer</b> and <b>Reject with feedback</b> ask for a reply with your text.",
      "• Reply to any Hermes message to send that session your next instruction.",
      "• <b>⏹ Stop</b> (or /stop) ends a session's run after a confirmation tap.",
    ],
  },
  commands: { status: "Sessions and pending prompts", pending: "Send every pending prompt again", stop: "Stop a running session", help: "What Hermes does and how to use it", start: "This chat's id and a setup check" },
  host: {
    formsUnreachable: (reason) =>
      `⚠️ <b>Hermes cannot answer OpenCode's questions from here</b>: ${reason}.\nQuestions still show up on the phone; answer them in the terminal. Permissions work as usual.`,
  },
};

const zh: Strings = {
  button: { done: "完成", type: "输入回答", dismiss: "忽略", confirm: "确认", once: "允许一次", always: "始终允许", reject: "拒绝", feedback: "拒绝并说明", previous: "◀ 上一页选项", next: "更多选项 ▶", stop: "⏹ 停止", stopConfirm: "⏹ 确认停止" },
  stop: {
    running: (title) => `▶️ <b>运行中</b> · ${title}\n<i>⏹ 停止会结束这次运行，和在终端按 Esc 一样。</i>`,
    confirm: (title) => `⏹ <b>停止这次运行？</b> · ${title}\n智能体会立即停下。点<b>确认停止</b>。`,
    stopping: (title) => `⏳ <b>正在停止…</b> · ${title}`,
    stopped: (title) => `⏹ <b>已在 Telegram 停止运行</b> · ${title}`,
    notRunning: (title) => `⚪ <b>未在运行</b> · ${title}：没有可停止的运行。`,
    failed: (title, error) => `⚠️ <b>无法停止运行</b> · ${title}\n${error}`,
    pick: "⏹ <b>要停止哪一个运行？</b>",
    nothingRunning: "没有正在运行的会话。",
    tapConfirm: "点“确认停止”即可停止运行",
    halting: "正在停止运行…",
    notBusy: "这个会话没有在运行",
  },
  question: {
    asking: "❓ <b>OpenCode 在提问</b>",
    sending: "⏳ <b>正在发送你的回答…</b>",
    answered: "✅ <b>已在 Telegram 回答</b>",
    answeredElsewhere: "✅ <b>已在终端回答</b>",
    dismissed: "🚫 <b>已在 Telegram 忽略</b>",
    dismissedElsewhere: "🚫 <b>已在终端忽略</b>",
    expired: "⌛ <b>已过期</b>：无人及时回答，问题已被忽略",
    gone: "⚪ <b>不再等待</b>：OpenCode 已关闭这个问题",
    defaultHeader: "问题",
    chooseAny: " <i>（可多选，选好后点“完成”）</i>",
    cut: " <i>（已截断：完整问题见终端）</i>",
    dismissWarning: "⚠️ 忽略会停止智能体的运行。点<b>确认</b>以忽略，或选择一个回答。",
    page: (first, last, total) => `<i>选项 ${first}–${last}（共 ${total} 个）：用下方的 ◀ ▶ 查看其他选项。</i>`,
  },
  permission: {
    asking: "❓ <b>OpenCode 请求权限</b>",
    sending: "⏳ <b>正在发送你的决定…</b>",
    expired: "⌛ <b>已过期</b>：无人及时回答，已拒绝",
    gone: "⚪ <b>不再等待</b>：OpenCode 已关闭这个请求",
    title: (name) => `🔐 <b>权限：${name}</b>`,
    file: "文件",
    diffCut: "<i>差异比预览更长：完整差异见上方的文件。</i>",
    patterns: "匹配模式",
    alwaysAllows: "<b>始终允许</b>还会在此项目中自动放行：",
    more: (count) => ` 等另外 ${count} 项`,
    feedback: "💬 说明：",
    cascadeRejected: "🚫 <b>已拒绝</b>：与本会话的另一个请求一起被拒绝",
    cascadeApproved: "✅ <b>已自动允许</b>：之前的“始终允许”覆盖了它",
    allowedOnce: "✅ <b>已允许一次</b>",
    alwaysAllowed: "✅ <b>已始终允许</b>",
    rejected: "🚫 <b>已拒绝</b>",
    rejectedWithFeedback: "↩️ <b>已拒绝并附说明</b>",
    fromTelegram: "（来自 Telegram）",
    inTerminal: "（在终端）",
    diffCaption: (file) => `<code>${file}</code> 的完整差异`,
    omitted: (count) => `⟨… 此处省略 ${count} 个字符 …⟩`,
    shortened: (file) => `✂️ <b>此处已截断。</b>完整请求（每个字符、每个匹配模式）见上方文件 <code>${file}</code>。允许之前请先阅读。`,
    notAttached: "⚠️ <b>内容已截断，且完整文本未能附上</b>，因此这里不提供<b>允许</b>：请在终端决定，或拒绝。",
  },
  permissionFile: {
    caption: "📄 完整的权限请求：<b>允许</b>和<b>始终允许</b>所批准的内容",
    heading: (name) => `OpenCode 请求权限：${name}`,
    marked: "不可见字符、双向控制字符和连续的空白已用 ⟨…⟩ 标出；末尾附有原样文本。",
    command: "命令",
    file: "文件",
    patterns: (count) => `匹配模式（${count}）：`,
    always: (count) => `“始终允许”还会在此项目中自动放行（${count}）：`,
    exact: "原样文本（JSON）",
  },
  reveal: {
    spaces: (count) => `⟨${count} 个空格⟩`,
    tabs: (count) => `⟨${count} 个制表符⟩`,
    blanks: (spaces, tabs) => `⟨${spaces} 个空格和 ${tabs} 个制表符⟩`,
    lineBreaks: (count) => `⟨${count} 个换行⟩`,
  },
  context: { subagentOf: "🤖 子智能体，隶属于" },
  notice: {
    done: (duration) => `✅ <b>完成</b>，用时 ${duration}`,
    failed: (name) => `❌ <b>失败</b>：${name}`,
    retrying: (attempt) => `⏳ <b>OpenCode 正在反复重试</b>${attempt}：模型服务出错或被限流`,
    attempt: (n) => `（第 ${n} 次）`,
    retryOnce: "<i>每次运行只提醒一次；服务恢复后智能体会自动继续。</i>",
    replyHint: "<i>回复这条消息即可给智能体发送下一条指令。</i>",
    seconds: (n) => `${n} 秒`,
    minutes: (m, s) => `${m} 分 ${s} 秒`,
    hours: (h, m) => `${h} 小时 ${m} 分`,
  },
  note: {
    chosen: (label) => `已选择：${label}`,
    selected: (label) => `已勾选：${label}`,
    unselected: (label) => `已取消：${label}`,
    done: "完成",
    choiceClosed: "这个选项已不可用",
    pickOne: "请至少选择一项，或输入回答",
    alreadyAnswered: "这个问题已经回答过了",
    onlyOptions: "这个问题只接受给定选项",
    emptyAnswer: "不能发送空回答",
    answerReceived: "已收到回答",
    replyWithAnswer: "请回复下一条消息输入你的回答",
    tapConfirm: "点“确认”以忽略这个问题",
    tapDismissFirst: "请先点“忽略”",
    dismissing: "正在忽略…",
    wrongButton: "这个按钮不属于这里",
    notAnswering: "持有这个请求的 OpenCode 进程没有及时响应，请稍后再点一次。",
    relayUnavailable: (reason) => `Hermes 无法与其他 OpenCode 窗口共用这个机器人（${reason}），因此本窗口不轮询 Telegram。`,
    pollConflict: "另一个程序正在轮询这个 Telegram 机器人（409 Conflict），Hermes 会继续重试。",
    allowedOnce: "已允许一次",
    alwaysAllowed: "已始终允许",
    rejected: "已拒绝",
    replyWithFeedback: "请回复下一条消息写下你的说明",
    nothingToAllowAlways: "这个请求没有可以始终允许的内容",
    page: (page, pages) => `第 ${page} 页，共 ${pages} 页`,
    notPending: "这已不再等待回答",
    notAuthorized: "无权操作",
    sending: "正在发送你的回答…",
    invalidAnswer: (detail) => `这个回答无法发送：${detail}`,
    expiredButFailed: (error) => `已过期，但通知 OpenCode 失败：${error}`,
    unreachable: (error) => `无法连接 OpenCode（${error}）。再点一次重试。`,
    notApplied: "OpenCode 接受了回答但没有生效",
  },
  input: {
    answerTo: (header) => `✍️ 回复这条消息，写下你对 <b>${header}</b> 的回答。`,
    feedback: "✍️ 回复这条消息写下你的说明：智能体会收到它，而不是执行这条命令。",
    feedbackPlaceholder: "给智能体的说明",
  },
  talk: {
    queued: "⏳ 智能体正忙：你的消息已排队，当前步骤结束后它就会读到。",
    notSent: (why, text) => `⚠️ 未能发送给智能体（${why}）。你的消息：\n<blockquote>${text}</blockquote>`,
    quoteCut: (file) => `\n<i>这里只放得下开头：完整消息见下方文件 <code>${file}</code>。</i>`,
    fileCaption: "📄 你的完整消息（未发送给智能体）",
    notRunning: "该项目的 OpenCode 没有在运行",
    sessionGone: "该会话已不存在",
  },
  changes: {
    title: (files, added, removed) => `📝 <b>改动了 ${files} 个文件</b>（+${added} −${removed}）：`,
    added: "（新建）",
    deleted: "（已删除）",
    more: (count) => `<i>……还有 ${count} 个（都在 .diff 文件里）</i>`,
    fileCaption: "📝 本次运行的改动",
  },
  files: {
    textHeader: (name) => `从 Telegram 发送的文件 ${name}：`,
    tooBig: (size, limit) => `⚠️ 未发送给智能体：文件大小为 ${size}，而 Telegram 只允许机器人下载不超过 ${limit} 的文件。`,
    typeRefused: (what) => `⚠️ 未发送给智能体：Hermes 接收照片、图片（JPEG、PNG、GIF、WebP）和文本文件，不接收${what}。`,
    noSession: "⚠️ 未发送给智能体：请用照片或文件回复该会话的某条 Hermes 消息（或发到该会话的话题里）。",
    downloadFailed: (why) => `⚠️ 未发送给智能体：无法从 Telegram 下载该文件（${why}）。请重新发送。`,
    notSent: (why) => `⚠️ 未能发送给智能体（${why}）。`,
  },
  start: {
    hello: "👋 这里是 <b>Hermes</b>，OpenCode 的 Telegram 桥接。",
    ids: (chatId, userId) => `这个聊天的 id 是 <code>${chatId}</code>，你的用户 id 是 <code>${userId}</code>。`,
    configured: "✅ 这个聊天已配置好：OpenCode 的问题会显示在这里。",
    setChat: (chatId) => `设置 <code>HERMES_TELEGRAM_CHAT_ID=${chatId}</code> 即可在这个聊天接收 OpenCode 的问题。`,
  },
  status: {
    title: "📊 <b>Hermes 状态</b>",
    noSessions: "还没有看到任何会话。",
    sessions: (count) => `<b>会话</b>（${count}）`,
    busy: "🟢 运行中",
    busyFor: (duration) => `🟢 已运行 ${duration}`,
    idle: "⚪ 空闲",
    untitled: "未命名",
    andMore: (count) => `… 另有 ${count} 个`,
    nothingWaiting: "没有等待你回答的内容。",
    waiting: (count) => `<b>等待你回答</b>（${count}）`,
    pendingHint: "<i>/pending 会把它们全部重新发送到聊天底部。</i>",
    sentAgain: "⤵️ <i>已在下方重新发送。</i>",
  },
  help: {
    lines: [
      "🪽 <b>Hermes</b> 把 OpenCode 的提问和权限请求发到这个聊天。",
      "",
      "• 点按钮即可回答，智能体会继续工作。在终端里的回答也会同步到这里。",
      "• <b>输入回答</b>和<b>拒绝并说明</b>会请你回复一段文字。",
      "• 回复任意一条 Hermes 消息，即可给对应会话发送下一条指令。",
      "• <b>⏹ 停止</b>（或 /stop）在确认后结束会话的运行。",
    ],
  },
  commands: { status: "会话与待回答的请求", pending: "重新发送所有待回答的请求", stop: "停止正在运行的会话", help: "Hermes 的用途与用法", start: "本聊天的 id 与配置检查" },
  host: {
    formsUnreachable: (reason) => `⚠️ <b>Hermes 无法在这里回答 OpenCode 的问题</b>：${reason}。\n问题仍会发到手机上，请在终端里回答。权限请求照常可用。`,
  },
};

export const CATALOGS: Record<Language, Strings> = { en, zh };

/** "zh", "zh-CN", "zh_Hans"… pick Chinese; anything else unknown is undefined. */
export function languageOf(text: string | undefined): Language | undefined {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "" || value.startsWith("en")) return "en";
  if (value.startsWith("zh")) return "zh";
  return undefined;
}
