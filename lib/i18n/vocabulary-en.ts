// The strings of OpenCode's own vocabulary on the phone in English.
import type { VocabularyStrings } from "./vocabulary-strings.ts";
import { EMPTY_HTML, html } from "../text/html.ts";

export const vocabularyEn: VocabularyStrings = {
  menu: {
    commands: "The project's OpenCode commands (as a reply to a session's message)",
    compact: "Compact a session's context (as a reply)",
    fork: "Fork a session into a new one (as a reply)",
    history: "A session's last prompts: go back or fork (as a reply)",
  },
  howTo: html`Reply with it to a session's message (its Done notice, your prompt), or send it in the session's topic.`,
  lacks: (what) => html`⚪ This OpenCode has no route for ${what}: nothing was done.`,
  names: { commands: "listing commands", command: "running a command", compact: "compacting", fork: "forking", history: "the history", back: "going back" },
  notRunning: html`The OpenCode of this session is not running: nothing was done.`,
  failed: (error) => html`⚠️ OpenCode refused: ${error}`,
  commands: {
    title: (project, count) => html`📜 <b>Commands of ${project}</b> (${count})\nTap one to run it in this session, or reply <code>/name arguments</code>.`,
    item: (name, description, source) =>
      html`<code>/${name}</code>${description ? html` — ${description}` : EMPTY_HTML}${source ? html` · <i>${source}</i>` : EMPTY_HTML}`,
    none: (project) => html`📜 OpenCode offers no commands in ${project}.`,
    shadowed: (names) => html`<i>${names}: the same names as Hermes's commands; their buttons run OpenCode's.</i>`,
    page: (page, pages) => html`Page ${page} of ${pages}`,
    ran: (name, title) => html`▶️ <b>/${name}</b> sent to ${title}`,
    running: "Sending the command…",
    preview: (name, title, body) => html`📜 <b>/${name}</b> · ${title}\nIt sends:\n${body}\nTap <b>Run</b> to send it.`,
    noTemplate: html`<i>This OpenCode does not say what the command sends.</i>`,
    unknownTemplate: html`⚠️ <b>Hermes cannot show what this command runs</b>: OpenCode does not say, and Hermes found no definition of it that it could read. It may run shell lines on this machine.`,
    ambiguous: html`⚠️ This command has more than one definition, and they differ: Hermes cannot be sure which one OpenCode runs. The shell lines of all of them are shown.`,
    args: (args) => html`With the arguments: <code>${args}</code>`,
    shellLines: (count) =>
      html`⚠️ OpenCode first runs ${count === 1 ? html`this shell line` : html`these ${count} shell lines`} of it on this machine, unasked:`,
    moreLines: (count, flagged) => html`+${count} more ${count === 1 ? html`line` : html`lines`}${flagged > 0 ? html`, ⚠️ ${flagged} flagged` : EMPTY_HTML}`,
    run: (name) => `▶️ Run /${name}`,
    tapRun: "Tap Run to send it",
  },
  compact: {
    busy: html`⚠️ The session is working: wait for the run to end (or stop it), then compact. Nothing was changed.`,
    working: (title) => html`🗜 <b>Compacting</b> · ${title}…`,
    done: (title, fill) => html`🗜 <b>Compacted</b> · ${title}\n${fill}`,
    doneNoFill: (title) => html`🗜 <b>Compacted</b> · ${title}`,
    fill: (before, after, window) => html`🧠 ${before}% → ${after}% of ${window}`,
    fillTokens: (before, after) => html`🧠 ${before} → ${after} tokens`,
  },
  fork: {
    button: "⑂ Fork",
    made: (title, original, link) =>
      html`⑂ <b>Forked</b>: ${title}\nfrom ${link ? html`<a href="${link}">${original}</a>` : original}. A reply here continues the fork; the original is untouched.`,
    forking: "Forking…",
    titlePrefix: "⑂ ",
  },
  history: {
    title: (title, count) => html`🕘 <b>Last prompts</b> · ${title} (${count}, newest first)`,
    item: (index, text, files) => html`${index}. ${text}\n   ${files}`,
    noFiles: html`<i>no files changed</i>`,
    none: html`🕘 This session has no prompts yet.`,
    pick: (index) => `${index}`,
    back: "⏪ Go back here",
    forkHere: "⑂ Fork here",
    confirmBack: "⏪ Confirm go back",
    confirm: (title, text, later, files, notes) =>
      html`⏪ <b>Go back to before this prompt?</b> · ${title}\n${text}\n${later > 0 ? html`This also undoes the ${later} later ${later === 1 ? html`run` : html`runs`} (OpenCode goes back over every run since). ` : EMPTY_HTML}These files go back to how they were before it:\n${files}\n${notes}Tap <b>Confirm go back</b>.`,
    handMark: html`✋ changed since by hand: your edit is lost`,
    handSinceConfirm: (file) => `A file was changed by hand since this confirmation: nothing was changed. Tap Go back here again to see it marked. ${file}`,
    unknownMark: html`❔ cannot tell whether it was changed since by hand`,
    handCount: (files) =>
      html`✋ <b>${files} ${files === 1 ? html`file was` : html`files were`} changed since by hand</b>: going back overwrites ${files === 1 ? html`that edit` : html`those edits`}.\n`,
    unknownCount: (files) =>
      html`❔ For ${files} ${files === 1 ? html`file` : html`files`} Hermes cannot tell whether ${files === 1 ? html`it was` : html`they were`} changed since by hand (this OpenCode kept no record of what the run left, or the file is too large to compare or leads out of the project).\n`,
    tooMany: (title, files, runs) =>
      html`⏪ <b>Not offered</b> · ${title}\nGoing back here would put back ${files} files of ${runs} runs, more than one message can list: go back from OpenCode itself. Nothing was changed.`,
    tooManyTap: "Too many files to list: go back from OpenCode itself. Nothing was changed.",
    tapConfirm: "Tap Confirm go back",
    going: "Going back…",
    backDone: (title, restored) => html`⏪ <b>Gone back: ${restored} ${restored === 1 ? html`file` : html`files`} restored</b> · ${title}`,
    busy: "The session is working: wait for the run to end (or stop it). Nothing was changed.",
    newer: "The session went on since this list: ask /history again. Nothing was changed.",
    gone: "This list is no longer known: ask /history again.",
  },
};
