#!/usr/bin/env node
// npm leaves other platforms' optional packages out of package-lock.json when it can't or won't
// fetch them (npm/cli#4828; a registry mirror may not carry them at all), and `npm ci` then refuses
// the lockfile as out of sync. This adds a record for each: from the registry when it has the
// package, else the version from the parent and the platform read from the package's name, which
// is all `npm ci` needs to skip it on other platforms. Run after `npm install` whenever
// dependencies change: node scripts/complete-lockfile.mjs
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;

/** Where npm would look for `name` from the package at `from`: nested first, then each parent. */
function resolve(from, name) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const at = dir.lastIndexOf("/node_modules/");
    dir = at === -1 ? "" : dir.slice(0, at);
  }
}

let added = 0;
for (const [path, entry] of Object.entries({ ...packages })) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const found = resolve(path, name);
    // A record for another version (hoisted from another parent) does not satisfy an exact pin.
    if (found && (!/^\d+\.\d+\.\d+$/.test(range) || packages[found].version === range)) continue;
    const info = fromRegistry(name, range) ?? fromName(name, range);
    if (!info) throw new Error(`can't describe ${name}@${range}: not in the registry, and its name names no platform`);
    const record = { version: info.version, integrity: info["dist.integrity"], dev: entry.dev || undefined, optional: true };
    for (const key of ["license", "bin", "engines", "os", "cpu", "libc"]) if (info[key] !== undefined) record[key] = info[key];
    // Nested beside its parent, unless the parent is top level.
    const target = `${path ? `${path}/` : ""}node_modules/${name}`;
    packages[target] = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
    added++;
  }
}
function fromRegistry(name, range) {
  try {
    const meta = JSON.parse(
      execFileSync("npm", ["view", `${name}@${range}`, "--json", "version", "dist.integrity", "os", "cpu", "libc", "license", "engines", "bin"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    return Array.isArray(meta) ? meta.at(-1) : meta;
  } catch {
    return undefined;
  }
}

/** "opencode-linux-arm64-musl" → os linux, cpu arm64, libc musl (for an exact version only). */
function fromName(name, range) {
  if (!/^\d+\.\d+\.\d+$/.test(range)) return undefined;
  const match = /-(darwin|linux|windows|win32|freebsd|android)-(x64|arm64|arm|ia32)(?:-[a-z]+)*$/.exec(name);
  if (!match) return undefined;
  const info = { version: range, os: [match[1] === "windows" ? "win32" : match[1]], cpu: [match[2]] };
  if (name.endsWith("-musl")) info.libc = ["musl"];
  return info;
}

const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional package record(s) to package-lock.json`);
