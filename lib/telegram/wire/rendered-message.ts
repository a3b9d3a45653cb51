// What every renderer produces: a message's HTML text and its inline keyboard (Telegram's own
// field names), a message's rich form beside its HTML where it has one, and the one rule all live
// keyboards share.
import type { Html } from "../../text/html.ts";
import type { RichHtml } from "../../rich/rich-html.ts";

/** A rich message's markup (lib/rich/rich-html.ts), for the bridge's rooms that send one. */
export type { RichHtml };

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

/** A message with a rich form (Bot API 10.1+) beside today's HTML, sent as lib/bridge/core/rich-send.ts says. */
export interface RichRendered extends RenderedMessage {
  rich?: RichHtml | undefined;
}

/** A live keyboard ends with the session's Stop, when there is one. */
export function withStop(keyboard: InlineButton[][], context: { stop?: InlineButton | undefined }): InlineButton[][] {
  return context.stop && keyboard.length > 0 ? [...keyboard, [context.stop]] : keyboard;
}
