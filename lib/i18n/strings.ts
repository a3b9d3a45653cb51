// The shape of the string catalogue: every user-facing text Hermes has, one field each, that every
// language (lib/i18n/en.ts, lib/i18n/zh.ts) fills in full. Strings that go out as Telegram HTML may
// contain Hermes' own tags; parameters are escaped by the caller before they are passed in, unless a
// parameter's name says it is plain text.

/** A text decided now and worded later, in the chat's language. */
import type { RemoteStrings } from "./remote-strings.ts";
import type { ScheduleStrings } from "./schedule-strings.ts";
import type { SpeechStrings } from "./speech-strings.ts";

export type Text = (t: Strings) => string;

export interface Strings extends RemoteStrings {
  button: {
    done: string;
    type: string;
    dismiss: string;
    confirm: string;
    once: string;
    always: string;
    reject: string;
    feedback: string;
    previous: string;
    next: string;
    stop: string;
    stopConfirm: string;
  };
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
  /** A run's live progress message; `title` and `duration` parameters come escaped. */
  progress: {
    running: (title: string) => string;
    elapsed: (duration: string, steps: number) => string;
    stopHint: string;
    todos: (done: number, total: number) => string;
    moreTodos: (count: number) => string;
    earlier: string;
    /** The todowrite step, in the list of steps. */
    todoStep: string;
    finished: (title: string, duration: string) => string;
    failed: (title: string, duration: string) => string;
    stopped: (title: string, duration: string) => string;
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
    /** OpenCode 2 drops a reject's feedback: it went to the session as the user's next message. */
    feedbackAsMessage: string;
    /** …to the run's main session: a sub-agent's reject cancels the sub-agent, so nobody would read it there. */
    feedbackAsMessageToMain: string;
    /** …and sending that message failed (`error` is HTML already). */
    feedbackNotSent: (error: string) => string;
    /** The message the agent gets (plain text, not HTML): which request it answers (`subagent`: one of its sub-agent's), then the feedback exactly as typed. */
    feedbackForAgent: (request: string, feedback: string, subagent: boolean) => string;
  };
  /** The full-request file a shortened permission prompt comes with (plain text). */
  permissionFile: {
    caption: string;
    heading: (name: string) => string;
    marked: string;
    command: string;
    file: string;
    patterns: (count: number) => string;
    always: (count: number) => string;
    exact: string;
  };
  /** Markers for what would otherwise be invisible (plain text). */
  reveal: {
    spaces: (count: number) => string;
    tabs: (count: number) => string;
    blanks: (spaces: number, tabs: number) => string;
    lineBreaks: (count: number) => string;
  };
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
  /** Scheduled runs (/every, /at, /schedules). */
  schedule: ScheduleStrings;
  /** The menu's lines of the schedule commands. */
  scheduleCommands: { every: string; at: string; schedules: string };
  /** Spoken answers (/voice, speech/). */
  speech: SpeechStrings;
  /** Starting work from the phone (/new). `project` is escaped by the caller. */
}
