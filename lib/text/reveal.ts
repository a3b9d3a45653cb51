// Shows text an attacker may have written (a prompt-injected LLM writes commands, paths, patterns
// and questions) as what it is: invisible, bidi, zero-width and control characters, odd spaces and
// long runs of blanks (a blank's combining marks counted with it) or line breaks become visible
// markers ("⟨U+202E⟩", "⟨1480 spaces⟩"), so
// nothing can push text out of view, hide it or reorder it. Emoji sequences stay as they are. Pure.

/**
 * The markers' words, in the chat's language: the catalog's `reveal` part (lib/i18n/strings.ts).
 * Named here by shape, not imported: the catalog's strings are Telegram HTML, so lib/i18n/ stands
 * on this folder, not under it (docs/architecture.md).
 */
export interface RevealWords {
  reveal: {
    spaces: (count: number) => string;
    tabs: (count: number) => string;
    blanks: (spaces: number, tabs: number) => string;
    lineBreaks: (count: number) => string;
  };
}

/** Runs of blanks longer than this (in columns, a tab counting 8) become a marker. */
const BLANK_RUN = 8;
/** More line breaks in a row than this become a marker. */
const LINE_BREAK_RUN = 2;
const TAB_WIDTH = 8;

/** An emoji with its modifiers, variation selectors, tags and ZWJ joins; a flag; a keycap. Kept whole. */
const EMOJI =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: on purpose, the marks after an emoji (VS15, VS16, U+20E3) one code point each
  /\p{Extended_Pictographic}(?:[\p{Emoji_Modifier}\uFE0E\uFE0F\u20E3]|[\u{E0020}-\u{E007E}]+\u{E007F}|\u200D\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0E\uFE0F]?)*|\p{Regional_Indicator}{2}|[0-9#*]\uFE0F?\u20E3/uy;
/** Characters that show nothing, reorder text, or look like a plain space: always marked. */
const HIDDEN =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: on purpose, the combining marks (U+034F, VS1-VS16) match alone
  /[\p{Cc}\p{Cf}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0\u2800\u034F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
/** A run of blanks, each with the combining marks on it (a mark must not split a run into short ones). */
const BLANKS = /(?:[ \t]\p{M}*)+/uy;
const BLANKS_ALL = new RegExp(BLANKS.source, "gu");
/** Printable ASCII, single line breaks and spaces: nothing to mark (runs are checked where they end). */
const PLAIN = /(?:[\x21-\x7E](?![\uFE0E\uFE0F\u20E3])| (?! {8})(?!\p{M})|\n(?!\n))+/uy;
const LINE_BREAKS = /\n+/y;

/** `runs: false` keeps blank runs and line breaks as they are (an agent's prose and code), marking only hidden characters. */
export function reveal(text: string, t: RevealWords, runs = true): string {
  let out = "";
  let index = 0;
  while (index < text.length) {
    // Plain printable ASCII and short blank runs are copied as they are, in one go.
    PLAIN.lastIndex = index;
    const plain = PLAIN.exec(text);
    if (plain) {
      let end = index + plain[0].length;
      // A long blank run is counted from its first blank, even if that was copied as plain.
      if (end < text.length && (text[end] === " " || text[end] === "\t")) while (end > index && text[end - 1] === " ") end--;
      if (end > index) {
        out += text.slice(index, end);
        index = end;
        continue;
      }
    }
    const emoji = matchAt(EMOJI, text, index);
    if (emoji) {
      out += emoji;
      index += emoji.length;
      continue;
    }
    const blanks = runs ? matchAt(BLANKS, text, index) : undefined;
    if (blanks) {
      out += showBlanks(blanks, t);
      index += blanks.length;
      continue;
    }
    const breaks = runs ? matchAt(LINE_BREAKS, text, index) : undefined;
    if (breaks) {
      out += breaks.length > LINE_BREAK_RUN ? `\n${t.reveal.lineBreaks(breaks.length)}\n` : breaks;
      index += breaks.length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(index)!);
    out += HIDDEN.test(char) && (runs || (char !== "\n" && char !== "\t")) ? codePointMarker(char) : char;
    index += char.length;
  }
  return out;
}

/** A file's name as the phone shows it (a document's name is plain text): revealed, a line break marked too. */
export function revealFileName(name: string, t: RevealWords): string {
  return reveal(name, t).replaceAll("\n", codePointMarker("\n"));
}

/** In a diff, indentation up to this many columns (a tab counting 8) is ordinary and shown as it is. */
const DIFF_INDENT = 48;
/** In a diff, a run of blanks after a line's first non-blank this long (alignment) is still shown as it is. */
const DIFF_INNER_RUN = 16;

/**
 * A diff as it is, hidden characters marked, but a run of blanks that could push code out of view
 * is marked as a command's is (`⟨400 spaces⟩`): indentation past DIFF_INDENT columns, or a run past
 * DIFF_INNER_RUN columns later in a line. Each line's first character (the diff's `+`, `-` or ` `)
 * is not indentation. Line breaks stay as they are.
 */
export function revealDiff(diff: string, t: RevealWords): string {
  const lines = diff.split("\n").map((line) => {
    const body = line.slice(1);
    return (
      line.slice(0, 1) + body.replace(BLANKS_ALL, (run, at: number) => (columns(run) > (at === 0 ? DIFF_INDENT : DIFF_INNER_RUN) ? showBlanks(run, t) : run))
    );
  });
  return reveal(lines.join("\n"), t, false);
}

/** Columns of a run: its spaces, and its tabs at TAB_WIDTH (the combining marks on them take none). */
function columns(run: string): number {
  const { spaces, tabs } = blanksOf(run);
  return spaces + tabs * TAB_WIDTH;
}

function blanksOf(run: string): { spaces: number; tabs: number } {
  let spaces = 0;
  let tabs = 0;
  for (const char of run) {
    if (char === " ") spaces++;
    else if (char === "\t") tabs++;
  }
  return { spaces, tabs };
}

/** JSON with every hidden character written as a \u escape: exact, and nothing invisible left. */
export function escapeHiddenInJson(json: string): string {
  // JSON.stringify already escapes controls inside strings: a raw line break is its own layout.
  return json.replace(HIDDEN_ALL, (char) =>
    char === "\n" ? char : Array.from({ length: char.length }, (_, index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`).join(""),
  );
}

function showBlanks(run: string, t: RevealWords): string {
  const { spaces, tabs } = blanksOf(run);
  // A short run as it is, but a hidden mark on it (U+034F, a variation selector) still shown.
  if (columns(run) <= BLANK_RUN) return run.replace(HIDDEN_ALL, (char) => (char === "\t" ? char : codePointMarker(char)));
  if (tabs === 0) return t.reveal.spaces(spaces);
  if (spaces === 0) return t.reveal.tabs(tabs);
  return t.reveal.blanks(spaces, tabs);
}

function codePointMarker(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

function matchAt(pattern: RegExp, text: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0];
}
