// What the inline code of a general-purpose interpreter does that deserves a flag (issue 49):
// `python3 -c`, `node -e`/`-p`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, an awk program, a sed
// script. It starts programs or evaluates code it builds (runs-code), opens sockets or URLs
// (network-code), deletes, or reads the environment or secrets. A harmless one-liner (printing,
// reading the project's package.json) stays unflagged. Read by patterns over the code's text: a
// reading aid, not a sandbox. Pure.
import type { Invocation } from "./invocation.ts";
import type { RiskCategory } from "./risk.ts";

/** A secret's name: what an environment variable holding one is called. */
export const SECRET_NAME = /(TOKEN|SECRET|PASSW|API_?KEY|PRIVATE|CREDENTIAL|ACCESS_KEY|AUTH|SESSION|COOKIE|_KEY$|^KEY$)/i;

/** Where each interpreter takes inline code: the option before it (a short cluster ending in the letter counts, `perl -ne`). */
const INLINE_OPTIONS: Record<string, { letters: string; long: string[] }> = {
  python: { letters: "c", long: [] },
  node: { letters: "ep", long: ["--eval", "--print"] },
  bun: { letters: "e", long: ["--eval", "--print"] },
  deno: { letters: "", long: ["eval"] },
  perl: { letters: "eE", long: [] },
  ruby: { letters: "e", long: [] },
  php: { letters: "r", long: [] },
  lua: { letters: "e", long: [] },
};

