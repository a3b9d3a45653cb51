// The second half of the string catalogue's shape (strings.ts): what the phone uses as a remote
// control (steering, answers, files, voice, commands, undo, what a run used). One file could not hold
// the whole shape within the linter's 300 lines.

export interface RemoteStrings {
  steer: {
    pick: string;
    picked: (project: string) => string;
    askText: (project: string) => string;
    placeholder: string;
    noProject: string;
    failed: (why: string) => string;
    starting: string;
    /** `current` is escaped HTML. */
    modelTitle: (current: string) => string;
    agentTitle: (current: string) => string;
    openCodeDefault: string;
    /** A button label (plain text). */
    defaultButton: string;
    /** A callback answer (plain text). */
    chosen: (label: string) => string;
    /** `name` is escaped by the caller. */
    notFound: (name: string) => string;
    noneReported: string;
    /** /status: what the phone's prompts use; both escaped. */
    status: (model: string, agent: string) => string;
    /** /sessions. `count` of sessions listed. */
    sessionsTitle: (count: number) => string;
    noSessions: string;
    /** The header of a session's last answer: `project` and `title` escaped. */
    answerHeader: (project: string, title: string) => string;
    noAnswer: string;
    /** Plain text: the age of a session's last change. */
    ago: (duration: string) => string;
  };
  talk: {
    queued: string;
    notSent: (why: string, text: string) => string;
    quoteCut: (file: string) => string;
    fileCaption: string;
    notRunning: string;
    sessionGone: string;
  };
  /** The agent's answer, in a Done notice (and any later view of it). `shortened` is HTML and names the file. */
  answer: {
    shortened: (file: string) => string;
    fileCaption: string;
  };
  /** What a run changed, in its Done notice. */
  changes: {
    title: (files: number, added: number, removed: number) => string;
    added: string;
    deleted: string;
    more: (count: number) => string;
    fileCaption: string;
  };
  /** Photos and files sent from the phone. `textHeader` goes into the prompt (plain text). */
  files: {
    textHeader: (name: string) => string;
    tooBig: (size: string, limit: string) => string;
    typeRefused: (what: string) => string;
    noSession: string;
    downloadFailed: (why: string) => string;
    notSent: (why: string) => string;
  };
  /**
   * Voice notes and audio from the phone. `heard` and `heardAnswer` take the transcript as HTML
   * (escaped); `transcribeFailed` the service's own words, escaped.
   */
  voice: {
    heard: (transcript: string) => string;
    heardAnswer: (transcript: string) => string;
    notConfigured: string;
    empty: string;
    tooLong: (limit: string) => string;
    keyRefused: string;
    foreignListener: (address: string, uid: number) => string;
    timedOut: (wait: string) => string;
    transcribeFailed: (why: string) => string;
    typeRefused: (what: string) => string;
    noSession: string;
  };
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
    confirm: (title: string, files: string) => string;
    /** A file the run created, in the confirmation's list: undoing removes it. */
    created: string;
    undone: (title: string, restored: number) => string;
    redone: (title: string) => string;
    final: string;
    failed: (title: string, error: string) => string;
    noGit: (title: string) => string;
    tapConfirm: string;
    undoing: string;
    redoing: string;
    busy: string;
    newer: string;
    alreadyUndone: string;
    noneRestored: string;
    redoGone: string;
    nothing: string;
    howTo: string;
  };
  /** OpenCode 2 only. `reason` is escaped by the caller. */
  host: { formsUnreachable: (reason: string) => string };
  /** What a run used; counts and amounts come formatted ("12.4k", "$0.031", "200k"). */
  usage: {
    tokens: (count: string) => string;
    /** How full the context is: of the model's window, or just the count when the window is unknown. */
    context: (percent: number, window: string) => string;
    contextTokens: (count: string) => string;
  };
}
