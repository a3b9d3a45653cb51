// Button colours (InlineKeyboardButton.style, Bot API 9.4) and what to do when a Bot API server
// doesn't know the field: send the same keyboard without colours, and from then on never try again.
import type { InlineButton } from "./rendered-message.ts";

/** The same keyboard, every button without its colour. */
export function withoutStyles(keyboard: InlineButton[][]): InlineButton[][] {
  return keyboard.map((row) => row.map(({ style: _style, ...button }) => button));
}

function hasStyles(keyboard: InlineButton[][] | undefined): boolean {
  return keyboard?.some((row) => row.some((button) => button.style !== undefined)) ?? false;
}

/** A 400 that names the field: the server predates it (anything else is a real error). */
export function refusesStyles(error: unknown): boolean {
  // A TelegramApiError, recognised by shape (api.ts imports this module).
  return error instanceof Error && (error as { code?: unknown }).code === 400 && /\bstyle\b/i.test(error.message);
}

/** Remembers, for one bot client, whether its Bot API server takes coloured buttons. */
export class ButtonStyles {
  #refused = false;

  get refused(): boolean {
    return this.#refused;
  }

  /** Sends with colours unless they were refused before; on a refusal, once more without them. */
  async send<T>(keyboard: InlineButton[][] | undefined, call: (keyboard: InlineButton[][] | undefined) => Promise<T>): Promise<T> {
    if (!keyboard || !hasStyles(keyboard)) return call(keyboard);
    if (this.#refused) return call(withoutStyles(keyboard));
    try {
      return await call(keyboard);
    } catch (error) {
      if (!refusesStyles(error)) throw error;
      this.#refused = true;
      return call(withoutStyles(keyboard));
    }
  }
}
