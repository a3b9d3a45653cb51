#!/usr/bin/env node
// `opencode-hermes`: the command line of Hermes (`opencode-hermes setup`, `opencode-hermes attach`).
// Plain Node 20 can't run TypeScript, so the npm package carries the command line compiled to
// JavaScript (dist/, built by `npm run build`, which `npm pack` runs). In a clone it loads the
// sources, lib/cli/main.ts, through tsx (a devDependency), so a stale dist/ never hides an edit;
// without tsx (`npm ci --omit=dev`) the build if there is one, else Node's own type stripping
// (Node 22.18+ / 23.6+).
import fs from "node:fs";

const compiled = new URL("../dist/lib/cli/main.js", import.meta.url);
const source = new URL("../lib/cli/main.ts", import.meta.url);

async function load() {
  if (!fs.existsSync(source)) return import(compiled.href); // the npm package
  let viaTsx = false;
  try {
    const { register } = await import("tsx/esm/api");
    register();
    viaTsx = true;
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  if (!viaTsx && fs.existsSync(compiled)) return import(compiled.href);
  try {
    return await import(source.href);
  } catch (error) {
    const code = error?.code;
    if (!viaTsx && (code === "ERR_UNKNOWN_FILE_EXTENSION" || code === "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING")) {
      process.stderr.write(
        "opencode-hermes: this copy has no compiled command line and this Node can't load TypeScript. Run `npm run build` (or `npm ci`) in the Hermes directory, use Node 22.18 or later, or run `npx opencode-hermes`.\n",
      );
      process.exit(1);
    }
    throw error;
  }
}

const { main } = await load();
const status = await main(process.argv.slice(2));
// Sockets kept alive by fetch must not hold the process open once Hermes has stopped.
process.exit(status);
