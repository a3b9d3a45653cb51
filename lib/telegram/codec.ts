// Callback data for inline buttons. Telegram allows 64 bytes; ours stay near 20 and never carry
// labels or request ids: a prompt key, a session's stop key or a run's undo key (random), an action and small indexes.

/**
 * Every button action: its code on the wire (one letter; two once the letters ran out), how many small indexes it carries, and what
 * its key names (a question prompt, a permission prompt, or a session for Stop). A new action is
 * one line here; the handler tables of its kind (lib/bridge/prompts/questions.ts, lib/bridge/prompts/permissions.ts,
 * lib/bridge/runs/stop-control.ts) then fail to compile until it has a handler.
 */
const ACTIONS = {
  option: { code: "o", indexes: 2, on: "question" }, // tap an option of question q: o
  done: { code: "d", indexes: 1, on: "question" }, // confirm the ticked options of question q
  type: { code: "t", indexes: 1, on: "question" }, // answer question q with typed text
  dismiss: { code: "x", indexes: 0, on: "question" }, // first tap of Dismiss: asks for confirmation
  confirm: { code: "c", indexes: 0, on: "question" }, // second tap: reject the question
  page: { code: "p", indexes: 2, on: "question" }, // show page o of question q's options
  once: { code: "a", indexes: 0, on: "permission" }, // allow a permission this time
  always: { code: "w", indexes: 0, on: "permission" }, // allow it and what its `always` patterns cover
  reject: { code: "r", indexes: 0, on: "permission" }, // reject a permission (the agent stops)
  feedback: { code: "f", indexes: 0, on: "permission" }, // reject with typed feedback (the agent continues with it)
  stop: { code: "s", indexes: 0, on: "session" }, // first tap of Stop on a session's message: asks for confirmation
  halt: { code: "h", indexes: 0, on: "session" }, // second tap: abort the session's run
  newIn: { code: "n", indexes: 0, on: "project" }, // /new's picker: start the new session in this project
  model: { code: "m", indexes: 0, on: "choice" }, // /model's picker: use this model (key DEFAULT_KEY: OpenCode's default)
  modelPage: { code: "l", indexes: 1, on: "choice" }, // /model's picker: show page p
  agent: { code: "g", indexes: 0, on: "choice" }, // /agent's picker: use this agent
  agentPage: { code: "k", indexes: 1, on: "choice" }, // /agent's picker: show page p
  sessionPick: { code: "v", indexes: 0, on: "listing" }, // /sessions: post this session's last answer
  sessionPage: { code: "y", indexes: 1, on: "listing" }, // /sessions: show page p
  undo: { code: "u", indexes: 0, on: "run" }, // first tap of Undo on a run's Done notice: asks for confirmation
  undoConfirm: { code: "z", indexes: 0, on: "run" }, // second tap: revert the session to before the run
  redo: { code: "e", indexes: 0, on: "run" }, // put the run's changes back (until the session's next prompt)
  scheduleIn: { code: "i", indexes: 0, on: "project" }, // /every's and /at's picker: schedule it in this project
  scheduleCancel: { code: "j", indexes: 0, on: "schedule" }, // /schedules: first tap of a schedule's cancel (asks for confirmation)
  scheduleDrop: { code: "b", indexes: 0, on: "schedule" }, // second tap: the schedule is deleted
  // OpenCode's own vocabulary (issue 43, lib/bridge/vocabulary/vocabulary-routes.ts): upper-case codes.
  commandRun: { code: "C", indexes: 1, on: "vocabulary" }, // /commands: run command i of the list in its session
  commandPage: { code: "P", indexes: 1, on: "vocabulary" }, // /commands: show page p
  fork: { code: "F", indexes: 0, on: "vocabulary" }, // ⑂ Fork on a Done notice: fork the session through that run
  historyPick: { code: "H", indexes: 1, on: "vocabulary" }, // /history: prompt i's buttons (Go back here, Fork here)
  historyPage: { code: "Q", indexes: 1, on: "vocabulary" }, // /history: show page p
  historyBack: { code: "B", indexes: 1, on: "vocabulary" }, // Go back here: asks for confirmation
  historyConfirm: { code: "K", indexes: 1, on: "vocabulary" }, // second tap: revert the session to before prompt i
  historyFork: { code: "R", indexes: 1, on: "vocabulary" }, // Fork here: a new session with what came before prompt i
  // Git from the phone (issue 44, bridge/git/): upper-case codes too (issue 43 has C, P, F, H, Q, B, K, R).
  diffIn: { code: "D", indexes: 0, on: "project" }, // /diff's picker: this project's changes
  worktreeIn: { code: "W", indexes: 0, on: "project" }, // /new's picker: the new session in a new worktree of this project
  commit: { code: "G", indexes: 0, on: "git" }, // Commit on a Done notice: asks for confirmation
  commitConfirm: { code: "M", indexes: 0, on: "git" }, // second tap: git add + git commit of the run's files
  push: { code: "U", indexes: 0, on: "git" }, // Push: asks for confirmation, naming the remote and branch
  pushConfirm: { code: "S", indexes: 0, on: "git" }, // second tap: git push
  pullRequest: { code: "O", indexes: 0, on: "git" }, // gh pr create for the branch
  removeWorktree: { code: "V", indexes: 0, on: "git" }, // Remove worktree: asks for confirmation
  removeConfirm: { code: "Y", indexes: 0, on: "git" }, // second tap: git worktree remove
  session: { code: "A", indexes: 0, on: "permission" }, // allow a permission once, and its kind for the rest of the session (issue 42)
  revoke: { code: "E", indexes: 0, on: "rule" }, // /status: revoke a session rule
  budgetContinue: { code: "N", indexes: 0, on: "budget" }, // a run stopped at its budget: raise the cap and continue it
  // The desk's controls (issue 53): MCP servers (lib/bridge/mcp/) and the shell (lib/bridge/shell/).
  mcpIn: { code: "L", indexes: 0, on: "project" }, // /mcp's picker: this project's MCP servers
  mcpToggle: { code: "T", indexes: 1, on: "mcp" }, // /mcp's list: connect or disconnect server i
  shellRun: { code: "I", indexes: 0, on: "shell" }, // a flagged `!command`: run it
  shellCancel: { code: "Z", indexes: 0, on: "shell" }, // a flagged `!command`: run nothing
  shellStop: { code: "J", indexes: 0, on: "shell" }, // a `!command` running for over a minute: stop it
  pauseResume: { code: "Pr", indexes: 0, on: "pause" }, // a run held by a usage limit: resume it now (issue 51)
  pauseCancel: { code: "Pc", indexes: 0, on: "pause" }, // the same: stop waiting (OpenCode's own retry too)
  stallStop: { code: "Ss", indexes: 0, on: "stall" }, // a stalled run's alert: abort the run (issue 51)
  stallKeep: { code: "Sk", indexes: 0, on: "stall" }, // the same: keep waiting, no alert for another window
  // The queue (issue 53, lib/bridge/runs/queue-control.ts): a message held for a busy session; the key is its entry's.
  queueRemove: { code: "Qa", indexes: 0, on: "queue" }, // ✖ Remove: it is never sent
  queueSendNow: { code: "Qb", indexes: 0, on: "queue" }, // ⏩ Send now: asks for confirmation (red)
  queueConfirm: { code: "Qc", indexes: 0, on: "queue" }, // second tap: abort the run, this message goes next
  queueBack: { code: "Qd", indexes: 0, on: "queue" }, // the confirmation's Back: the message as it was
  commandSend: { code: "Xa", indexes: 1, on: "vocabulary" }, // /commands: a command's preview (template, shell lines, flags) seen: run it (issue 49)
} as const satisfies Record<
  string,
  {
    code: string;
    indexes: 0 | 1 | 2;
    on:
      | "question"
      | "permission"
      | "session"
      | "project"
      | "choice"
      | "listing"
      | "run"
      | "schedule"
      | "vocabulary"
      | "git"
      | "rule"
      | "budget"
      | "mcp"
      | "shell"
      | "pause"
      | "stall"
      | "queue";
  }
