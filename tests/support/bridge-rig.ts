// A Bridge wired to an in-memory Telegram and a fake OpenCode, for unit tests of the bridge.
import type { ScheduleSetup } from "../../lib/bridge/schedules/schedules-routes.ts";
import pino from "pino";
import type { Logger } from "../../lib/system/log.ts";
import type { TranscriptionSettings } from "../../lib/config/config.ts";
import type { LoadTranscriber } from "../../lib/voice/load-transcriber.ts";
import { expect, vi } from "vitest";
import { Bridge, type InstanceLink } from "../../lib/bridge/bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import type { HttpResult, OpencodeTransport } from "../../lib/opencode/transport.ts";
import type { NoticePolicy } from "../../lib/notices/policy.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { escapeHtml } from "../../lib/text/html.ts";
import type { HermesEvent, PermissionRequest, QuestionInfo, QuestionRequest } from "../../lib/hermes-events.ts";
import { MemoryTelegram, type MemoryMessage } from "./memory-telegram.ts";

export const CHAT = 1001;
export const OWNER = 1001;
export const DIRECTORY = "/home/dev/project";

/** Plays OpenCode: answers the routes, and like OpenCode announces accepted replies as events. */
export class FakeOpencode implements OpencodeTransport {
  readonly posts: Array<{ url: string; path?: Record<string, string>; body?: unknown }> = [];
  pending: unknown[] = [];
  permissions: unknown[] = [];
  /** Set by setup(): where accepted replies are announced. */
  announce: (event: HermesEvent) => void = () => undefined;
  replyStatus = 200;
  titles = new Map<string, string>();
  sessions = new Map<string, { id: string; title?: string; parentID?: string }>();
  /** What a POST route answers instead of the default (e.g. the session a revert returns). */
  answers = new Map<string, HttpResult>();
  /** What `GET /config/providers` answers (the models /model lists, with their context windows). */
  providers: unknown[] = [];
  /** What `GET /command` and `GET /session/:id/message` answer (OpenCode's vocabulary, issue 43). */
  commands: unknown[] = [];
  messages: unknown[] = [];
  async request(method: "GET" | "POST" | "PATCH", url: string, options: { path?: Record<string, string>; body?: unknown } = {}): Promise<HttpResult> {
    if (method === "GET" && url === "/question") return { status: 200, data: this.pending };
    if (method === "GET" && url === "/permission") return { status: 200, data: this.permissions };
    if (method === "GET" && url === "/command") return { status: 200, data: this.commands };
    if (method === "GET" && url === "/session/{sessionID}/message") return { status: 200, data: this.messages };
    if (method === "GET" && url === "/config/providers") return { status: 200, data: { providers: this.providers } };
    if (method === "GET" && url === "/session/{sessionID}") {
      const session = this.sessions.get(options.path?.sessionID ?? "");
      if (session) return { status: 200, data: session };
      const title = this.titles.get(options.path?.sessionID ?? "");
      return title ? { status: 200, data: { id: options.path?.sessionID, title } } : { status: 404, data: {} };
    }
    this.posts.push({ url, ...(options.path ? { path: options.path } : {}), ...(options.body !== undefined ? { body: options.body } : {}) });
    const answer = this.answers.get(url);
    if (answer) return answer;
    if (url === "/session")
      return this.replyStatus === 200 ? { status: 200, data: { id: `ses_new${this.posts.length}` } } : { status: this.replyStatus, data: {} };
    if (this.replyStatus === 200) this.#announce(url, options.path?.requestID ?? "", options.body);
    const ok = this.replyStatus === 200;
    if (ok && url === "/session/{sessionID}/prompt_async") return { status: 204, data: {} };
    return { status: this.replyStatus, data: ok ? true : { name: "Error", data: { message: "boom" } } };
  }

  #announce(url: string, requestID: string, body: any): void {
    if (url === "/question/{requestID}/reply") this.announce({ type: "question.replied", sessionID: "ses_1", requestID, answers: body.answers });
    if (url === "/question/{requestID}/reject") this.announce({ type: "question.rejected", sessionID: "ses_1", requestID });
    if (url === "/permission/{requestID}/reply") this.announce({ type: "permission.replied", sessionID: "ses_1", requestID, reply: body.reply });
  }
}

import { colorQuestion } from "./fixtures.ts";

export const question = colorQuestion;

let counter = 0;
export const request = (questions: QuestionInfo[] = [question()]): QuestionRequest => ({ id: `que_${++counter}`, sessionID: "ses_1", questions });

