// Questions with more options than one keyboard should hold are shown a page at a time: the
// message lists the page's options (numbered as in the whole list) and ◀ ▶ turn the page.
// Telegram rejects an inline keyboard over 100 buttons (and rows over 8); a page of 50 options
// plus Done, Type an answer, Dismiss and the two page buttons stays well inside both. Pure.

export const OPTIONS_PER_PAGE = 50;
/** Callback data carries option indexes up to 999 (codec.ts): options past that can't be offered. */
const MAX_OPTIONS = 1000;

export function pageCount(optionCount: number): number {
  return Math.max(1, Math.ceil(Math.min(optionCount, MAX_OPTIONS) / OPTIONS_PER_PAGE));
}

/** The options a page shows: [start, end) in the whole list. */
export function pageRange(page: number, optionCount: number): { start: number; end: number } {
  const last = pageCount(optionCount) - 1;
  const start = Math.min(Math.max(0, page), last) * OPTIONS_PER_PAGE;
  return { start, end: Math.min(start + OPTIONS_PER_PAGE, optionCount, MAX_OPTIONS) };
}
