// The OpenCode on the PATH and its version (`opencode --version`): doctor reports it, and setup
// writes the entry that version loads (OpenCode 2 skips a 1.x entry naming a file). I/O: one
// short-lived process.
import { execFile } from "node:child_process";

type Env = Record<string, string | undefined>;

const VERSION_TIMEOUT_MS = 15_000;

export type FoundOpencode = { version: string } | { missing: boolean; reason: string };

/** `opencode --version`, found on the PATH of `env`. */
export function opencodeVersion(env: Env): Promise<FoundOpencode> {
  return new Promise((resolve) => {
    execFile("opencode", ["--version"], { env: env as NodeJS.ProcessEnv, timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      const version = /\d+\.\d+\.\d+\S*/.exec(String(stdout))?.[0];
      if (error || version === undefined) {
        resolve({ missing: (error as NodeJS.ErrnoException | null)?.code === "ENOENT", reason: error?.message ?? "no version printed" });
        return;
      }
      resolve({ version });
    });
  });
}

/** OpenCode 2 (the `plugins` key, a local plugin must be a folder). */
export function isOpencode2(version: string | undefined): boolean {
  return version !== undefined && /^2\./.test(version);
}
