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

/** Escapes `text` for HTML, cut (on code points, marked "…") so the escaped result is at most `max` long. */
export function escapeWithin(text: string, max: number): string {
  const escaped = escapeHtml(text);
  if (escaped.length <= max) return escaped;
  let out = "";
  for (const char of text) {
    const next = escapeHtml(char);
    if (out.length + next.length + 1 > max) break;
    out += next;
  }
  return out + "…";
}

/**
 * Cuts Telegram HTML to at most `max` UTF-16 units (Telegram counts those): never inside a tag,
 * an entity or a surrogate pair, and closes every tag still open at the cut.
 */
export function cutHtml(html: string, max: number = MESSAGE_LIMIT): string {
  if (html.length <= max) return html;
  const ellipsis = "…";
  const markup = /<\/?([a-z-]+)[^>]*>|&[#a-z0-9]+;/iy;
  const open: string[] = [];
  const closers = () => open.map((tag) => `</${tag}>`).reverse().join("");
  let closingLength = 0;
  let end = 0;
  let index = 0;
  while (index < html.length) {
    markup.lastIndex = index;
    const match = markup.exec(html);
    const token = match ? match[0] : String.fromCodePoint(html.codePointAt(index)!);
    const tag = match?.[1]?.toLowerCase();
    let nextOpen = open;
    if (tag && token.startsWith("</")) {
      const at = open.lastIndexOf(tag);
      nextOpen = at === -1 ? open : open.slice(0, at);
    } else if (tag) {
      nextOpen = [...open, tag];
    }
    const nextClosing = nextOpen === open ? closingLength : nextOpen.reduce((sum, name) => sum + name.length + 3, 0);
    if (index + token.length + nextClosing + ellipsis.length > max) break;
    open.splice(0, open.length, ...nextOpen);
    closingLength = nextClosing;
    index += token.length;
    end = index;
  }
  return html.slice(0, end) + ellipsis + closers();
}
