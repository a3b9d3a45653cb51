import { describe, expect, it } from "vitest";
import { cutHtml, cutText, escapeHtml, graphemeEnd, graphemeStart, graphemes, MESSAGE_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks that `html` is well-formed Telegram HTML: complete tags, balanced, complete entities, no lone surrogates. */
function wellFormed(html: string): string[] {
  const errors: string[] = [];
  if (LONE_SURROGATE.test(html)) errors.push("lone surrogate");
  const stack: string[] = [];
  const pattern = /<(\/?)([a-z-]+)[^<>]*>|&[#a-z0-9]+;|[<>&]/gi;
  for (const match of html.matchAll(pattern)) {
    const token = match[0];
    if (token === "<" || token === ">" || token === "&") {
      errors.push(`stray ${token} at ${match.index}`);
    } else if (token.startsWith("<")) {
      const name = match[2]!.toLowerCase();
      if (match[1]) {
        if (stack.pop() !== name) errors.push(`unbalanced </${name}>`);
      } else stack.push(name);
    }
  }
  if (stack.length) errors.push(`unclosed ${stack.join(",")}`);
  return errors;
}

/** Splits a cut result into the kept prefix of the input, the ellipsis and the closing tags. */
function anatomy(result: string) {
  const closers = /(?:<\/[a-z-]+>)*$/i.exec(result)![0];
  const body = result.slice(0, result.length - closers.length);
  return { closers, endsWithEllipsis: body.endsWith("…"), prefix: body.slice(0, -1) };
}

describe("escapeHtml", () => {
  it("escapes the characters Telegram's HTML parser reads", () => {
    expect(escapeHtml(`<b>"Tom" & 'Jerry'</b>`)).toBe("&lt;b&gt;&quot;Tom&quot; &amp; 'Jerry'&lt;/b&gt;");
  });

  it("escapes & first, so existing entities are shown literally", () => {
    expect(escapeHtml("&amp; &lt;")).toBe("&amp;amp; &amp;lt;");
  });

  it("leaves other text, emoji and CJK alone", () => {
    expect(escapeHtml("héllo 😀 漢字 \n\t")).toBe("héllo 😀 漢字 \n\t");
    expect(escapeHtml("")).toBe("");
  });

  it("produces well-formed HTML from any text", () => {
    const nasty = `<script>alert("x")</script> <a href="javascript:x">&#60;</a> &nbsp; <<>> &&`;
    const escaped = escapeHtml(nasty);
    expect(escaped).not.toMatch(/[<>"]/);
    expect(wellFormed(escaped)).toEqual([]);
  });
});

describe("cutText", () => {
  it("leaves text within the limit untouched", () => {
    expect(cutText("hello", 5)).toBe("hello");
    expect(cutText("hello", 100)).toBe("hello");
    expect(cutText("", 0)).toBe("");
    expect(cutText("", 3)).toBe("");
  });

  it("cuts to exactly max characters, ending with an ellipsis", () => {
    expect(cutText("hello world", 5)).toBe("hell…");
    expect(Array.from(cutText("x".repeat(1000), 200))).toHaveLength(200);
  });

  it("counts UTF-16 units (as Telegram does) and never splits a surrogate pair", () => {
    expect(cutText("😀😀😀", 6)).toBe("😀😀😀");
    expect(cutText("😀😀😀😀", 6)).toBe("😀😀…");
    expect(cutText("漢字漢字漢字", 4)).toBe("漢字漢…");
    expect(cutText("a𝒳b𝒳c", 4)).toBe("a𝒳…");
    for (let max = 1; max < 12; max++) expect(cutText("😀a😀b😀c😀d😀e😀f", max)).not.toMatch(LONE_SURROGATE);
  });

  it("max 1 leaves only the ellipsis", () => {
    expect(cutText("abc", 1)).toBe("…");
  });

  it("never splits what the user sees as one character: ZWJ families, flags, skin tones, accents", () => {
    const family = "👨‍👩‍👧"; // 5 code points, 8 UTF-16 units
    expect(cutText(family + family, 10)).toBe(`${family}…`);
    expect(cutText(family + family, 8)).toBe("…");
    expect(cutText("🇫🇷🇩🇪🇯🇵", 6)).toBe("🇫🇷…");
    expect(cutText("👍🏽👍🏽", 5)).toBe("👍🏽…");
    expect(cutText("e\u0301e\u0301e\u0301", 4)).toBe("e\u0301…");
    for (let max = 1; max < 20; max++) {
      const cut = cutText(`${family}🇫🇷👍🏽${family}`, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      for (const part of graphemes(cut.replace(/…$/, ""))) expect([family, "🇫🇷", "👍🏽"]).toContain(part);
    }
  });
});

describe("graphemeStart and graphemeEnd", () => {
  it("move an index to the nearest grapheme boundary after or before it", () => {
    expect(graphemeStart("hello", 2)).toBe(2);
    expect(graphemeStart("a🇫🇷🇫🇷", 2)).toBe(5);
    expect(graphemeEnd("a🇫🇷🇫🇷", 2)).toBe(1);
    expect(graphemeEnd("a🇫🇷🇫🇷", 8)).toBe(5);
    expect([graphemeStart("ab", -1), graphemeStart("ab", 9), graphemeEnd("ab", -1), graphemeEnd("ab", 9)]).toEqual([0, 2, 0, 2]);
  });

  it("deep inside long text they segment only a window, and flags stay paired", () => {
    const flags = "🇫🇷".repeat(300);
    expect(graphemeStart(flags, 601)).toBe(604);
    expect(graphemeEnd(flags, 601)).toBe(600);
    const families = `x${"👨‍👩‍👧".repeat(200)}`;
    expect(graphemeStart(families, 805)).toBe(809);
    expect(graphemeEnd(families, 805)).toBe(801);
  });
});

describe("visibleLength", () => {
  it("counts what Telegram counts: tags removed, entities as one, UTF-16 units", () => {
    expect(visibleLength("<b>a &amp; b</b> 😀")).toBe(8);
    expect(visibleLength("&#128512;&lt;")).toBe(3);
  });
});

describe("cutHtml", () => {
  it("leaves short input untouched, even with tags and entities", () => {
    const html = "<b>a &amp; b</b> 😀";
    expect(cutHtml(trustedHtml(html), html.length)).toBe(html);
    expect(cutHtml(trustedHtml(html))).toBe(html);
    expect(cutHtml(trustedHtml(""))).toBe("");
  });

  it("defaults to Telegram's 4096 limit", () => {
    expect(MESSAGE_LIMIT).toBe(4096);
    const cut = cutHtml(trustedHtml("x".repeat(5000)));
    expect(cut).toHaveLength(4096);
    expect(cut.endsWith("…")).toBe(true);
    expect(cutHtml(trustedHtml("x".repeat(4096)))).toBe("x".repeat(4096));
  });

  it("cuts plain text to exactly max, with the ellipsis", () => {
    expect(cutHtml(trustedHtml("abcdefghij"), 5)).toBe("abcd…");
  });

  it("closes open tags after the ellipsis", () => {
    expect(cutHtml(trustedHtml("<b>abcdefghijklmnop</b>"), 12)).toBe("<b>abcd…</b>");
    expect(cutHtml(trustedHtml("<b><i>abcdefghijklmnop</i></b>"), 20)).toBe("<b><i>abcde…</i></b>");
  });

  it("does not reopen tags that were closed before the cut", () => {
    const cut = cutHtml(trustedHtml("<b>ab</b>cdefghijklmnop"), 12);
    expect(cut).toBe("<b>ab</b>cd…");
  });

  it("never cuts inside a tag", () => {
    const html = `<a href="https://example.org/very/long/path">link</a>${"x".repeat(100)}`;
    for (let max = 1; max < 70; max++) {
      const cut = cutHtml(trustedHtml(html), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(wellFormed(cut)).toEqual([]);
    }
  });

  it("never cuts inside an entity", () => {
    const html = "&amp;&lt;&gt;&quot;&#128512;&#x1F600;".repeat(10);
    for (let max = 1; max < 60; max++) {
      const cut = cutHtml(trustedHtml(html), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(wellFormed(cut)).toEqual([]);
      expect(anatomy(cut).prefix).toMatch(/^(?:&[#a-z0-9]+;)*$/i);
    }
  });

  it("never cuts inside a surrogate pair", () => {
    const html = "😀".repeat(50);
    for (let max = 1; max < 30; max++) {
      const cut = cutHtml(trustedHtml(html), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).not.toMatch(LONE_SURROGATE);
    }
    expect(cutHtml(trustedHtml(`a${"😀".repeat(10)}`), 4)).toBe("a😀…");
    expect(cutHtml(trustedHtml(`a${"😀".repeat(10)}`), 5)).toBe("a😀…");
  });

  it("counts UTF-16 units, as Telegram does", () => {
    const cut = cutHtml(trustedHtml("😀".repeat(3000)));
    expect(cut.length).toBeLessThanOrEqual(4096);
    expect(cut.length).toBeGreaterThan(4090);
  });

  // BUG: cutHtml throws "TypeError: Cannot read properties of null (reading '1')" as soon as it
  // has to step over a literal '<' that starts no tag ("I <3 it", "a <= b", "<b" without '>'):
  // the fallback one-character token "<" is taken for a tag and the tag-name regex returns null
  // (lib/text/html.ts:29-30). renderQuestion escapes every text today, so this is latent, but
  // a cutting helper must not throw. Fix: `const isTag = token.length > 1 && token.startsWith("<")`.
  it("treats a '<' that starts no tag as a character instead of throwing", () => {
    expect(cutHtml(trustedHtml("1 <3 2 and 3 > 2 ".repeat(3)), 10)).toBe("1 <3 2 an…");
  });

  // BUG: a closing tag that isn't open makes cutHtml forget the innermost open tag:
  // `open.lastIndexOf(name)` is -1 and `open.slice(0, -1)` drops it, so "<b>" is left unclosed.
  // Not reachable from renderQuestion today (it only builds balanced tags), but it breaks the
  // "closes every tag still open at the cut" contract. lib/text/html.ts:31; fix: when
  // `open.lastIndexOf(name) === -1`, keep `open` unchanged.
  it("keeps closing the open tags when the input has a stray closing tag", () => {
    expect(cutHtml(trustedHtml(`<b>x</i>${"y".repeat(20)}`), 16)).toBe("<b>x</i>yyy…</b>");
  });

  // BUG: cutHtml is O(max × input length): each step calls `Array.from(rest)` on the whole rest of
  // the input (lib/text/html.ts:28) just to take one code point, and `html.slice(index)` too.
  // Cutting 100k characters to 4096 takes ~2.5 s, blocking OpenCode's event loop (the plugin runs
  // in-process) on every render of a question with many long options. Fix: read one code point
  // with `String.fromCodePoint(html.codePointAt(index)!)` and match tags/entities with a sticky
  // regex (`/<\/?[a-z-]+[^>]*>|&[#a-z0-9]+;/iy` with lastIndex = index) instead of slicing.
  it("cuts a 100k-character message to exactly the limit", () => {
    const cut = cutHtml(trustedHtml("x".repeat(100_000)));
    expect(cut).toHaveLength(4096);
    expect(cut.endsWith("…")).toBe(true);
  });

  describe("property: random HTML built from tags, entities, emoji and CJK", () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const TAGS = ["b", "i", "u", "s", "code", "pre", "tg-spoiler"] as const;
    const ATOMS = [
      "a",
      "word",
      " ",
      "\n",
      "&amp;",
      "&lt;",
      "&gt;",
      "&quot;",
      "&#39;",
      "&#x1F600;",
      "😀",
      "👍🏽",
      "👨‍👩‍👧",
      "漢字",
      "한국어",
      "é",
      "𝒳",
      "→",
      "…",
    ] as const;

    function randomHtml(depth: number): string {
      let out = "";
      const parts = 1 + random(8);
      for (let index = 0; index < parts; index++) {
        const roll = random(10);
        if (roll < 3 && depth < 4) {
          const tag = pick(TAGS);
          out += `<${tag}>${randomHtml(depth + 1)}</${tag}>`;
        } else if (roll === 3 && depth < 4) {
          out += `<a href="https://e.org/${random(1000)}?a=1&amp;b=2">${randomHtml(depth + 1)}</a>`;
        } else {
          for (let count = random(6); count >= 0; count--) out += pick(ATOMS);
        }
      }
      return out;
    }

    it("holds the invariants over 1500 random inputs and limits", () => {
      let cuts = 0;
      for (let run = 0; run < 1500; run++) {
        const html = randomHtml(0);
        expect(wellFormed(html)).toEqual([]);
        const max = 1 + random(html.length + 10);
        const cut = cutHtml(trustedHtml(html), max);
        // Never over the limit.
        expect(cut.length).toBeLessThanOrEqual(max);
        // Never inside a tag, an entity or a surrogate pair; every open tag closed.
        expect(wellFormed(cut)).toEqual([]);
        if (html.length <= max) {
          expect(cut).toBe(html);
          continue;
        }
        cuts++;
        // What is kept is a prefix of the input, followed by the ellipsis and the closing tags.
        const { prefix, endsWithEllipsis } = anatomy(cut);
        expect(endsWithEllipsis).toBe(true);
        expect(html.startsWith(prefix)).toBe(true);
      }
      expect(cuts).toBeGreaterThan(500);
    });

    it("is idempotent: cutting a cut changes nothing", () => {
      for (let run = 0; run < 300; run++) {
        const html = randomHtml(0);
        const max = 1 + random(html.length + 5);
        const once = cutHtml(trustedHtml(html), max);
        expect(cutHtml(once, max)).toBe(once);
      }
    });
  });
});
