// The shape of the strings of OpenCode's own vocabulary on the phone (issue 43): /commands, /compact,
// ⑂ Fork and /fork, /history with Go back here and Fork here. Part of the catalogue (strings.ts'
// `vocabulary`), filled in by vocabulary-en.ts and vocabulary-zh.ts. Parameters typed Html come
// escaped; the rest are numbers or plain words. Plain strings are button labels and tap answers.
import type { Html } from "../text/html.ts";

export interface VocabularyStrings {
  /** The menu's lines. */
  menu: { commands: string; compact: string; fork: string; history: string };
  /** How to use them when sent on their own, not as a reply to a session's message. */
  howTo: Html;
  /** A version without the route: what it lacks (one of `names`). */
  lacks: (what: Html) => Html;
  names: { commands: string; command: string; compact: string; fork: string; history: string; back: string };
  notRunning: Html;
  failed: (error: Html) => Html;
  commands: {
    title: (project: Html, count: number) => Html;
    /** One line: `/name` — description · source. */
    item: (name: Html, description: Html | undefined, source: Html | undefined) => Html;
    none: (project: Html) => Html;
    /** Commands whose names are also Hermes's: their buttons run OpenCode's. */
    shadowed: (names: Html) => Html;
    page: (page: number, pages: number) => Html;
    ran: (name: Html, title: Html) => Html;
    running: string;
    /** A command before it runs (issue 49): its name, the session, what it sends. */
    preview: (name: Html, title: Html, body: Html) => Html;
    /** This OpenCode (2.0.15) lists no template. */
    noTemplate: Html;
    /** 2.0.15: no definition Hermes could read (a typed one asks first). */
    unknownTemplate: Html;
    /** 2.0.15: definitions that differ; the shell lines of all are shown. */
    ambiguous: Html;
    args: (args: Html) => Html;
    /** The template's `` !`…` `` lines, run first on this machine, unasked. */
    shellLines: (count: number) => Html;
    moreLines: (count: number, flagged: number) => Html;
    /** The Run button's label. */
    run: (name: string) => string;
    tapRun: string;
  };
  compact: {
    busy: Html;
    working: (title: Html) => Html;
    done: (title: Html, fill: Html) => Html;
    doneNoFill: (title: Html) => Html;
    /** `🧠 87% → 12% of 200k`; without the model's window, `🧠 174k → 20k tokens`. */
    fill: (before: number, after: number, window: Html) => Html;
    fillTokens: (before: Html, after: Html) => Html;
  };
  fork: {
    button: string;
    /** The fork's first message, in its own topic or in reply to the original's. `link`: a t.me link built from integer ids. */
    made: (title: Html, original: Html, link: Html | undefined) => Html;
    forking: string;
    titlePrefix: string;
  };
  history: {
    title: (title: Html, count: number) => Html;
    item: (index: number, text: Html, files: Html) => Html;
    noFiles: Html;
    none: Html;
    pick: (index: number) => string;
    back: string;
    forkHere: string;
    confirmBack: string;
    /** `later`: how many later runs the revert undoes too; `files`: every file of them all; `notes`: handCount/unknownCount lines, or empty. */
    confirm: (title: Html, text: Html, later: number, files: Html, notes: Html) => Html;
    /** After a file's name: it differs from what the last run that touched it left (a change by hand, which going back overwrites). */
    handMark: Html;
    /** After a file's name: no way to know (OpenCode kept no record of what the run left, or the file is too large, or leads out of the project). */
    unknownMark: Html;
    handCount: (files: number) => Html;
    /** A Confirm tap after `file` was changed by hand since the confirmation showed it unmarked: refused. */
    handSinceConfirm: (file: string) => string;
    unknownCount: (files: number) => Html;
    /** `files` files of `runs` runs: more than a message can list, so no Confirm. */
    tooMany: (title: Html, files: number, runs: number) => Html;
    /** A Confirm tap on such a list (it had no button): refused. */
    tooManyTap: string;
    tapConfirm: string;
    going: string;
    backDone: (title: Html, restored: number) => Html;
    busy: string;
    newer: string;
    gone: string;
  };
}
