// The in-memory map from OpenCode requestID to everything Hermes tracks about that prompt.
// One per process (shared by every plugin instance). No I/O here.
import { randomBytes } from "node:crypto";
import type { PermissionRequest, QuestionRequest } from "../hermes-events.ts";
import { createPermissionPrompt, type PermissionPrompt } from "./permission-prompt.ts";
import type { MessageRef } from "./prompt.ts";
import { createQuestionPrompt, type QuestionPrompt } from "./question-prompt.ts";
import { SessionIndex } from "./sessions.ts";

export type Prompt = QuestionPrompt | PermissionPrompt;

/** A request for typed text (a free-text answer, or a reject's feedback) waiting for the user. */
export interface TextInput {
  key: string;
  /** Which question of a question prompt the text answers (0 for a permission's feedback). */
  questionIndex: number;
  /** The force-reply message the user answers to. */
  message: MessageRef;
}

/** Which session a Hermes message belongs to, so a reply to it can reach that session. */
export interface MessageOwner {
  sessionID: string;
  directory: string;
}

const REMEMBERED_MESSAGES = 2_000;
const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const KEY_LENGTH = 8;

/** Random, so a button from before a restart can never match a new prompt. */
export function newPromptKey(random: (size: number) => Uint8Array = randomBytes): string {
  return Array.from(random(KEY_LENGTH), (byte) => KEY_ALPHABET[byte % KEY_ALPHABET.length]).join("");
}

export class Registry {
  readonly sessions = new SessionIndex();
  readonly #byRequest = new Map<string, Prompt>();
  readonly #byKey = new Map<string, Prompt>();
  readonly #inputs = new Map<string, TextInput>();
  readonly #owners = new Map<string, MessageOwner>();
  readonly #newKey: () => string;

  constructor(newKey: () => string = () => newPromptKey()) {
    this.#newKey = newKey;
  }

  /** Adds a question unless it is known already (two plugin instances can report the same event). */
  addQuestion(request: QuestionRequest, directory: string, now: number): QuestionPrompt | undefined {
    return this.#add(request.id, (key) => createQuestionPrompt(request, directory, key, now));
  }

  addPermission(request: PermissionRequest, directory: string, now: number): PermissionPrompt | undefined {
    return this.#add(request.id, (key) => createPermissionPrompt(request, directory, key, now));
  }

  #add<T extends Prompt>(requestID: string, create: (key: string) => T): T | undefined {
    if (this.#byRequest.has(requestID)) return undefined;
    let key = this.#newKey();
    while (this.#byKey.has(key)) key = this.#newKey();
    const prompt = create(key);
    this.#byRequest.set(requestID, prompt);
    this.#byKey.set(key, prompt);
    return prompt;
  }

  byRequest(requestID: string): Prompt | undefined {
    return this.#byRequest.get(requestID);
  }

  byKey(key: string): Prompt | undefined {
    return this.#byKey.get(key);
  }

  all(): Prompt[] {
    return [...this.#byRequest.values()];
  }

  pending(): Prompt[] {
    return this.all().filter((prompt) => prompt.state === "pending");
  }

  pendingIn(directory: string): Prompt[] {
    return this.pending().filter((prompt) => prompt.directory === directory);
  }

  /** Forgets a finished prompt and its inputs; its message already shows the outcome. */
  forget(prompt: Prompt): void {
    this.#byRequest.delete(prompt.requestID);
    this.#byKey.delete(prompt.key);
    for (const [id, input] of this.#inputs) if (input.key === prompt.key) this.#inputs.delete(id);
  }

  /** Remembers the session of a message Hermes sent (the oldest are forgotten past a bound). */
  noteMessage(message: MessageRef, owner: MessageOwner): void {
    const id = messageId(message);
    this.#owners.delete(id);
    this.#owners.set(id, owner);
    if (this.#owners.size > REMEMBERED_MESSAGES) this.#owners.delete(this.#owners.keys().next().value!);
  }

  ownerOf(message: MessageRef): MessageOwner | undefined {
    return this.#owners.get(messageId(message));
  }

  armInput(input: TextInput): void {
    this.#inputs.set(messageId(input.message), input);
  }

  inputFor(message: MessageRef): TextInput | undefined {
    return this.#inputs.get(messageId(message));
  }

  inputsIn(chatId: number): TextInput[] {
    return [...this.#inputs.values()].filter((input) => input.message.chatId === chatId);
  }

  disarmInputs(key: string): TextInput[] {
    const removed: TextInput[] = [];
    for (const [id, input] of this.#inputs) {
      if (input.key !== key) continue;
      this.#inputs.delete(id);
      removed.push(input);
    }
    return removed;
  }
}

function messageId(message: MessageRef): string {
  return `${message.chatId}:${message.messageId}`;
}
