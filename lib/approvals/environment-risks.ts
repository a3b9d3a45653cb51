// Environment that makes programs load or run code of their choosing (issue 49): `LD_PRELOAD`,
// `DYLD_*`, `BASH_ENV`, `NODE_OPTIONS=--require…`, `PYTHONSTARTUP`, git's and the pager's program
// variables, and search paths (`PATH` first of all) whose entry leaves the project. Read from
// `X=v cmd`, `env X=v cmd` and `export X=v` alike (read-flags.ts). Pure.
import type { RiskCategory } from "./risk.ts";

/** Variables that make programs load or run code of their choosing. */
const LOADING_VARIABLES = new Set([
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "BASH_ENV",
  "ENV",
  "PYTHONSTARTUP",
  "PYTHONINSPECT",
  "PERL5OPT",
  "PERL5DB",
  "RUBYOPT",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_PROXY_COMMAND",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_TEMPLATE_DIR",
  "PAGER",
  "EDITOR",
  "VISUAL",
  "LESSOPEN",
  "LESSCLOSE",
  "PROMPT_COMMAND",
  "PS4",
]);
/** Variables that add places code is loaded from: risky when one leaves the project. */
const SEARCH_PATHS = new Set(["PATH", "PYTHONPATH", "NODE_PATH", "PERL5LIB", "RUBYLIB", "GEM_PATH"]);

/** An assignment (`X=v cmd`, `export X=v`, `env X=v cmd`) that loads code; `leaves`: whether a path leaves the project. */
export function assignmentRisks(name: string, value: string, leaves: (path: string) => boolean): RiskCategory[] {
  if (LOADING_VARIABLES.has(name) || name.startsWith("DYLD_")) return ["runs-code"];
  if (name === "NODE_OPTIONS" && /(^|\s)(-r|--require|--import|--loader|--experimental-loader)(\s|=|$)/.test(value)) return ["runs-code"];
  if (SEARCH_PATHS.has(name)) {
    const entries = value.split(":");
    // PATH: its first entry is what runs first; the others only when a name is found nowhere earlier.
    const judged = name === "PATH" ? entries.slice(0, 1) : entries;
    if (judged.some((entry) => entry !== "" && !entry.startsWith("${") && leaves(entry))) return ["runs-code"];
  }
  return [];
}
