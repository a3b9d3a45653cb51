import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * OpenCode 1.1.53 looks for `rg` on PATH, then in `$XDG_DATA_HOME/opencode/bin/`, and otherwise
 * downloads ripgrep from github.com when an instance starts (measured: a DNS lookup of
 * github.com and an "Unable to connect" unhandled rejection in the log). This stub in that bin
 * dir keeps the run offline: `rg --files` lists nothing, a search finds nothing (exit 1).
 * 1.18.33 makes no such attempt, so it is only installed for 1.1.53.
 */
const STUB = `#!/bin/sh
# ripgrep stand-in written by the Hermes test harness (tests/support/opencode/ripgrep-stub.ts)
case " $* " in
  *" --version "*) echo "ripgrep 14.1.1 (hermes test stub)"; exit 0 ;;
  *" --files "*) exit 0 ;;
esac
exit 1
`;

export function installRipgrepStub(xdgDataHome: string): string {
  const bin = join(xdgDataHome, "opencode", "bin");
  mkdirSync(bin, { recursive: true });
  const rg = join(bin, "rg");
  writeFileSync(rg, STUB);
  chmodSync(rg, 0o755);
  return rg;
}
