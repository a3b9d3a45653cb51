import type { ChatRightsState } from "./chat-rights.ts";
import type { ChatStore } from "./chat-store.ts";
import type { LongPoll } from "./long-poll.ts";
import type { ButtonStyleMode } from "./validate.ts";
import type { RichMode } from "./rich.ts";

/** Everything a Bot API method handler can see. */
export interface BotState {
  store: ChatStore;
  poll: LongPoll;
  callbackAnswers: Array<{ callbackQueryId: string; text?: string; showAlert?: boolean }>;
  issuedCallbackIds: Set<string>;
  answeredCallbackIds: Set<string>;
  commands: unknown[];
  /** Forum topics the bot created. */
  topics: Array<{ chatId: number; threadId: number; name: string }>;
  /** Whether inline buttons may carry `style` (an older Bot API server refuses the field). */
  buttonStyles: ButtonStyleMode;
  /** What the bot may do in each chat (all it likes, unless a test says otherwise). */
  rights: ChatRightsState;
  /** Whether the server has rich messages ('refused': like a Bot API server older than 10.1). */
  richMessages: RichMode;
}

export interface MethodContext {
  payload: Record<string, any>;
  files: Record<string, { filename: string; bytes: number; content: string; data: Buffer; type?: string }>;
  state: BotState;
  /** Aborts when the client disconnects. */
  signal: AbortSignal;
}

export type MethodHandler = (ctx: MethodContext) => unknown;
