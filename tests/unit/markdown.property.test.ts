// Property test over generated Markdown (a seeded generator: a failure names its seed and case):
// headings, paragraphs with nested emphasis, code spans and links, nested lists, fenced code
// (closed or not) holding <T>, && and </pre>, tables, quotes, rules, raw HTML, CJK and emoji,
// short answers and 20k-character ones. For each: the Done notice and a question showing it are
// valid Telegram HTML (the fake Telegram's parser, plus Telegram's nesting rules), within the
// message limit as Telegram counts it, and every word of the source is in the message, or the
// message says it was shortened (the whole source then goes as answer.md) and shows the end.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { ANSWER_FILE } from "../../lib/telegram/render/render-agent-text.ts";
import { renderNotice } from "../../lib/telegram/render/render-notice.ts";
import { renderQuestion } from "../../lib/telegram/render/render-question.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";
import { MAX_TEXT } from "../support/telegram/validate.ts";
import { seededRandom } from "../support/seeded-random.ts";

const SEED = 20261125;
const CASES = 100;

function generator(seed: number) {
  const { next, int, pick } = seededRandom(seed);
  /** Every word the source shows; the test looks for each in what the phone shows. */
  const words: string[] = [];
  const WORDS = ["parser", "fixed", "tests", "build42", "lexer", "配置", "完成了", "测试通过", "😀", "👨‍👩‍👧", "🇫🇷", "naïve", "é", "Ω", "x", "deploy"];
  const word = () => {
    const chosen = `${pick(WORDS)}${int(1000)}`;
    words.push(chosen);
    return chosen;
  };
  const phrase = (count: number) => Array.from({ length: 1 + int(count) }, word).join(" ");
  const inline = (depth = 0): string => {
    const kind = depth > 2 ? 0 : int(9);
    switch (kind) {
      case 1:
        return `**${inline(depth + 1)}**`;
      case 2:
        return `*${inline(depth + 1)}*`;
      case 3:
        // Not nested: "~~~~" at a line's start opens a code fence (CommonMark).
        return `~~${phrase(3)}~~`;
      case 4:
        return `\`${word()} <T> && </pre>\``;
      case 5:
        return `[${inline(depth + 1)}](${pick(["https://example.com/a_(b)", "http://x.io/?q=1&r=<2>", "tg://resolve?domain=x", "javascript:alert(1)", "lib/a.ts"])})`;
      case 6:
        // After a word: at a line's start "<pre" or "<script" opens a raw HTML block (CommonMark), shown as it is.
        return `${word()} <${pick(["b", "script", "pre", "a href=x"])}>${word()}</${pick(["b", "pre"])}>`;
      case 7:
        return `${word()} & ${word()} < ${word()} > "${word()}"`;
      default:
        return phrase(6);
    }
  };
  const paragraph = () => Array.from({ length: 1 + int(4) }, () => inline()).join(" ");
  const list = (depth: number): string =>
    Array.from({ length: 1 + int(4) }, (_, index) => {
      const marker = gen.ordered ? `${index + 1}.` : pick(["-", "*", "- [ ]", "- [x]"]);
      const item = `${"   ".repeat(depth)}${marker} ${paragraph()}`;
      return depth < 3 && next() < 0.3 ? `${item}\n${list(depth + 1)}` : item;
    }).join("\n");
  const block = (last: boolean): string => {
    switch (int(9)) {
      case 0:
        return `${"#".repeat(1 + int(6))} ${paragraph()}`;
      case 1:
        gen.ordered = next() < 0.5;
        return list(0);
      case 2: {
        const fence = `\`\`\`${pick(["ts", "tsx", "bash", "", "c++", "<x>"])}\n${Array.from({ length: 1 + int(30) }, () => `${word()}<T> && </pre> ${word()}`).join("\n")}`;
        return last && next() < 0.5 ? fence : `${fence}\n\`\`\``;
      }
      case 3: {
        const columns = 1 + int(4);
        const row = () => `| ${Array.from({ length: columns }, () => phrase(2)).join(" | ")} |`;
        return [row(), `|${" --- |".repeat(columns)}`, ...Array.from({ length: int(6) }, row)].join("\n");
      }
      case 4:
        return Array.from({ length: 1 + int(8) }, () => `> ${next() < 0.2 ? "> " : ""}${paragraph()}`).join("\n");
      case 5:
        return "---";
      default:
        return paragraph();
    }
  };
  const gen = {
    ordered: false,
    words,
    int,
    document(): string {
      words.length = 0;
      const size = pick([1, 3, 8, 40, 200]);
      return Array.from({ length: size }, (_, index) => block(index === size - 1)).join("\n\n");
    },
  };
  return gen;
}

