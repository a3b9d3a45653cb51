import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The pinned OpenCode binaries, resolved inside the repo's node_modules (npm does not run
 * opencode-ai's postinstall, so node_modules/.bin/opencode is not usable). The platform
 * package is looked up nested under the right opencode-ai package first, then hoisted, and
 * its package.json version must match (the hoisted copies mix versions).
 */
export type OpencodeVersion = "1.18.33" | "1.1.53" | "2.0.15";

/** The OpenCode 1 versions (the 1.x plugin API); OpenCode 2 has suites of its own. */
export const OPENCODE_VERSIONS: OpencodeVersion[] = ["1.18.33", "1.1.53"];

/** OpenCode 2 (the `setup(ctx)` plugin API), from its platform package (the CLI wrapper is not on our registry). */
export const OPENCODE2_VERSION = "2.0.15" satisfies OpencodeVersion;

export function isOpencode2(version: OpencodeVersion): boolean {
  return version.startsWith("2.");
}

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "");

const WRAPPER_PACKAGE: Record<OpencodeVersion, string> = {
  "1.18.33": "opencode-ai",
  "1.1.53": "opencode-ai-1.1.53",
  "2.0.15": "opencode2-bin",
};

/** OpenCode 2.0.15's build for linux x64, an optional dependency of tests/support/opencode2-bin/. */
export const OPENCODE2_PLATFORM_PACKAGE = "@opencode/cli-linux-x64-baseline";

function platformPackage(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `opencode-${os}-${process.arch}`;
}

export function opencodeBinary(version: OpencodeVersion): string {
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? "opencode.exe" : "opencode";
  if (isOpencode2(version)) {
    // devDependency opencode2-bin (tests/support/opencode2-bin/) lists the platform packages as optional
    // dependencies, so npm ci skips them elsewhere; our registry serves @opencode/cli-linux-x64-baseline only.
    // (The second place: a node_modules installed before that change, where opencode2-bin was the platform package itself.)
    for (const dir of [join(REPO_ROOT, "node_modules", OPENCODE2_PLATFORM_PACKAGE), join(REPO_ROOT, "node_modules", WRAPPER_PACKAGE[version])]) {
      const found = join(dir, "bin", exe);
      if (existsSync(found) && packageVersion(dir) === version) return found;
    }
    const bin = join(REPO_ROOT, "node_modules", OPENCODE2_PLATFORM_PACKAGE, "bin", exe);
    throw new Error(`OpenCode ${version} binary not found at ${bin}: the e2e tests on OpenCode 2 run on linux x64 only (the one build our registry serves)`);
  }
  const candidates = [join(REPO_ROOT, "node_modules", WRAPPER_PACKAGE[version], "node_modules", pkg), join(REPO_ROOT, "node_modules", pkg)];
  for (const dir of candidates) {
    const bin = join(dir, "bin", exe);
    if (existsSync(bin) && packageVersion(dir) === version) return bin;
  }
  throw new Error(`OpenCode ${version} binary not found; looked for ${pkg}@${version} in:\n  ${candidates.join("\n  ")}`);
}

function packageVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
