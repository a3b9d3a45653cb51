// The end-to-end matrix in one place: the pinned OpenCode versions × the chats Hermes posts in, and
// which feature's suites run on which of those cells. Every cell of a feature is a file of its own,
// `tests/e2e/<feature>.<cell>.test.ts`, because Vitest runs files in parallel (three e2e files at a
// time, vitest.config.ts) and the tests of one file one after the other: one file per feature
// looping over its cells would run them in a row. The files are generated from this table by
// `npm run e2e-matrix` (scripts/e2e-matrix.ts) and all have one shape: the cell, then one call per
// suite with it. tests/unit/e2e-matrix.test.ts fails when the files on disk differ from what the
// table generates: change the table, then run the script; never edit a generated file.
import type { ChatKind } from "../support/chat-kind.ts";
import type { OpencodeVersion } from "../support/opencode.ts";

/**
 * The pinned OpenCode versions, by the label a file name carries. Each binary comes from its
 * devDependency (opencode-ai, opencode-ai-1.1.53, opencode2-bin), found by opencodeBinary in
 * tests/support/opencode/binary.ts.
 */
export const VERSIONS = { "1.1": "1.1.53", "1.18": "1.18.33", "2": "2.0.15" } as const satisfies Record<string, OpencodeVersion>;
export type VersionLabel = keyof typeof VERSIONS;

/** The chats, by the word a file name carries (none for the private chat): a supergroup, and one with forum topics on. */
export const CHATS = {
  private: { chat: "private", topics: false },
  supergroup: { chat: "supergroup", topics: false },
  topics: { chat: "supergroup", topics: true },
} as const satisfies Record<string, { chat: ChatKind; topics: boolean }>;
export type ChatLabel = keyof typeof CHATS;

/** One cell of the matrix, the one argument every suite takes. */
export interface Cell {
  /** As in its file's name: `opencode-1.18`, `opencode-1.18.supergroup`, `opencode-1.18.topics`. */
  readonly name: string;
  readonly version: OpencodeVersion;
  /** The owner's private chat, or a supergroup where Telegram allows twenty messages a minute (tests/support/chat-kind.ts). */
  readonly chat: ChatKind;
  /** Forum topics on (HERMES_TELEGRAM_TOPICS, a supergroup): each session posts in a topic of its own. */
  readonly topics: boolean;
}

export function cell(version: VersionLabel, chat: ChatLabel): Cell {
  return { name: `opencode-${version}${chat === "private" ? "" : `.${chat}`}`, version: VERSIONS[version], ...CHATS[chat] };
}

/** Every version in each of the chats given, version by version. */
function grid(versions: readonly VersionLabel[], chats: readonly ChatLabel[]): Cell[] {
  return versions.flatMap((version) => chats.map((chat) => cell(version, chat)));
}
const EVERY_VERSION: VersionLabel[] = ["1.1", "1.18", "2"];
const PRIVATE_AND_GROUP: ChatLabel[] = ["private", "supergroup"];

export interface Feature {
  /** The files' first word: `questions` makes `questions.opencode-1.18.test.ts`. */
  readonly name: string;
  /** The module in tests/e2e/ that exports the suites. */
  readonly module: string;
  /** Each suite (a function of the module taking a Cell) and its cells; a file calls its cell's suites in this order. */
  readonly suites: ReadonlyArray<{ readonly suite: string; readonly cells: readonly Cell[] }>;
}

