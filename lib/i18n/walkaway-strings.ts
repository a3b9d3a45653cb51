// The shape of the strings of walking away (issue 51): the usage-limit pause, the stall alert and
// /digest. Part of the catalogue (strings.ts' `walkaway`), filled in by walkaway-en.ts and
// walkaway-zh.ts. Parameters typed Html come escaped; times and durations come formatted.
import type { Html } from "../text/html.ts";

export interface WalkawayStrings {
  /** "⏸ Usage limit · resumes at 04:11 (in 2 h 13 min)". */
  pausedUntil: (at: Html, wait: Html) => Html;
  /** No reset time known. */
  pausedNoReset: Html;
  /** Who resumes it: OpenCode's own retry, or Hermes with `continue`. */
  resumerOpencode: Html;
  resumerHermes: Html;
  /** Without a reset time: only the person can. */
  resumerNobody: Html;
  /** The provider's own words, quoted. */
  providerWords: (words: Html) => Html;
  /** "1 message held" (sent after the resume). */
  held: (count: number) => Html;
  /** The pause as it ended. */
  resumedByOpencode: (at: Html) => Html;
  resumedAt: (at: Html) => Html;
  resumedNow: (at: Html) => Html;
  cancelled: Html;
  /** The run ended otherwise (stopped at the terminal, another error, prompted from the terminal). */
  endedOtherwise: Html;
  /** Held messages that were not sent (Cancel). */
  heldDropped: (count: number) => Html;
  /** Resume (continue) could not be sent. */
  resumeFailed: (error: Html) => Html;
  resumeNowButton: string;
  cancelButton: string;
  resumeNowNote: string;
  cancelNote: string;
  /** A tap on a pause that is over, or that another process no longer knows. */
  pauseGone: string;
  /** The answer to a message held while the run waits. */
  heldNote: Html;

  /** "⚠️ No progress for 10 min". */
  stallQuiet: (quiet: Html) => Html;
  /** "bash `npm test` running for 25 min". */
  stallTool: (tool: Html, detail: Html | undefined, running: Html) => Html;
  stallMoving: Html;
  /** Keep waiting tapped: no alert for another window. */
  stallKeptWaiting: (window: Html) => Html;
  stallStopped: Html;
  stallStopFailed: (error: Html) => Html;
  stallEnded: Html;
  stopButton: string;
  keepWaitingButton: string;
  keepWaitingNote: string;
  stopNote: string;
  stallGone: string;

  /** The menu's and /help's lines of /digest and /away. */
  digestCommand: string;
  awayCommand: string;
  /** /away's answer: prompts reach the phone at once (HERMES_DESK_DELAY set), or they did already (unset). */
  awayNow: Html;
  awayOff: Html;
  /** /digest: "🗒 Since 21:00 (12 h)". */
  digestTitle: (since: Html, span: Html) => Html;
  digestNothing: Html;
  digestUsage: Html;
  /** A project heading and a session heading. */
  digestProject: (name: Html) => Html;
  digestSession: (title: Html) => Html;
  /** One run: "▶ 21:04 from the phone · done · $0.12 · 3 files". */
  digestRun: (at: Html, starter: Html, outcome: Html, cost: Html | undefined, files: number) => Html;
  starters: { phone: string; terminal: string; schedule: string };
  outcomes: { running: string; done: string; failed: string; stopped: string; paused: string; stalled: string };
  /** One decision: "21:05 ❓ Color? → Red · Ana on the phone". */
  digestQuestion: (at: Html, asked: Html, answer: Html, source: Html) => Html;
  digestPermission: (at: Html, asked: Html, answer: Html, source: Html) => Html;
  digestBudget: (at: Html, source: Html) => Html;
  answers: { once: string; always: string; reject: string; dismissed: string; stopped: string; gone: string };
  sources: {
    phone: (name: Html) => Html;
    terminal: Html;
    sessionRule: (rule: Html) => Html;
    opencodeAlways: Html;
    budgetStop: Html;
    /** Its run was stopped (Stop, the budget) while it waited. */
    runStopped: Html;
    /** Nobody answered in time. */
    timeout: Html;
    unanswered: Html;
  };
  /** The file with the whole digest, when it is longer than a message. */
  digestFileCaption: Html;
  /** "… 12 more in the file". */
  digestMore: (count: number) => Html;
}
