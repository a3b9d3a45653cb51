// Telegram HTML: escaping and cutting text to Telegram's limits without breaking tags or entities.

export const MESSAGE_LIMIT = 4096;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Cuts plain text to at most `max` characters (code points never split), marking the cut with "…". */
export function cutText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join("") + "…";
}

/**
 * Cuts Telegram HTML to at most `max` UTF-16 units (Telegram counts those): never inside a tag,
 * an entity or a surrogate pair, and closes every tag still open at the cut.
 */
export function cutHtml(html: string, max: number = MESSAGE_LIMIT): string {
  if (html.length <= max) return html;
  const ellipsis = "…";
  const open: string[] = [];
  let out = "";
  let index = 0;
  while (index < html.length) {
    const rest = html.slice(index);
    const token = /^<\/?[a-z-]+[^>]*>|^&[#a-z0-9]+;/i.exec(rest)?.[0] ?? Array.from(rest)[0]!;
    const isTag = token.startsWith("<");
    const name = isTag ? /^<\/?([a-z-]+)/i.exec(token)![1]!.toLowerCase() : "";
    const nextOpen = isTag ? (token.startsWith("</") ? open.slice(0, open.lastIndexOf(name)) : [...open, name]) : open;
    const closing = nextOpen.slice().reverse().map((tag) => `</${tag}>`).join("");
    if (out.length + token.length + closing.length + ellipsis.length > max) break;
    out += token;
    open.splice(0, open.length, ...nextOpen);
    index += token.length;
  }
  return out + ellipsis + open.slice().reverse().map((tag) => `</${tag}>`).join("");
}
