// `npm ci` on a fresh clone works on every platform OpenCode ships for, and on the Node the docs
// name. Read from package-lock.json as npm ci reads it: npm refuses (EBADPLATFORM) a package that is
// not optional and whose `os`/`cpu` leave the machine out, and skips an optional one; it warns
// (EBADENGINE) on a package whose `engines.node` leaves the running Node out. The platforms are the
// ones OpenCode 1.18.33 (the demo's OpenCode) has a build for, read from its optional dependencies.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { satisfies } from "../support/node-range.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

interface LockRecord {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: { node?: string };
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(fs.readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, LockRecord> };
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  engines: { node: string };
  devEngines?: { runtime?: { name?: string; version?: string } };
};

/** npm-install-checks' rule: a list of allowed values, or of `!`-negated ones. */
function allows(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.some((entry) => entry === `!${value}`)) return false;
  const positive = list.filter((entry) => !entry.startsWith("!"));
  return positive.length === 0 || positive.includes(value) || positive.includes("any");
}

interface Platform {
  os: string;
  cpu: string;
}

/** The demo's OpenCode: `opencode-linux-arm64-musl` → linux arm64, `opencode-windows-x64` → win32 x64. */
function opencodePlatforms(): Platform[] {
  const names = Object.keys(lock.packages["node_modules/opencode-ai"]?.optionalDependencies ?? {});
  const seen = new Map<string, Platform>();
  for (const name of names) {
    const match = /^opencode-(darwin|linux|windows)-(x64|arm64)/.exec(name);
    if (!match) continue;
    const platform = { os: match[1] === "windows" ? "win32" : (match[1] as string), cpu: match[2] as string };
    seen.set(`${platform.os}-${platform.cpu}`, platform);
  }
  return [...seen.values()];
}

/** The lowest version a `>=x.y.z` range admits. */
function floor(range: string): string {
  const match = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim());
  if (!match?.[1]) throw new Error(`not a >= range: ${range}`);
  return match[1];
}

describe("npm ci on every platform OpenCode ships for", () => {
  const platforms = opencodePlatforms();

  it("reads OpenCode's platforms from its optional dependencies", () => {
    expect(platforms.map((p) => `${p.os}-${p.cpu}`).sort()).toEqual(["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-arm64", "win32-x64"]);
  });

  it.each(platforms)("on $os $cpu no package npm must install is refused for the platform", ({ os, cpu }) => {
    const refused = Object.entries(lock.packages)
      .filter(([key, record]) => key !== "" && !record.optional && !record.devOptional)
      .filter(([, record]) => !allows(record.os, os) || !allows(record.cpu, cpu))
      .map(([key]) => key);
    expect(refused).toEqual([]);
  });

  it.each(platforms)("on $os $cpu the demo's OpenCode 1.18.33 has a build in the lockfile", ({ os, cpu }) => {
    const builds = Object.entries(lock.packages).filter(
      ([key, record]) =>
        /node_modules\/opencode-(darwin|linux|windows)-/.test(key) &&
        !key.includes("opencode-ai-1.1.53/") &&
        record.version === "1.18.33" &&
        allows(record.os, os) &&
        allows(record.cpu, cpu),
    );
    expect(builds.length).toBeGreaterThan(0);
  });

  it("OpenCode 2.0.15, for the e2e tests, is an optional package (skipped where its platform is not)", () => {
    const record = lock.packages["node_modules/@opencode/cli-linux-x64-baseline"];
    expect(record?.version).toBe("2.0.15");
    expect(record?.optional).toBe(true);
    expect(record?.dev).toBe(true);
  });
});

describe("the Node the docs name is the Node every package accepts", () => {
  const runtime = floor(manifest.engines.node);
  const development = floor(manifest.devEngines?.runtime?.version ?? "");

  it("the published package's dependencies run on the Node of package.json's engines", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([key, record]) => key !== "" && !record.dev && !record.devOptional && record.engines?.node && !satisfies(runtime, record.engines.node))
      .map(([key, record]) => `${key} wants ${record.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it("every package of a clone's npm ci accepts the development Node of devEngines", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([key, record]) => key !== "" && record.engines?.node && !satisfies(development, record.engines.node))
      .map(([key, record]) => `${key} wants ${record.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it("the README and development.md say those versions", () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
    const developmentDoc = fs.readFileSync(path.join(REPO, "docs/development.md"), "utf8");
    expect(readme).toContain(`Node ${runtime.split(".")[0]} or later`);
    const shown = development.replace(/\.0$/, "");
    expect(readme).toContain(`Node ${shown} or later`);
    expect(developmentDoc).toContain(`Node ${shown} or later`);
  });

  it("the range reader agrees with npm on the lockfile's kinds of range", () => {
    expect(satisfies("20.0.0", ">=20")).toBe(true);
    expect(satisfies("20.20.2", "^22.22.2 || ^24.15.0 || >=26.0.0")).toBe(false);
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("20.18.9", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("20.19.0", "^20.17.0 || >=22.9.0")).toBe(true);
    expect(satisfies("20.19.0", "4.x || >=6.0.0")).toBe(true);
    expect(satisfies("5.1.0", "4.x || >=6.0.0")).toBe(false);
    expect(satisfies("20.19.0", ">= 10.x")).toBe(true);
    expect(satisfies("13.8.0", "^10 || ^12 || ^13.7 || ^14 || >=15.0.1")).toBe(true);
    expect(satisfies("15.0.0", "^10 || ^12 || ^13.7 || ^14 || >=15.0.1")).toBe(false);
  });
});
