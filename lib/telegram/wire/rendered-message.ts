// What every renderer produces: a message's HTML text and its inline keyboard (Telegram's own
// field names), and the one rule all live keyboards share.
import type { Html } from "../../text/html.ts";

/** A button's colour: `success` green, `danger` red, `primary` blue, the only values Telegram accepts. */
export type ButtonStyle = "success" | "danger" | "primary";

export interface InlineButton {
  text: string;
  callback_data: string;
  /** Its colour (see button-style.ts); none is the app's own. */
  style?: ButtonStyle;
}

export interface RenderedMessage {
  /** Telegram HTML (text/html.ts): a renderer builds it with `html`, `escapeHtml`, `joinHtml`. */
  text: Html;
  /** Empty when the prompt is finished: the message keeps no live buttons. */
  keyboard: InlineButton[][];
}

/** A live keyboard ends with the session's Stop, when there is one. */
export function withStop(keyboard: InlineButton[][], context: { stop?: InlineButton | undefined }): InlineButton[][] {
  return context.stop && keyboard.length > 0 ? [...keyboard, [context.stop]] : keyboard;
}