>;

export type CallbackAction = keyof typeof ACTIONS;
/** What a button's key names. */
export type ActionTarget = (typeof ACTIONS)[CallbackAction]["on"];
/** The actions of the buttons on one kind of message. */
export type ActionOn<T extends ActionTarget> = { [A in CallbackAction]: (typeof ACTIONS)[A]["on"] extends T ? A : never }[CallbackAction];
export type QuestionAction = ActionOn<"question">;
export type PermissionAction = ActionOn<"permission">;
export type StopAction = ActionOn<"session">;
export type ProjectAction = ActionOn<"project">;
export type ChoiceAction = ActionOn<"choice">;
export type UndoAction = ActionOn<"run">;
export type VocabularyAction = ActionOn<"vocabulary">;
export type GitAction = ActionOn<"git">;
export type ShellAction = ActionOn<"shell">;
export type QueueAction = ActionOn<"queue">;

export interface CallbackData<A extends CallbackAction = CallbackAction> {
  key: string;
  action: A;
  question: number;
  option: number;
}

/** Every action, in the order above. */
export const CALLBACK_ACTIONS = Object.keys(ACTIONS) as CallbackAction[];

export function isActionOn<T extends ActionTarget>(action: CallbackAction, target: T): action is ActionOn<T> {
  return ACTIONS[action].on === target;
}

const CODE_ACTIONS = new Map<string, CallbackAction>(CALLBACK_ACTIONS.map((action) => [ACTIONS[action].code, action]));
const PREFIX = "h1";
export const CALLBACK_DATA_LIMIT = 64;
const INDEX = "(0|[1-9]\\d{0,2})";
const PATTERN = new RegExp(`^h1:([A-Za-z0-9]{4,16}):([a-zA-Z]{1,2})(?::${INDEX})?(?::${INDEX})?$`);

export function encodeCallback(data: CallbackData): string {
  if (![data.question, data.option].every((index) => Number.isInteger(index) && index >= 0 && index < 1000)) throw new Error("callback index out of range");
  const { code, indexes } = ACTIONS[data.action];
  const parts = [PREFIX, data.key, code, ...[data.question, data.option].slice(0, indexes).map(String)];
  const encoded = parts.join(":");
  if (Buffer.byteLength(encoded) > CALLBACK_DATA_LIMIT) throw new Error(`callback data over ${CALLBACK_DATA_LIMIT} bytes`);
  return encoded;
}

/** Undefined for anything that isn't ours or is malformed (callback data is untrusted input). */
export function decodeCallback(text: unknown): CallbackData | undefined {
  if (typeof text !== "string") return undefined;
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const action = CODE_ACTIONS.get(match[2]!);
  if (!action) return undefined;
  const indexes = [match[3], match[4]].filter((value) => value !== undefined).length;
  if (indexes !== ACTIONS[action].indexes) return undefined;
  return { key: match[1]!, action, question: Number(match[3] ?? 0), option: Number(match[4] ?? 0) };
}
