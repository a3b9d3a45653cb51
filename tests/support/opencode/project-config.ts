import { mkdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isOpencode2, REPO_ROOT, type OpencodeVersion } from "./binary.ts";

/** The `opencode.json` every test project gets: the mock LLM as the only provider. */
export interface ProjectConfigOptions {
  llmBaseURL: string;
  /** OpenCode 2 reads plugins from `plugins` (a local plugin must be a folder: it loads its server.ts). */
  version?: OpencodeVersion;
  plugins?: string[];
  permission?: unknown;
  extraConfig?: Record<string, unknown>;
  /** Merged into the mock model's entry (e.g. `modalities` to let it take images). */
  mockModel?: Record<string, unknown>;
  /** More models of the mock provider, by id (each answered by the same mock LLM, which sees the id in each request). */
  extraModels?: string[];
}

export const MOCK_PROVIDER = "mock";
export const MOCK_MODEL = "mock-model";

/**
 * Plugin specs become file:// URLs: 1.1.53 treats anything not starting with `file://` as an
 * npm package to install. Relative paths resolve against the repo root; `file://` URLs and
 * bare npm specs pass through unchanged.
 */
export function pluginSpec(spec: string): string {
  if (spec.startsWith("file://")) return spec;
  if (isAbsolute(spec)) return pathToFileURL(spec).href;
  if (spec.startsWith(".//") || spec.startsWith("../")) return pathToFileURL(resolve(REPO_ROOT, spec)).href;
  return spec;
}

export function projectConfig(opts: ProjectConfigOptions): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    model: `${MOCK_PROVIDER}/${MOCK_MODEL}`,
    small_model: `${MOCK_PROVIDER}/${MOCK_MODEL}`,
    autoupdate: false,
    share: "disabled",
    provider: {
      [MOCK_PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock LLM",
        options: { baseURL: opts.llmBaseURL, apiKey: "mock-key" },
        models: {
          [MOCK_MODEL]: { name: "Mock Model", tool_call: true, limit: { context: 128_000, output: 4_096 }, ...opts.mockModel },
          ...Object.fromEntries((opts.extraModels ?? []).map((id) => [id, { name: id, tool_call: true, limit: { context: 128_000, output: 4_096 } }])),
        },
      },
    },
    [opts.version && isOpencode2(opts.version) ? "plugins" : "plugin"]: (opts.plugins ?? []).map(pluginSpec),
    ...(opts.permission !== undefined ? { permission: opts.permission } : {}),
    ...opts.extraConfig,
  };
}

export function writeProject(dir: string, config: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}
