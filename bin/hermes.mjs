#!/usr/bin/env node
// `hermes`: the command line of Hermes (`hermes setup`, `hermes attach --url http://127.0.0.1:4096`).
// Hermes is TypeScript (OpenCode's Bun runs it as is); Node 20 can't, so this launcher registers
// tsx (installed by `npm ci` in a clone of Hermes) and then loads lib/cli/main.ts. Without tsx
// it tries Node's own type stripping (Node 22.18+ / 23.6+, for a clone outside node_modules).
const cli = new URL("../lib/cli/main.ts", import.meta.url);

let viaTsx = false;
try {
  const { register } = await import("tsx/esm/api");
  register();
  viaTsx = true;
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
}

let main;
try {
  ({ main } = await import(cli.href));
} catch (error) {
  const code = error?.code;
  if (!viaTsx && (code === "ERR_UNKNOWN_FILE_EXTENSION" || code === "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING")) {
    process.stderr.write(
      "hermes: this Node can't load Hermes' TypeScript by itself. Run `npm ci` in the Hermes directory (it installs tsx), or use Node 22.18 or later.\n",
    );
    process.exit(1);
  }
  throw error;
}

const status = await main(process.argv.slice(2));
// Sockets kept alive by fetch must not hold the process open once Hermes has stopped.
process.exit(status);
