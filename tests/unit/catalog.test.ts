import { describe, expect, it } from "vitest";
import { CATALOGS, LANGUAGES, languageOf, type Strings } from "../../lib/i18n/catalog.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import { renderQuestion } from "../../lib/telegram/render/render-question.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";

/** Every leaf of a catalogue as [path, text], calling functions with sample arguments. */
function leaves(value: unknown, path = ""): Array<[string, string]> {
  if (typeof value === "string") return [[path, value]];
  if (typeof value === "function") return [[path, String((value as (...args: unknown[]) => unknown)(7, 3))]];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, `${path}[${index}]`));
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => leaves(item, path ? `${path}.${key}` : key));
}

describe("string catalogues", () => {
  const en = leaves(CATALOGS.en);
  const zh = leaves(CATALOGS.zh);

  it("has one catalogue per language listed, and every language a setting can pick is listed", () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LANGUAGES].sort());
    for (const setting of ["en", "zh-CN", ""]) expect(LANGUAGES).toContain(languageOf(setting));
  });

  it("English and Chinese have exactly the same keys", () => {
    expect(zh.map(([path]) => path)).toEqual(en.map(([path]) => path));
    expect(en.length).toBeGreaterThan(100);
  });

  it("no string is empty, and every Chinese string differs from the English one where it is prose", () => {
    for (const [path, text] of [...en, ...zh]) if (!path.startsWith("help.lines")) expect(text.trim(), path).not.toBe("");
    // Prose: words outside tags and not made by the sample arguments (a template of markup alone is no prose).
    const prose = (text: string) => text.replace(/<[^>]*>/g, "").replaceAll("undefined", "");
    const same = zh.filter(([path, text]) => en.find(([p]) => p === path)?.[1] === text && /[a-z]{4,}/i.test(prose(text)));
    expect(same.map(([path]) => path)).toEqual([]);
  });

  it("every string is valid Telegram HTML", () => {
    for (const [path, text] of [...en, ...zh]) {
      const parsed = parseTelegramHtml(text);
      expect(parsed.ok ? "" : `${path}: ${parsed.error}`).toBe("");
    }
  });

  it("renders a prompt in Chinese when asked", () => {
    const prompt = createQuestionPrompt(
      {
        id: "que_1",
        sessionID: "s",
        questions: [{ question: "选哪个？", header: "颜色", options: [{ label: "红", description: "" }], multiple: true, custom: true }],
      },
      "/p",
      "KEYKEYKE",
      0,
    );
    const zhMessage = renderQuestion(prompt, { project: "p", t: CATALOGS.zh as Strings });
    expect(zhMessage.text).toContain("OpenCode 在提问");
    expect(zhMessage.keyboard.flat().map((button) => button.text)).toEqual(["红", "完成", "输入回答", "忽略"]);
  });

  it("picks the language from the setting", () => {
    expect(languageOf(undefined)).toBe("en");
    expect(languageOf("zh-CN")).toBe("zh");
    expect(languageOf("EN_us")).toBe("en");
    expect(languageOf("de")).toBeUndefined();
  });
});
