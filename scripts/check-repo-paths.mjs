#!/usr/bin/env node
// CI check: no tracked file may refer to a path outside the repository, so that a fresh clone on a
// machine that has never seen this project behaves like the machine it was written on. Flags:
//   - absolute paths into the build machine's own top-level directories (work, root and mnt: see
//     ALWAYS below), and home directories (HOME_PATH) when that home exists on the machine running
//     the check (or is its $HOME);
//     made-up homes in test data (/home/dev/project) don't exist and pass;
//   - relative paths that climb out of the repository from the file's own directory (a test in
//     tests/unit reading three levels up), and any reference to a sibling "shared" directory.
// System paths such as /tmp, /proc, /dev and /usr/bin/env are fine: every machine has them.
// Usage: node scripts/check-repo-paths.mjs [repository dir]. Exit status 1 lists every finding.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ALWAYS = [/(?<![\w.~-])\/(?:work|root|mnt)\/[\w.@-]/g];
const HOME_PATH = /(?<![\w.~-])\/home\/([\w.@-]+)/g;
const CLIMB = /(?<![\w.-])((?:\.\.\/)+)([\w.@-]+)/g;
const SHARED = /\.\.\/shared\//g;

export function findOutsideReferences(repo) {
  const root = fs.realpathSync(repo);
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  const homes = new Set([process.env.HOME, os.homedir()].filter((home) => home && home !== "/").map((home) => path.resolve(home)));
  const findings = [];
  for (const file of files) {
    const full = path.join(root, file);
    let bytes;
    try {
      bytes = fs.readFileSync(full);
    } catch {
      continue; // Deleted in the work tree.
    }
    if (bytes.includes(0)) continue; // Binary.
    const lines = bytes.toString("utf8").split("\n");
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      for (const pattern of ALWAYS) for (const match of line.matchAll(pattern)) findings.push(`${where}: ${match[0]}…`);
      for (const match of line.matchAll(HOME_PATH)) {
        const home = `/home/${match[1]}`;
        if (fs.existsSync(home) || homes.has(home)) findings.push(`${where}: ${home} (a home directory of this machine)`);
      }
      for (const match of line.matchAll(SHARED)) findings.push(`${where}: ${match[0]}`);
      for (const match of line.matchAll(CLIMB)) {
        const target = path.resolve(path.dirname(full), match[1]);
        if (target !== root && !target.startsWith(root + path.sep)) findings.push(`${where}: ${match[0]} (climbs out of the repository)`);
      }
    });
  }
  return findings;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("check-repo-paths.mjs")) {
  const findings = findOutsideReferences(process.argv[2] ?? process.cwd());
  if (findings.length > 0) {
    process.stderr.write(`Tracked files refer to paths outside the repository:\n${findings.map((f) => `  ${f}`).join("\n")}\n`);
    process.exit(1);
  }
  process.stdout.write("No tracked file refers to a path outside the repository.\n");
}
