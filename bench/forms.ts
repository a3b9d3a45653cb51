// The bench's two forms (pure): `npm run bench` runs every row in its short form (fewer rounds,
// pairs, runs and samples: about 3 minutes on the 2-core machine), `--full` in the long form it
// had before (past nine minutes), and `--only <row>` runs one row, long by default. Each printed
// row says which form it ran (`form(...)`). A number given on the command line (`--pairs 8`) wins
// over both forms.

export type Form = "short" | "full";

export interface BenchSettings {
  form: Form;
  latencySamples: number;
  latencyWarmup: number;
  markdownSamples: number;
  markdownLoads: number;
  memoryQuestions: number;
  floodQuestions: number;
  floodSessions: number;
  floodScale: number;
  realWindowS: number;
  startRuns: number;
  opencode: boolean;
  opencodeRuns: number;
  rounds: number;
  bursts: number;
  failoverRuns: number;
  overBudgetScale: number;
  outageRuns: number;
  /** How long Telegram is down in the outage row (s). */
  outageS: number;
  progressRounds: number;
  /** Seconds of a person's actions in the busy group (bench/tap-answer.ts). */
  tapsActingS: number;
  /** The answer-stream row's rounds (bench/answer-stream.ts). */
  streamRounds: number;
  agentFilePrompts: number;
  /** The busy group's awaited row's rounds (bench/awaited.ts): a busy and an idle group each. */
  awaitedRounds: number;
  /** Runs of five parallel 30 MB sends (bench/parallel-sends.ts): the target is the worst of 5, in both forms. */
  parallelSendsRuns: number;
  weekRuns: number;
  memoryPairs: number;
  memorySettleS: number;
  /** --floor: also a no-op plugin in opencode-memory's rotation (the bare poll, its floor, runs always). */
  memoryNoop: boolean;
  startCostPairs: number;
  /** `--only <row>`: the rows asked for; empty: every row. */
  only: string[];
}

/** Each setting's short and full value. */
const FORMS: { [K in keyof BenchSettings]?: [short: BenchSettings[K], full: BenchSettings[K]] } = {
  latencySamples: [60, 500],
  latencyWarmup: [10, 50],
  markdownSamples: [100, 300],
  markdownLoads: [3, 5],
  memoryQuestions: [3_000, 10_000],
  floodQuestions: [150, 1_000],
  floodSessions: [15, 100],
  realWindowS: [3, 30],
  startRuns: [3, 5],
  /** The start row's own opencode serve runs; the short form leaves them to the start-cost row, which times the same start in pairs. */
  opencodeRuns: [0, 3],
  rounds: [4, 20],
  bursts: [2, 5],
  failoverRuns: [1, 5],
  outageRuns: [1, 3],
  outageS: [6, 20],
  progressRounds: [2, 10],
  streamRounds: [2, 4],
  tapsActingS: [8, 150],
  agentFilePrompts: [10, 30],
  awaitedRounds: [2, 8],
  parallelSendsRuns: [5, 5],
  weekRuns: [100, 1_000],
  memoryPairs: [1, 8],
  memorySettleS: [3, 10],
  startCostPairs: [2, 8],
};

/** The rows `--only` takes. */
export const ONLY_ROWS = [
  "chats",
  "progress",
  "taps",
  "agent-file",
  "awaited",
  "parallel-sends",
  "week",
  "opencode-memory",
  "memory-parts",
  "start-cost",
] as const;

export function benchSettings(args: readonly string[]): BenchSettings {
  const flag = (name: string) => args.includes(`--${name}`);
  const option = (name: string): number | undefined => {
    const at = args.indexOf(`--${name}`);
    const value = at === -1 ? Number.NaN : Number(args[at + 1]);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const onlyAt = args.indexOf("--only");
  const only = onlyAt === -1 ? [] : (args[onlyAt + 1] ?? "").split(",").filter((row) => row !== "");
  // One row asked for alone runs long unless --short says otherwise; everything runs short unless --full.
  const form: Form = flag("full") || (only.length > 0 && !flag("short") && !flag("quick")) ? "full" : "short";
  const pick = <K extends keyof typeof FORMS>(key: K): BenchSettings[K] => {
    const [short, full] = FORMS[key]!;
    return (form === "full" ? full : short) as BenchSettings[K];
  };
  return {
    form,
    latencySamples: option("samples") ?? pick("latencySamples"),
    latencyWarmup: pick("latencyWarmup"),
    markdownSamples: pick("markdownSamples"),
    markdownLoads: pick("markdownLoads"),
    memoryQuestions: pick("memoryQuestions"),
    floodQuestions: pick("floodQuestions"),
    floodSessions: pick("floodSessions"),
    floodScale: option("scale") ?? 25,
    realWindowS: option("window") ?? pick("realWindowS"),
    startRuns: pick("startRuns"),
    opencode: !flag("no-opencode"),
    opencodeRuns: pick("opencodeRuns"),
    rounds: option("rounds") ?? pick("rounds"),
    bursts: pick("bursts"),
    failoverRuns: pick("failoverRuns"),
    overBudgetScale: 10,
    outageRuns: pick("outageRuns"),
    outageS: pick("outageS"),
    progressRounds: pick("progressRounds"),
    streamRounds: pick("streamRounds"),
    tapsActingS: pick("tapsActingS"),
    agentFilePrompts: pick("agentFilePrompts"),
    awaitedRounds: option("rounds") ?? pick("awaitedRounds"),
    parallelSendsRuns: option("runs") ?? pick("parallelSendsRuns"),
    weekRuns: option("runs") ?? pick("weekRuns"),
    memoryPairs: option("pairs") ?? pick("memoryPairs"),
    memorySettleS: option("settle") ?? pick("memorySettleS"),
    memoryNoop: flag("floor"),
    startCostPairs: option("pairs") ?? pick("startCostPairs"),
    only,
  };
}

/** What a printed row says of its form: "short form: 6 rounds; --full: 20". */
export function form(settings: Pick<BenchSettings, "form">, what: string, key?: keyof typeof FORMS): string {
  if (settings.form === "full" || !key) return `${settings.form} form: ${what}`;
  return `short form: ${what}; --full: ${String(FORMS[key]![1])}`;
}
