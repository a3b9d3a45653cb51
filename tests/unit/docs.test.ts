// The user's documentation holds together: the README stays a five-minute read (at most 2,000
// words), and every relative link in README.md and docs/*.md reaches a file that exists and, when it
// names an #anchor, a heading of that file (GitHub's slugs). Words are counted as `wc -w` counts
// them: every whitespace-separated token of README.md, code blocks, tables and link targets
// included (the strictest count, and the one anybody can repeat in a shell).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const README_WORD_LIMIT = 2000;

const documents = [
  "README.md",
  ...fs
    .readdirSync(path.join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The lines of a Markdown file outside fenced code blocks (``` or ~~~, any fence length). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) fence = opening;
    else if (fence !== undefined && opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening)
      fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines;
}

/** GitHub's heading anchor: lower case, punctuation dropped (letters, digits, `-`, `_` and spaces stay), spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a file's headings give, duplicates numbered as GitHub numbers them (`-1`, `-2`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The targets of Markdown links and images (`[text](target)`, `![alt](target)`) and of HTML `src`/`href`, outside code. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const outsideCode = line.replace(/`[^`]*`/g, "");
    for (const match of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
    for (const match of outsideCode.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(match[1]!);
  }
  return targets;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("README", () => {
  it(`is at most ${README_WORD_LIMIT} words (counted as wc -w counts, code blocks included)`, () => {
    const words = wordCount(fs.readFileSync(path.join(REPO, "README.md"), "utf8"));
    expect(words).toBeGreaterThan(300);
    expect(words).toBeLessThanOrEqual(README_WORD_LIMIT);
  });

  it("starts with the two commands: install and run the demo, then the tests (.ci/run runs npm test)", () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(firstBlock).toMatch(/^npm ci && npm run demo\b/m);
    expect(firstBlock).toMatch(/^npm test\b/m);
  });

  it("shows the picture of the phone and says how to make it again (a script package.json has)", () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/phone\.png\)/);
    expect(readme).toContain("`npm run screenshots`");
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.screenshots).toBe("tsx scripts/screenshots.ts");
    expect(fs.statSync(path.join(REPO, "docs", "phone.png")).size).toBeGreaterThan(10_000);
  });
});

describe("links in README.md and docs/*.md", () => {
  for (const document of documents) {
    it(`${document}: every relative link reaches a file, and every #anchor a heading`, () => {
      const text = fs.readFileSync(path.join(REPO, document), "utf8");
      const broken: string[] = [];
      for (const target of linkTargets(text)) {
        if (external(target)) continue;
        const [file = "", anchor] = target.split("#", 2);
        const resolved = file === "" ? path.join(REPO, document) : path.resolve(path.dirname(path.join(REPO, document)), decodeURIComponent(file));
        if (!resolved.startsWith(REPO) || !fs.existsSync(resolved)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (anchor !== undefined && !anchors(fs.readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor)))
          broken.push(`${target}: no heading with that anchor`);
      }
      expect(broken).toEqual([]);
    });
  }
});

describe("the checks themselves", () => {
  it("slug: GitHub's anchors for headings with code, dots, colons and parentheses", () => {
    expect(slug("Attach mode: bridge a running `opencode serve`")).toBe("attach-mode-bridge-a-running-opencode-serve");
    expect(slug("What differs on OpenCode 2 (measured on 2.0.15)")).toBe("what-differs-on-opencode-2-measured-on-2015");
    expect(slug("How OpenCode installs a plugin named in opencode.json")).toBe("how-opencode-installs-a-plugin-named-in-opencodejson");
  });

  it("anchors skip headings inside code fences and number duplicates", () => {
    const set = anchors("# A\n````md\n## Inside\n```ts\nx\n```\n````\n## A\n# Out\n");
    expect([...set]).toEqual(["a", "a-1", "out"]);
  });

  it("linkTargets finds links and images, not those inside code", () => {
    expect(linkTargets('see [x](docs/a.md#b) and ![p](docs/p.png) but not `[y](z.md)`\n```\n[q](w.md)\n```\n<img src="i.png">')).toEqual([
      "docs/a.md#b",
      "docs/p.png",
      "i.png",
    ]);
  });
});

// docs/telegram-data.md is the one page of what leaves the machine: every file Hermes attaches to a
// message (a name written in lib/ as a string literal, such as "changes.diff") is named there.
describe("docs/telegram-data.md", () => {
  const page = fs.readFileSync(path.join(REPO, "docs", "telegram-data.md"), "utf8");
  const sent = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts"))
        for (const match of fs.readFileSync(full, "utf8").matchAll(/"([a-z][a-z-]*\.(?:txt|diff|md))"/g)) sent.add(match[1]!);
    }
  };
  walk(path.join(REPO, "lib"));
  // The name given to a file from the phone that came without one: received, never sent.
  sent.delete("file.txt");

  it("names every file Hermes attaches", () => {
    expect(sent.size).toBeGreaterThanOrEqual(7);
    for (const name of sent) expect(page, name).toContain(`\`${name}\``);
  });
});
