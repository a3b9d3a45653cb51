import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOpencode2, type OpencodeVersion } from "./binary.ts";
import { seedConfigDir } from "./config-dir-seed.ts";
import { installRipgrepStub } from "./ripgrep-stub.ts";

/**
 * A throwaway world for one OpenCode process: HOME and XDG dirs under one temp root, the
 * global config dir pre-seeded, npm/bun pointed at a dead loopback registry (so an unexpected
 * install fails fast instead of reaching the network), and an environment built from a short
 * allow-list (no OPENCODE_*, npm_*, XDG_* or proxy settings leak in from the developer's shell),
 * and for 1.1.53 a ripgrep stub (see ripgrep-stub.ts).
 */
export interface HermeticEnv {
  root: string;
  home: string;
  configDir: string; // $XDG_CONFIG_HOME/opencode (OpenCode's Global.Path.config)
  env: Record<string, string>;
}

/** Nothing listens on port 9 (discard) on loopback: connections are refused at once. */
export const DEAD_REGISTRY = "http://127.0.0.1:9/";

const PASSTHROUGH = ["PATH", "LANG", "LC_ALL", "TZ", "TERM", "USER", "LOGNAME", "SHELL"];

export function createHermeticEnv(version: OpencodeVersion, extra: Record<string, string> = {}): HermeticEnv {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `hermes-oc-${version}-`)));
  const dirs = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "xdg-config"),
    XDG_DATA_HOME: join(root, "xdg-data"),
    XDG_CACHE_HOME: join(root, "xdg-cache"),
    XDG_STATE_HOME: join(root, "xdg-state"),
    TMPDIR: join(root, "tmp"),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const managed = join(root, "managed-config"); // instead of /etc/opencode
  mkdirSync(managed);
  const configDir = join(dirs.XDG_CONFIG_HOME, "opencode");
  if (!isOpencode2(version)) seedConfigDir(configDir, version);
  writeFileSync(join(dirs.HOME, ".npmrc"), `registry=${DEAD_REGISTRY}\n`);
  if (version === "1.1.53") installRipgrepStub(dirs.XDG_DATA_HOME);

  const env: Record<string, string> = {};
  for (const key of PASSTHROUGH) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(
    env,
    dirs,
    {
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      // 1.1.53 otherwise npm-installs opencode-anthropic-auth on every instance.
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_TEST_MANAGED_CONFIG_DIR: managed,
      npm_config_registry: DEAD_REGISTRY,
      NPM_CONFIG_REGISTRY: DEAD_REGISTRY,
      BUN_CONFIG_REGISTRY: DEAD_REGISTRY,
      NO_COLOR: "1",
    },
    extra,
  );
  return { root, home: dirs.HOME, configDir, env };
}
