// The telegram_send_file tool as OpenCode 1.x takes it from a plugin's `tool` hook: its name, the
// description that tells the model when to use it, its arguments `{ path, caption? }`, and what
// it does. Loaded with the plugin, so it holds only the definition: OpenCode reads `args` when it
// builds its tool list (a run's first request), and only then is zod loaded (OpenCode 1.1.53 builds
// the arguments' schema with `z.object(args)`, so they must be zod schemas); the rules, the read
// and the upload (send-project-file.ts, the bridge) load with the first call.
import { createRequire } from "node:module";
import type { ToolContext, ToolDefinition } from "@opencode-ai/plugin";
import type { AgentFileSender } from "./agent-files.ts";

export const SEND_FILE_TOOL = "telegram_send_file";

/** What the model reads. It is told the rules, so that a refusal names one it has seen. */
export const SEND_FILE_DESCRIPTION = [
  "Send a file of this project to the user's phone: it arrives in their Telegram chat with Hermes, as a message of this session",
  "(a JPEG, PNG or WebP image of at most 10 MB as a photo, any other file as a document, at most 50 MB).",
  "Use it when the user asks for a file, a screenshot, a build (an APK, an archive) or a report, or is away from the desk and needs to see a result.",
  "Arguments: `path`, the file, relative to the project directory (or absolute); `caption` (optional), a short Markdown text shown with the file.",
  "Only files of the project can be sent: a path outside the project's directory (or its git worktree), a symlink leading outside,",
  "a directory, a device or fifo, an empty file or one over 50 MB is refused, and the result names the rule.",
  "A file OpenCode's read would ask about (a `.env` file) is asked about the same way, or refused where that cannot be asked.",
  "The user can reply to the file on the phone: the reply comes back to this session as their next message.",
].join(" ");

/** The plugin instance's project: where paths are resolved when OpenCode's tool context does not say (1.1.53). */
export interface ToolHome {
  directory: string;
  worktree?: string | undefined;
}

/** The same arguments as JSON Schema (OpenCode 2 takes a tool's input as JSON Schema, lib/plugin/opencode2-agent-tool.ts). */
export const SEND_FILE_INPUT_SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string", description: "The file to send: a path relative to the project directory, or an absolute path inside the project." },
    caption: { type: "string", description: "A short text shown with the file on the phone (Markdown)." },
  },
  required: ["path"],
  additionalProperties: false,
} as const;

/** The arguments as zod schemas, made the first time OpenCode asks for them. */
let shape: ToolDefinition["args"] | undefined;
function argsShape(): ToolDefinition["args"] {
  if (shape) return shape;
  const { z } = createRequire(import.meta.url)("zod") as typeof import("zod");
  shape = {
    path: z.string().describe(SEND_FILE_INPUT_SCHEMA.properties.path.description),
    caption: z.string().optional().describe(SEND_FILE_INPUT_SCHEMA.properties.caption.description),
  };
  return shape;
}

/** The `tool` hook's entry: `{ [SEND_FILE_TOOL]: sendFileTool(…) }`. */
export function sendFileTool(sender: AgentFileSender, home: ToolHome): ToolDefinition {
  return {
    description: SEND_FILE_DESCRIPTION,
    get args() {
      return argsShape();
    },
    async execute(args: { path: string; caption?: string | undefined }, context: ToolContext) {
      const { sendProjectFile } = await import("./send-project-file.ts");
      // 1.18 says the session's directory and worktree; 1.1.53 does not, and its instance's are the same.
      const roots = { directory: context.directory || home.directory, worktree: context.worktree || home.worktree };
      // OpenCode's read permission, asked as its read tool asks (1.1.53 and 1.18.33 both give the call).
      const ask = typeof context.ask === "function" ? (request: Parameters<ToolContext["ask"]>[0]) => context.ask(request) : undefined;
      return sendProjectFile(sender, roots, { sessionID: context.sessionID, directory: home.directory }, args, ask);
    },
  };
}
