// `npm run demo` as a new user runs it (without a terminal, so it taps for itself): the whole loop
// on the real OpenCode 1.18.33 in under 30 s (time measured here but asserted with room for a loaded
// machine), and its output shows the question, the permission with its diff, live progress, and the
// Done notice with the formatted answer and the changed files; the progress beside the permission
// is the run's state then, and the times it prints agree with each other.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("npm run demo", () => {
  it("shows the question, the permission with its diff, progress, and the Done notice with what changed; exits 0", async () => {
    // Not the first button: the scripted answer follows the tap.
    const child = spawn(path.join(REPO, "node_modules", ".bin", "tsx"), [path.join(REPO, "scripts", "demo.ts")], {
      cwd: REPO,
      env: { ...process.env, DEMO_TAP: "SQLite" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const killer = setTimeout(() => child.kill("SIGKILL"), 110_000);
    const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    clearTimeout(killer);
    const context = `stdout:\n${stdout}\nstderr:\n${stderr}`;
    expect(status, context).toBe(0);
    // No terminal: no escape sequences, the demo taps for itself.
    expect(stdout).not.toContain("\x1b[");
    expect(stdout).toContain('(no terminal: tapping "SQLite" as the phone would)');
    const from = (marker: string) => stdout.slice(stdout.indexOf(marker));
    expect(from("📱 a question"), context).toContain("Which cache should I put in front of getUser()?");
    const permission = from("📱 a permission, with the diff it approves");
    expect(permission, context).toContain("🔐 Permission: edit");
    expect(permission).toContain("-  return db.users.find(id);");
    expect(permission).toContain("+  if (cached) return cached;");
    expect(permission).toContain("[ Allow once ] [ Always ]");
    // The progress shown beside the permission is the run's state then: the edit it asks for, the first to-do done.
    const live = from("📱 live progress").split("└")[0]!;
    expect(live, context).toContain("▶️ Running");
    expect(live).toContain("▸ edit src/api.ts");
    expect(live).toContain("To do 1/3");
    expect(live).toContain("✅ Pick a cache");
    expect(live).not.toContain("▸ bash");
    const done = from("📱 Done: the answer formatted, and what changed");
    expect(done, context).toContain("✅ Done after");
    expect(done).toContain("Cache wired in");
    expect(done).toContain("getUser() now reads through SQLite before it asks the database.");
    expect(done).toContain("Next: keep cache.db out of git.");
    expect(done).not.toContain("Redis");
    expect(done).toContain("• a hit skips the query");
    expect(done).toContain("src/api.ts +5 −1");
    expect(done).toContain("📄 changes.diff");
    // The times agree: the progress's last line and the Done notice say the same run time, and the
    // last line's parts (OpenCode's start, that run time, what came after the notice) add up to its total.
    const runTime = /✅ Done after (\d+) s/.exec(done)?.[1];
    // Each rounds its own clock (the notice's and the progress's last edit go out a moment apart): within 2 s.
    const finished = /Run finished after (\d+) s/.exec(from("📱 the progress message, at the end of the run"))?.[1];
    expect(Math.abs(Number(finished) - Number(runTime)), context).toBeLessThanOrEqual(2);
    const times =
      /The loop, end to end in (\d+) s: OpenCode started in (\d+) s, the prompt's way to the agent and the notice's to the phone took (\d+) s, the run took (\d+) s \(its Done notice's time\), and its diff and last edit came (\d+) s after the notice\./.exec(
        stdout,
      );
    expect(times, context).not.toBeNull();
    const [total, start, around, run, after] = times!.slice(1).map(Number) as [number, number, number, number, number];
    expect(String(run)).toBe(runTime);
    // Four parts each rounded to a second against a total rounded on its own: at most 1 s apart (2 s
    // under CI's load once: the prompt's way in and the notice's way out, which the line then did not name).
    expect(Math.abs(start + around + run + after - total), context).toBeLessThanOrEqual(1);
    // The last line points at what works from a clone (the package is not on the registry yet).
    expect(stdout.trim().split("\n").at(-1)).toContain("node bin/opencode-hermes.mjs setup");
  }, 120_000);
});
