// The shape of the string catalogue: every user-facing text Hermes has, one field each, that every
// language (lib/i18n/en.ts, lib/i18n/zh.ts) fills in full. A string with Hermes' own tags is `Html`,
// written with the `html` template (lib/text/html.ts): its literal parts are the markup and
// its parameters are Html already (escaped by the caller), so nothing unescaped can reach it. Every
// other string is plain text, escaped where it is shown in a message.

/** A text decided now and worded later, in the chat's language. */
import type { RemoteStrings } from "./remote-strings.ts";
import type { GitStrings } from "./git-strings.ts";
import type { McpStrings } from "./mcp-strings.ts";
import type { QueueStrings } from "./queue-strings.ts";
import type { ShellStrings } from "./shell-strings.ts";
import type { RichStrings } from "./rich-strings.ts";
import type { ApprovalStrings } from "./approvals-strings.ts";
import type { WalkawayStrings } from "./walkaway-strings.ts";
import type { ScheduleStrings } from "./schedules-strings.ts";
import type { SpeechStrings } from "./speech-strings.ts";
import type { Html } from "../text/html.ts";
import type { VocabularyStrings } from "./vocabulary-strings.ts";

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
    running: (title: Html) => Html;
    confirm: (title: Html) => Html;
    stopping: (title: Html) => Html;
    stopped: (title: Html) => Html;
    notRunning: (title: Html) => Html;
    failed: (title: Html, error: Html) => Html;
    pick: Html;
    nothingRunning: string;
    tapConfirm: string;
    halting: string;
    notBusy: string;
  };
  /** A run's live progress message; `title` and `duration` parameters come escaped. */
  progress: {
    running: (title: Html) => Html;
    elapsed: (duration: string, steps: number) => string;
    stopHint: Html;
    todos: (done: number, total: number) => Html;
    moreTodos: (count: number) => string;
    earlier: string;
    /** The todowrite step, in the list of steps. */
    todoStep: string;
    finished: (title: Html, duration: Html) => Html;
    failed: (title: Html, duration: Html) => Html;
    stopped: (title: Html, duration: Html) => Html;
    /** Ended by a usage limit: its pause message tells the rest. */
    paused: (title: Html, duration: Html) => Html;
  };
  question: {
    asking: Html;
    sending: Html;
    answered: Html;
    answeredElsewhere: Html;
    dismissed: Html;
    dismissedElsewhere: Html;
    expired: Html;
    gone: Html;
    defaultHeader: string;
    chooseAny: Html;
    cut: Html;
    dismissWarning: Html;
    page: (first: number, last: number, total: number) => Html;
  };
  permission: {
    asking: Html;
    sending: Html;
    expired: Html;
    gone: Html;
    title: (name: Html) => Html;
    file: string;
    diffCut: Html;
    patterns: string;
    alwaysAllows: Html;
    more: (count: number) => string;
    feedback: string;
    cascadeRejected: Html;
    cascadeApproved: Html;
    allowedOnce: Html;
    alwaysAllowed: Html;
    rejected: Html;
    rejectedWithFeedback: Html;
    fromTelegram: string;
    inTerminal: string;
    diffCaption: (file: Html) => Html;
    omitted: (count: number) => string;
    shortened: (file: Html) => Html;
    notAttached: Html;
    /** OpenCode 2 drops a reject's feedback: it went to the session as the user's next message. */
    feedbackAsMessage: string;
    /** …to the run's main session: a sub-agent's reject cancels the sub-agent, so nobody would read it there. */
    feedbackAsMessageToMain: string;
    /** …and sending that message failed (`error` is HTML already). */
    feedbackNotSent: (error: Html) => Html;
    /** The message the agent gets (plain text, not HTML): which request it answers (`subagent`: one of its sub-agent's), then the feedback exactly as typed. */
    feedbackForAgent: (request: string, feedback: string, subagent: boolean) => string;
  };
  /** The full-request file a shortened permission prompt comes with (plain text). */
  permissionFile: {
    caption: Html;
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
    done: (duration: Html) => Html;
    failed: (name: Html) => Html;
    retrying: (attempt: Html) => Html;
    attempt: (n: number) => string;
    retryOnce: Html;
    replyHint: Html;
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
    /** The heading of the one message at start that lists the settings Hermes ignored (a bad optional value, an unknown variable). */
    settingsIgnored: string;
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
  input: { answerTo: (header: Html) => Html; feedback: string; feedbackPlaceholder: string };
  /** Approvals: risk flags, "Allow in this session", the run budget (issue 42). */
  approvals: ApprovalStrings;
  /** Walking away: the usage-limit pause, the stall alert, /digest (issue 51). */
  walkaway: WalkawayStrings;
  /** Scheduled runs (/every, /at, /schedules). */
  schedule: ScheduleStrings;
  /** OpenCode's own vocabulary: /commands, /compact, /fork, /history (issue 43). */
  vocabulary: VocabularyStrings;
  /** The menu's lines of the schedule commands. */
  scheduleCommands: { every: string; at: string; schedules: string };
  /** Spoken answers (/voice, speech/). */
  speech: SpeechStrings;
  /** Git from the phone (/diff, Commit, Push, pull requests, worktrees). */
  git: GitStrings;
  /** MCP servers from the phone (issue 53). */
  mcp: McpStrings;
  /** The queue from the phone (issue 53). */
  queue: QueueStrings;
  /** The shell from the phone (issue 53). */
  shell: ShellStrings;
  /** Rich messages (Bot API 10.1+): what a rich Done notice says of its answer. */
  rich: RichStrings;
  /** Starting work from the phone (/new). `project` is escaped by the caller. */
}
