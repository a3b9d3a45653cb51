// Hermes as one package for OpenCode 1.18.x and 2.x (package.json `exports["./server"]`).
// OpenCode 1.18 loads this file when it loads the package by name or folder and calls `server`;
// OpenCode 2 calls `setup`. OpenCode 1.1.53 calls every export of what it loads and breaks on an
// object, so it must be pointed at plugin.ts (`exports["."]`), never here.
import HermesPlugin from "./plugin.ts";
import { PLUGIN_ID, setup } from "./lib/plugin/opencode2-setup.ts";

export default { id: PLUGIN_ID, server: HermesPlugin, setup };