export const FEATURES: readonly Feature[] = [
  { name: "questions", module: "question-suite.ts", suites: [{ suite: "questionSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  { name: "permissions", module: "permission-suite.ts", suites: [{ suite: "permissionSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  {
    name: "progress",
    module: "progress-suite.ts",
    suites: [
      { suite: "progressSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) },
      // OpenCode 2.0.15 has no todo tool.
      { suite: "firstSecondsSuite", cells: grid(["1.1", "1.18"], ["supergroup"]) },
      { suite: "progressOffSuite", cells: grid(EVERY_VERSION, ["private"]) },
    ],
  },
  { name: "undo", module: "undo-suite.ts", suites: [{ suite: "undoSuite", cells: [...grid(EVERY_VERSION, PRIVATE_AND_GROUP), cell("1.18", "topics")] }] },
  {
    name: "vocabulary",
    module: "vocabulary-suite.ts",
    suites: [{ suite: "vocabularySuite", cells: [...grid(EVERY_VERSION, ["private"]), ...grid(["1.18", "2"], ["topics"])] }],
  },
  { name: "desk", module: "desk-suite.ts", suites: [{ suite: "deskSuite", cells: [...grid(EVERY_VERSION, PRIVATE_AND_GROUP), cell("1.18", "topics")] }] },
  { name: "queue", module: "queue-suite.ts", suites: [{ suite: "queueSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  {
    name: "rich",
    module: "rich-suite.ts",
    suites: [
      { suite: "richAnswersSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) },
      { suite: "richPermissionsSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) },
    ],
  },
  { name: "rich-lists", module: "rich-lists-suite.ts", suites: [{ suite: "richListsSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  { name: "digest", module: "digest-suite.ts", suites: [{ suite: "digestSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  { name: "desk-delay", module: "desk-delay-suite.ts", suites: [{ suite: "deskDelaySuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  { name: "stall", module: "stall-suite.ts", suites: [{ suite: "stallSuite", cells: grid(EVERY_VERSION, PRIVATE_AND_GROUP) }] },
  // Attach mode on OpenCode 2 (no plugin API of 1.x, its own routes) is a file of its own: opencode2-attach.test.ts.
  { name: "attach", module: "attach-suite.ts", suites: [{ suite: "attachSuite", cells: grid(["1.1", "1.18"], ["private"]) }] },
];

/** The first line of every generated file: how tests/unit/e2e-matrix.test.ts tells one from a hand-written file. */
export const GENERATED_HEADER = "// Generated from tests/e2e/matrix.ts by `npm run e2e-matrix`: change the table, not this file.";

/** The generated files: name in tests/e2e/ → text, ordered by feature then by cell as the table lists them. */
export function matrixFiles(features: readonly Feature[] = FEATURES): Map<string, string> {
  const files = new Map<string, string>();
  for (const feature of features) {
    const cells = new Map<string, { cell: Cell; suites: string[] }>();
    for (const { suite, cells: on } of feature.suites)
      for (const one of on) {
        const entry = cells.get(one.name) ?? { cell: one, suites: [] };
        if (entry.suites.includes(suite)) throw new Error(`${feature.name}: ${suite} is listed twice on ${one.name}`);
        entry.suites.push(suite);
        cells.set(one.name, entry);
      }
    for (const { cell: one, suites } of cells.values()) {
      const label = (Object.keys(VERSIONS) as VersionLabel[]).find((key) => VERSIONS[key] === one.version)!;
      const chat = (Object.keys(CHATS) as ChatLabel[]).find((key) => CHATS[key].chat === one.chat && CHATS[key].topics === one.topics)!;
      const text = [
        GENERATED_HEADER,
        `import { cell } from "./matrix.ts";`,
        `import { ${[...suites].sort().join(", ")} } from "./${feature.module}";`,
        "",
        `const here = cell(${JSON.stringify(label)}, ${JSON.stringify(chat)});`,
        ...suites.map((suite) => `${suite}(here);`),
        "",
      ].join("\n");
      files.set(`${feature.name}.${one.name}.test.ts`, text);
    }
  }
  return files;
}

/** Whether a file of tests/e2e/ is the table's to generate: it says so, or it is named like one of a feature's cells. */
export function looksGenerated(name: string, text: string, features: readonly Feature[] = FEATURES): boolean {
  return text.startsWith(GENERATED_HEADER) || features.some((feature) => name.startsWith(`${feature.name}.opencode-`) && name.endsWith(".test.ts"));
}