const SPAWNS =
  /\b(os\.(system|popen|exec\w*|spawn\w*|fork)|subprocess|pty\.spawn|commands\.getoutput|child_process|execSync|execFileSync|spawnSync|execFile|process\.binding|Deno\.(run|Command)|Bun\.spawn|system\s*\(|exec\s*\(|exec\s+["'/$]|qx\s*[({/]|IO\.popen|Open3|Kernel\.(spawn|exec|system)|%x[({[]|shell_exec|passthru|proc_open|popen\s*\(|os\.execute|io\.popen|eval\s*\(|new\s+Function|vm\.run\w*|__import__\s*\(\s*['"](os|subprocess|pty)['"]\s*\)\s*\.\s*(system|popen|spawn|exec))/;
const BACKTICKS = /`[^`]+`/;
const NETWORK =
  /\b(socket|urlopen|urllib|requests\.(get|post|put)|http\.client|httpx|fetch\s*\(|require\s*\(\s*['"](node:)?(net|http|https|dgram|tls)['"]|import\s*\(\s*['"](node:)?(net|http|https)['"]|TCPSocket|UDPSocket|Net::HTTP|open-uri|IO::Socket|LWP|HTTP::Tiny|fsockopen|curl_exec|file_get_contents\s*\(\s*['"]https?:)|https?:\/\//;
const DELETES =
  /\b(rmtree|os\.(remove|unlink|rmdir|removedirs)|unlinkSync|rmSync|rmdirSync|fs\.(rm|unlink|rmdir)\s*\(|fs\.promises\.(rm|unlink)|Path\([^)]*\)\.unlink|FileUtils\.(rm\w*|remove\w*)|File\.delete|Dir\.rmdir|unlink\s*(\(|\s)|rmdir\s*\(|os\.remove)/;
const ENVIRONMENT =
  /(\bos\.environ\b(?!\s*(\.get\s*\(|\[)\s*['"](?![A-Z_]*(TOKEN|SECRET|KEY|PASS))[A-Z_]+['"])|\bprocess\.env\b(?!\s*\.\s*\w)|\bprintenv\b|\$ENV\b|%ENV\b|\bENV\.(to_h|each|map|inspect|keys|values|to_a)|\bENV\s*\)|\bgetenv\s*\(\s*\)|\bDeno\.env\.toObject|\bBun\.env\b(?!\s*\.\s*\w))/;
const SECRET_IN_CODE =
  /(\.ssh\/|id_(rsa|ed25519|ecdsa|dsa)\b|\.aws\/|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\/proc\/[^'"\s]*environ|auth\.json|['"/]\.env['"]|\.gnupg)/;

/** The inline code an invocation runs, with its language; undefined when it runs none. */
export function inlineCode(invocation: Invocation): { language: string; code: string } | undefined {
  const { name, args } = invocation;
  const values = args.map((word) => word.value ?? word.source);
  if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") {
    let index = 0;
    while (index < values.length && values[index]!.startsWith("-")) {
      if (values[index] === "-f" || values[index]!.startsWith("--file")) return undefined;
      index += ["-F", "-v", "--assign", "--field-separator"].includes(values[index]!) ? 2 : 1;
    }
    return values[index] === undefined ? undefined : { language: "awk", code: values[index]! };
  }
  if (name === "sed" || name === "gsed") {
    const scripts: string[] = [];
    values.forEach((value, index) => {
      if ((value === "-e" || value === "--expression") && values[index + 1] !== undefined) scripts.push(values[index + 1]!);
      if (value.startsWith("--expression=")) scripts.push(value.slice("--expression=".length));
    });
    if (scripts.length === 0) {
      const first = values.findIndex((value, index) => !value.startsWith("-") && !["-f", "--file", "-l"].includes(values[index - 1] ?? ""));
      if (first >= 0) scripts.push(values[first]!);
    }
    return scripts.length > 0 ? { language: "sed", code: scripts.join("\n") } : undefined;
  }
  const language = /^python[\d.]*$/.test(name) ? "python" : name === "nodejs" ? "node" : name;
  const options = INLINE_OPTIONS[language];
  if (!options) return undefined;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index]!;
    const at = value.indexOf("=");
    if (at > 0 && options.long.includes(value.slice(0, at))) return { language, code: value.slice(at + 1) };
    const short = options.letters !== "" && /^-[a-zA-Z]+$/.test(value) && options.letters.includes(value.at(-1)!);
    if ((short || options.long.includes(value)) && values[index + 1] !== undefined) return { language, code: values[index + 1]! };
    // The script's own arguments start at its first operand.
    if (!value.startsWith("-")) return undefined;
  }
  return undefined;
}

/** The categories inline code earns. */
export function inlineCodeRisks(language: string, code: string): RiskCategory[] {
  const found: RiskCategory[] = [];
  if (language === "sed") return sedRisks(code);
  if (language === "awk") {
    if (/\bsystem\s*\(|\|\s*getline|\bprint[^;}]*\|\s*["$]|\|&/.test(code)) found.push("runs-code");
    if (/\bENVIRON\b/.test(code)) found.push("secrets");
    if (/\/inet\//.test(code)) found.push("network-code");
    return found;
  }
  if (SPAWNS.test(code) || ((language === "perl" || language === "ruby" || language === "php") && BACKTICKS.test(code))) found.push("runs-code");
  if (NETWORK.test(code)) found.push("network-code");
  if (DELETES.test(code)) found.push("deletes");
  if (ENVIRONMENT.test(code) || SECRET_IN_CODE.test(code) || secretVariable(code)) found.push("secrets");
  return found;
}

/** `$ENV{AWS_SECRET_ACCESS_KEY}`, `os.environ["GITHUB_TOKEN"]`, `process.env.NPM_TOKEN`, `ENV["API_KEY"]`. */
function secretVariable(code: string): boolean {
  const named = /(?:\$ENV\{|ENV\[|environ\[|environ\.get\(|getenv\(|process\.env\.|process\.env\[|Deno\.env\.get\()\s*['"]?([A-Za-z_][A-Za-z0-9_]*)/g;
  for (const match of code.matchAll(named)) if (SECRET_NAME.test(match[1]!)) return true;
  return false;
}

/** A sed script's `e` command or `s///e` flag (runs a command), `w`/`W` commands and flags (write a file: read by path elsewhere). */
function sedRisks(script: string): RiskCategory[] {
  const found: RiskCategory[] = [];
  // `e` as a command: at the start, after an address, `;`, `{` or a newline.
  if (/(^|[;{}\n]|[\d$/]|^\s*)\s*e(\s|$|;)/.test(script) || /(^|[;{\n])\s*[\d,$/!]*e\s/.test(script)) found.push("runs-code");
  // `s/…/…/e`: the substitution's flags hold an `e`.
  if (/s(.)(?:(?!\1).|\\\1)*\1(?:(?!\1).|\\\1)*\1[gpiImM0-9w]*e/.test(script)) found.push("runs-code");
  return [...new Set(found)];
}

/** The files a sed script writes (`w file`, `s///w file`). */
export function sedWrites(script: string): string[] {
  const files: string[] = [];
  for (const match of script.matchAll(/(?:^|[;{}\n\d$/])\s*[wW]\s+([^;\n}]+)/g)) files.push(match[1]!.trim());
  return files;
}
