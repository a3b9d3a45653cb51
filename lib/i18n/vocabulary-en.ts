// The strings of OpenCode's own vocabulary on the phone in English.
import type { VocabularyStrings } from "./vocabulary-strings.ts";

export const vocabularyEn: VocabularyStrings = {
  menu: {
    commands: "The project's OpenCode commands (as a reply to a session's message)",
    compact: "Compact a session's context (as a reply)",
    fork: "Fork a session into a new one (as a reply)",
    history: "A session's last prompts: go back or fork (as a reply)",
  },
  howTo: "Reply with it to a session's message (its Done notice, your prompt), or send it in the session's topic.",
  lacks: (what) => `⚪ This OpenCode has no route for ${what}: nothing was done.`,
  names: { commands: "listing commands", command: "running a command", compact: "compacting", fork: "forking", history: "the history", back: "going back" },
  notRunning: "The OpenCode of this session is not running: nothing was done.",
  failed: (error) => `⚠️ OpenCode refused: ${error}`,
  commands: {
    title: (project, count) => `📜 <b>Commands of ${project}</b> (${count})\nTap one to run it in this session, or reply <code>/name arguments</code>.`,
    item: (name, description, source) =>
      `<code>/${name}</code>${description ? ` — ${description}` : ""}${source && source !== "command" ? ` · <i>${source}</i>` : ""}`,
    none: (project) => `📜 OpenCode offers no commands in ${project}.`,
    shadowed: (names) => `<i>${names}: the same names as Hermes's commands; their buttons run OpenCode's.</i>`,
    howToArgs: "Reply <code>/name arguments</code> to run one with arguments.",
    page: (page, pages) => `Page ${page} of ${pages}`,
    ran: (name, title) => `▶️ <b>/${name}</b> sent to ${title}`,
    running: "Sending the command…",
  },
  compact: {
    busy: "⚠️ The session is working: wait for the run to end (or stop it), then compact. Nothing was changed.",
    working: (title) => `🗜 <b>Compacting</b> · ${title}…`,
    done: (title, fill) => `🗜 <b>Compacted</b> · ${title}\n${fill}`,
    doneNoFill: (title) => `🗜 <b>Compacted</b> · ${title}`,
    fill: (before, after, window) => `🧠 ${before}% → ${after}% of ${window}`,
    fillTokens: (before, after) => `🧠 ${before} → ${after} tokens`,
  },
  fork: {
    button: "⑂ Fork",
    made: (title, original, link) =>
      `⑂ <b>Forked</b>: ${title}\nfrom ${link ? `<a href="${link}">${original}</a>` : original}. A reply here continues the fork; the original is untouched.`,
    forking: "Forking…",
    titlePrefix: "⑂ ",
  },
  history: {
    title: (title, count) => `🕘 <b>Last prompts</b> · ${title} (${count}, newest first)`,
    item: (index, text, files) => `${index}. ${text}\n   ${files}`,
    noFiles: "<i>no files changed</i>",
    none: "🕘 This session has no prompts yet.",
    pick: (index) => `${index}`,
    back: "⏪ Go back here",
    forkHere: "⑂ Fork here",
    confirmBack: "⏪ Confirm go back",
    confirm: (title, text, files) =>
      `⏪ <b>Go back to before this prompt?</b> · ${title}\n${text}\nThese files go back to how they were before it:\n${files}\nTap <b>Confirm go back</b>.`,
    tapConfirm: "Tap Confirm go back",
    going: "Going back…",
    backDone: (title, restored) => `⏪ <b>Gone back: ${restored === 1 ? "1 file" : `${restored} files`} restored</b> · ${title}`,
    busy: "The session is working: wait for the run to end (or stop it). Nothing was changed.",
    newer: "The session went on since this list: ask /history again. Nothing was changed.",
    gone: "This list is no longer known: ask /history again.",
  },
};