export function setup(
  options: {
    ttlMs?: number;
    permissionTtlMs?: number;
    allowedUsers?: number[];
    announce?: boolean;
    notices?: NoticePolicy;
    transcription?: TranscriptionSettings;
    transcribeTimeoutMs?: number;
    loadTranscriber?: LoadTranscriber;
    logger?: Logger;
    progress?: boolean;
    schedules?: ScheduleSetup;
    now?: () => number;
    /** HERMES_RUN_BUDGET (issue 42). */
    runBudget?: number;
    /** HERMES_SHELL (issue 53). */
    shell?: boolean;
    /** HERMES_DESK_DELAY (issue 51). */
    deskDelayMs?: number;
    /** Rich messages in the in-memory Telegram (memory-telegram.ts); absent: none, as with HERMES_RICH=off. */
    rich?: "supported" | "refused";
  } = {},
) {
  const telegram = new MemoryTelegram(options.rich ? { rich: options.rich } : {});
  const opencode = new FakeOpencode();
  const bridge = new Bridge({
    telegram,
    registry: new Registry(),
    logger: options.logger ?? pino({ level: "silent" }),
    access: { chatId: CHAT, allowedUsers: options.allowedUsers ?? [] },
    ...(options.transcription ? { transcription: options.transcription } : {}),
    ...(options.transcribeTimeoutMs !== undefined ? { transcribeTimeoutMs: options.transcribeTimeoutMs } : {}),
    ...(options.loadTranscriber ? { loadTranscriber: options.loadTranscriber } : {}),
    questionTtlMs: options.ttlMs ?? 0,
    permissionTtlMs: options.permissionTtlMs ?? 0,
    textQuietMs: 20,
    pacing: false,
    doneGraceMs: 10,
    ...(options.notices ? { notices: options.notices } : {}),
    ...(options.progress ? { progress: true } : {}),
    ...(options.schedules ? { schedules: options.schedules } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.runBudget !== undefined ? { runBudget: options.runBudget } : {}),
    ...(options.shell !== undefined ? { shell: options.shell } : {}),
    ...(options.deskDelayMs !== undefined ? { deskDelayMs: options.deskDelayMs } : {}),
    // Long unless the fake stays silent: a reply must be confirmed by its echo, not by the timeout.
    confirmTimeoutMs: options.announce === false ? 50 : 10_000,
  });
  if (options.announce !== false) opencode.announce = (event) => bridge.handleEvent(DIRECTORY, event);
  const link: InstanceLink = { directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) };
  bridge.attach(link);
  let updateId = 0;
  let callbackId = 0;
  const tap = async (message: MemoryMessage, text: string, from = OWNER) => {
    const id = `cb${++callbackId}`;
    await bridge.handleUpdate({
      update_id: ++updateId,
      callback_query: {
        id,
        from: { id: from, first_name: "U" },
        data: telegram.button(message, text).callback_data,
        // As Telegram sends it: the message as it is now, its keyboard included while it has one.
        message: {
          message_id: message.messageId,
          chat: { id: message.chatId, type: "private" },
          ...(message.keyboard.some((row) => row.length > 0) ? { reply_markup: { inline_keyboard: message.keyboard } } : {}),
        },
      },
    });
    return id;
  };
  const say = (text: string, replyTo?: number, from = OWNER) =>
    bridge.handleUpdate({
      update_id: ++updateId,
      message: {
        message_id: 900 + updateId,
        from: { id: from, first_name: "U" },
        chat: { id: CHAT, type: "private" },
        text,
        ...(replyTo ? { reply_to_message: { message_id: replyTo } } : {}),
      },
    });
  const askPermission = async (req: PermissionRequest) => {
    bridge.handleEvent(DIRECTORY, { type: "permission.asked", request: req });
    return vi.waitFor(() => {
      const message = telegram.messages.find((m) => m.text.includes(escapeHtml(req.patterns[0] ?? req.permission)) && m.keyboard.length > 0);
      if (!message) throw new Error("permission not delivered");
      return message;
    });
  };
  const ask = async (req: QuestionRequest) => {
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: req });
    return vi.waitFor(() => {
      const message = telegram.messages.find((m) => m.text.includes(req.questions[0]!.question) && m.keyboard.length > 0);
      if (!message) throw new Error("question not delivered");
      return message;
    });
  };
  const settled = (message: MemoryMessage, status: string) =>
    vi.waitFor(() => {
      expect(message.text).toContain(status);
      expect(message.keyboard).toEqual([]);
    });
  /** The force-reply message, once the bridge listens for replies to it. */
  const forceReply = () =>
    vi.waitFor(() => {
      const message = telegram.messages.find((m) => m.forceReply && !m.deleted);
      if (!message || !bridge.registry.inputFor({ chatId: message.chatId, messageId: message.messageId })) throw new Error("no armed force reply");
      return message;
    });
  return { telegram, opencode, bridge, link, tap, say, ask, askPermission, settled, forceReply };
}

export const permission = (overrides: Partial<PermissionRequest> = {}): PermissionRequest => ({
  id: `per_${++counter}`,
  sessionID: "ses_1",
  permission: "bash",
  patterns: ["echo hello"],
  metadata: { command: "echo hello" },
  always: ["echo *"],
  ...overrides,
});
