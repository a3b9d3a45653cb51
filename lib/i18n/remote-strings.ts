// The second half of the string catalogue's shape (strings.ts): what the phone uses as a remote
// control (steering, answers, files, voice, commands, undo, what a run used). One file could not hold
// the whole shape within the linter's 300 lines.
import type { Html } from "../text/html.ts";

export interface RemoteStrings {
  steer: {
    pick: Html;
    picked: (project: Html) => Html;
    askText: (project: Html) => Html;
    placeholder: string;
    noProject: string;
    failed: (why: Html) => Html;
    starting: string;
    /** `current` is escaped HTML. */
    modelTitle: (current: Html) => Html;
    agentTitle: (current: Html) => Html;
    openCodeDefault: string;
    /** A button label (plain text). */
    defaultButton: string;
    /** A callback answer (plain text). */
    chosen: (label: string) => string;
    /** `name` is escaped by the caller. */
    notFound: (name: Html) => Html;
    noneReported: Html;
    /** /status: what the phone's prompts use; both escaped. */
    status: (model: Html, agent: Html) => Html;
    /** /sessions. `count` of sessions listed. */
    sessionsTitle: (count: number) => Html;
    noSessions: string;
    /** The header of a session's last answer: `project` and `title` escaped. */
    answerHeader: (project: Html, title: Html) => Html;
    noAnswer: Html;
    /** Plain text: the age of a session's last change. */
    ago: (duration: string) => string;
  };
  talk: {
    queued: string;
    notSent: (why: Html, text: Html) => Html;
    quoteCut: (file: Html) => Html;
    fileCaption: string;
    notRunning: string;
    sessionGone: string;
  };
  /** The agent's answer, in a Done notice (and any later view of it). `shortened` is HTML and names the file. */
  answer: {
    shortened: (file: Html) => Html;
    fileCaption: string;
  };
  /** What a run changed, in its Done notice. */
  changes: {
    title: (files: number, added: number, removed: number) => Html;
    added: string;
    deleted: string;
    more: (count: number) => Html;
    fileCaption: string;
  };
  /** Photos and files sent from the phone. `textHeader` goes into the prompt (plain text). */
  files: {
    textHeader: (name: string) => string;
    tooBig: (size: Html, limit: Html) => Html;
    typeRefused: (what: Html) => Html;
    noSession: string;
    downloadFailed: (why: Html) => Html;
    notSent: (why: Html) => Html;
  };
  /**
   * Voice notes and audio from the phone. `heard` and `heardAnswer` take the transcript as HTML
   * (escaped); `transcribeFailed` the service's own words, escaped.
   */
  voice: {
    heard: (transcript: Html) => Html;
    heardAnswer: (transcript: Html) => Html;
    notConfigured: Html;
    empty: string;
    tooLong: (limit: Html) => Html;
    keyRefused: Html;
    foreignListener: (address: Html, uid: number) => Html;
    timedOut: (wait: Html) => Html;
    transcribeFailed: (why: Html) => Html;
    typeRefused: (what: Html) => Html;
    noSession: string;
  };
  start: { hello: Html; ids: (chatId: number, userId: number) => Html; configured: string; setChat: (chatId: number) => Html };
  status: {
    title: Html;
    noSessions: string;
    sessions: (count: number) => Html;
    busy: string;
    busyFor: (duration: string) => string;
    idle: string;
    untitled: string;
    andMore: (count: number) => string;
    nothingWaiting: string;
    waiting: (count: number) => Html;
    pendingHint: Html;
    sentAgain: Html;
  };
  help: { lines: Html[] };
  commands: {
    new: string;
    sessions: string;
    model: string;
    agent: string;
    status: string;
    pending: string;
    stop: string;
    help: string;
    start: string;
    undo: string;
  };
  /** Undoing a run from the phone (docs/undo.md). `title`, `files` and `error` parameters come escaped. */
  undo: {
    button: string;
    confirmButton: string;
    redoButton: string;
    confirm: (title: Html, files: Html) => Html;
    /** A file the run created, in the confirmation's list: undoing removes it. */
    created: string;
    undone: (title: Html, restored: number) => Html;
    redone: (title: Html) => Html;
    final: Html;
    failed: (title: Html, error: Html) => Html;
    noGit: (title: Html) => Html;
    tapConfirm: string;
    undoing: string;
    redoing: string;
    busy: string;
    newer: string;
    alreadyUndone: string;
    noneRestored: string;
    redoGone: string;
    nothing: string;
    howTo: Html;
  };
  /** OpenCode 2 only. `reason` is escaped by the caller. */
  host: { formsUnreachable: (reason: Html) => Html };
  /** What a run used; counts and amounts come formatted ("12.4k", "$0.031", "200k"). */
  usage: {
    tokens: (count: string) => string;
    /** How full the context is: of the model's window, or just the count when the window is unknown. */
    context: (percent: number, window: string) => string;
    contextTokens: (count: string) => string;
  };
}
