// The shape of the strings of OpenCode's own vocabulary on the phone (issue 43): /commands, /compact,
// ⑂ Fork and /fork, /history with Go back here and Fork here. Part of the catalogue (strings.ts'
// `vocabulary`), filled in by vocabulary-en.ts and vocabulary-zh.ts. Parameters named `title`,
// `name`, `description`, `project`, `text`, `files`, `error` and `fill` come escaped; the rest are numbers.
export interface VocabularyStrings {
  /** The menu's lines. */
  menu: { commands: string; compact: string; fork: string; history: string };
  /** How to use them when sent on their own, not as a reply to a session's message. */
  howTo: string;
  /** A version without the route: what it lacks (`what` is one of the names below). */
  lacks: (what: string) => string;
  names: { commands: string; command: string; compact: string; fork: string; history: string; back: string };
  notRunning: string;
  failed: (error: string) => string;
  commands: {
    title: (project: string, count: number) => string;
    /** One line: `/name` — description · source. */
    item: (name: string, description: string | undefined, source: string | undefined) => string;
    none: (project: string) => string;
    /** A command whose name is also Hermes's: how to reach it. */
    shadowed: (names: string) => string;
    howToArgs: string;
    page: (page: number, pages: number) => string;
    ran: (name: string, title: string) => string;
    running: string;
  };
  compact: {
    busy: string;
    working: (title: string) => string;
    done: (title: string, fill: string) => string;
    doneNoFill: (title: string) => string;
    /** `🧠 87% → 12% of 200k`; without the model's window, `🧠 174k → 20k tokens`. */
    fill: (before: number, after: number, window: string) => string;
    fillTokens: (before: string, after: string) => string;
  };
  fork: {
    button: string;
    /** The fork's first message, in its own topic or in reply to the original's. */
    made: (title: string, original: string, link: string | undefined) => string;
    forking: string;
    titlePrefix: string;
  };
  history: {
    title: (title: string, count: number) => string;
    item: (index: number, text: string, files: string) => string;
    noFiles: string;
    none: string;
    pick: (index: number) => string;
    back: string;
    forkHere: string;
    confirmBack: string;
    confirm: (title: string, text: string, files: string) => string;
    tapConfirm: string;
    going: string;
    backDone: (title: string, restored: number) => string;
    busy: string;
    newer: string;
    gone: string;
  };
}
