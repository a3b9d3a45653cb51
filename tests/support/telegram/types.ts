import type { RichContent } from "./rich.ts";

/** Public data shapes of the fake Telegram Bot API (re-exported by fake-telegram.ts). */

export interface TgUser {
  id: number;
  is_bot?: boolean;
  first_name: string;
  username?: string;
}

export interface SentMessage {
  chatId: number;
  messageId: number;
  /** Current text (for a document: its caption, or ''). */
  text: string;
  parseMode?: string;
  /** Current markup; undefined once removed (edit without reply_markup, or an empty keyboard). */
  replyMarkup?: any;
  deleted: boolean;
  /** Every version of the message, the original first, then one entry per successful edit. */
  history: Array<{ text: string; replyMarkup?: any; at: number }>;
  replyToMessageId?: number;
  /** `content`: the file as UTF-8 text; `data`: its exact bytes (the agent's files are binary too). */
  document?: { filename: string; bytes: number; content?: string; data?: Buffer; caption?: string };
  /** A photo (sendPhoto): its exact bytes as uploaded. */
  photo?: { filename: string; bytes: number; data: Buffer; type?: string; caption?: string };
  /** A voice message (sendVoice): its exact bytes as uploaded. */
  voice?: { filename: string; bytes: number; data: Buffer; type?: string; caption?: string };
  /** The forum topic the message went to (message_thread_id), if any. */
  threadId?: number;
  /** A rich message (sendRichMessage): what it holds, as the fake read it (telegram/rich.ts); `text` is then its visible text. */
  rich?: RichContent;
}

export interface ApiCall {
  method: string;
  payload: any;
  at: number;
  /** HTTP status of the answer; 0 while the request is still held (long poll, 'hang' fault). */
  status: number;
  /** performance.now() when the request reached the fake's handler (same clock as the test's, sub-millisecond). */
  hrAt?: number;
  /** The request's Content-Encoding header, when it had one (a compressed body: "gzip", "deflate", "br"). */
  contentEncoding?: string;
  /** Telegram's error description, when the answer was an error. */
  error?: string;
}

/**
 * An injected fault. `methods` limits it to some Bot API methods, `times` disarms it after that
 * many uses, `forMs` clears it after that long. 'down' closes the listening socket (and drops open
 * connections): clients get ECONNREFUSED until it is cleared, then the fake listens again on the
 * same port.
 */
export type Fault =
  | { kind: "429"; retryAfter: number; methods?: string[]; times?: number; forMs?: number }
  | { kind: "500"; methods?: string[]; times?: number; forMs?: number }
  /** "Not Found": a Bot API server older than the method (sendMessageDraft before 9.3). */
  | { kind: "404"; methods?: string[]; times?: number; forMs?: number }
  | { kind: "hang"; methods?: string[]; times?: number; forMs?: number }
  | { kind: "down"; forMs?: number };

/** A Bot API error: becomes `{ ok: false, error_code, description, parameters? }`. */
export class TelegramApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

export function badRequest(detail: string): TelegramApiError {
  return new TelegramApiError(400, `Bad Request: ${detail}`);
}