/** Telegram's nesting rules beyond the fake's: no quote in a quote, nothing but b/i/s inside a link. */
function nestingProblem(html: string): string | undefined {
  const stack: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z-]+)[^>]*>/g)) {
    const [, closing, name] = match;
    if (closing) {
      stack.pop();
      continue;
    }
    if (name === "blockquote" && stack.includes("blockquote")) return "a quote inside a quote";
    if (stack.includes("a") && !["b", "i", "s"].includes(name!)) return `<${name}> inside a link`;
    if (name === "a" && stack.includes("a")) return "a link inside a link";
    stack.push(name!);
  }
  return undefined;
}

function checked(html: string, what: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`${what}: invalid HTML: ${parsed.error}`);
  expect(nestingProblem(html), what).toBeUndefined();
  expect(parsed.plain.length, `${what}: visible length`).toBeLessThanOrEqual(MAX_TEXT);
  return parsed.plain;
}

describe("generated Markdown: valid Telegram HTML, within the limits, nothing lost", async () => {
  const markdown = await loadMarkdown();
  for (const language of ["en", "zh"] as const) {
    const t = CATALOGS[language];

    it(`Done notices (${language})`, () => {
      const gen = generator(SEED + (language === "zh" ? 1 : 0));
      let shortened = 0;
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${SEED} ${language} case ${index}`;
        const source = gen.document();
        const words = [...gen.words];
        const notice = renderNotice({ kind: "done", sessionID: "s", busyMs: 60_000, lastText: source }, { project: "p", t, markdown });
        const plain = checked(notice.html, what);
        // Fences always parse (emphasis may legitimately stay literal: "***~~x~~***" does in CommonMark too).
        expect(notice.html, what).not.toContain("```");
        if (!notice.shortened) {
          for (const word of words) expect(plain, `${what}: ${word}`).toContain(word);
          continue;
        }
        // The whole source goes as the file; the message says so and ends with the answer's end.
        shortened++;
        expect(plain, what).toContain(ANSWER_FILE);
        const lastWord = words.at(-1)!;
        expect(plain, `${what}: the end is shown`).toContain(lastWord);
      }
      // The generator reaches both sides.
      expect(shortened).toBeGreaterThan(5);
      expect(shortened).toBeLessThan(CASES - 5);
    });

    it(`questions and option descriptions (${language})`, () => {
      const gen = generator(SEED + 10 + (language === "zh" ? 1 : 0));
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${SEED} ${language} question ${index}`;
        const question = gen.document();
        const words = [...gen.words];
        const options = Array.from({ length: gen.int(6) }, (_, option) => ({ label: `Option ${option}`, description: gen.document() }));
        const prompt = createQuestionPrompt(
          { id: `que_${index}`, sessionID: "s", questions: [{ question, header: "Pick", options, multiple: false, custom: false }] },
          "/p",
          "KeyKey12",
          0,
        );
        const message = renderQuestion(prompt, { project: "p", t, markdown });
        const plain = checked(message.text, what);
        if (!message.text.includes(t.question.cut)) for (const word of words) expect(plain, `${what}: ${word}`).toContain(word);
      }
    });
  }
});
