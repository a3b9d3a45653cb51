#!/usr/bin/env node
// `opencode-hermes`: the command line of Hermes (`opencode-hermes setup`, `attach`, `doctor`).
// Plain Node 20 can't run TypeScript, so the npm package carries the command line compiled to
// JavaScript (dist/, built by `npm run build`, which `npm pack` runs). A clone (it has a
// tsconfig.json, the package has none) loads the sources, lib/cli/main.ts, through tsx (a
// devDependency), so a stale dist/ never hides an edit; a clone without tsx (`npm ci --omit=dev`,
// enough for the plugin) uses dist/ if it was built.
import fs from "node:fs";

const compiled = new URL("../dist/lib/cli/main.js", import.meta.url);
const source = new URL("../lib/cli/main.ts", import.meta.url);
const clone = fs.existsSync(new URL("../tsconfig.json", import.meta.url));

async function load() {
  if (!clone) return import(compiled.href); // the npm package
  try {
    const { register } = await import("tsx/esm/api");
    register();
    return import(source.href);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  if (fs.existsSync(compiled)) return import(compiled.href);
  const root = new URL("..", import.meta.url).pathname;
  process.stderr.write(
    `opencode-hermes: this clone was installed without its devDependencies (npm ci --omit=dev is enough for the plugin, not for the command line, which runs the TypeScript sources through tsx). Run \`npm ci\` in ${root}, then \`node ${root}bin/opencode-hermes.mjs\` again; or install the published files from it: \`npm ci && npm pack\`, then \`npm i -g ./opencode-hermes-*.tgz\` (docs/setup.md).\n`,
  );
  process.exit(1);
}

const { main } = await load();
const status = await main(process.argv.slice(2));
// Sockets kept alive by fetch must not hold the process open once Hermes has stopped.
process.exit(status);
