// telegram_send_file on OpenCode 2 (measured on 2.0.15, docs/compatibility.md): a plugin adds a
// tool through `ctx.tool.transform(draft => draft.add(tool))`, its input as JSON Schema. With
// `codemode: false` the model is offered it directly (otherwise only through Code Mode's `execute`
// tool); its result must be `{ content: [{ type: "text", text }] }`, and a thrown error reaches the
// model as `{"error":…}`. The tool context names the session but not its directory: paths are
// resolved against the location's. The rules, the read and the upload load with the first call.
import type { Logger } from "../system/log.ts";
import { errorText } from "../util/error-text.ts";
import type { AgentFileSender } from "../bridge/agent-tools/agent-files.ts";
import { SEND_FILE_DESCRIPTION, SEND_FILE_INPUT_SCHEMA, SEND_FILE_TOOL } from "../bridge/agent-tools/send-file-tool.ts";

interface ToolDraft {
  add(tool: unknown): void;
}

/** What 2.0.15's `ctx.tool` offers that this needs. */
interface ToolDomain {
  transform(edit: (draft: ToolDraft) => void): unknown;
}

/** A location's tool domain gets the tool once (a reload runs setup again with the same domain). */
const registered = new WeakSet<object>();

/** Adds the tool to the location's tools; says in the log when this OpenCode has no tool API (nothing else changes). */
export function registerSendFileTool(ctx: unknown, sender: AgentFileSender, directory: string, logger: Logger): void {
  const domain = (ctx as { tool?: Partial<ToolDomain> }).tool;
  if (typeof domain?.transform !== "function") {
    logger.info("this OpenCode gives plugins no tool API (ctx.tool.transform): telegram_send_file is not offered");
    return;
  }
  if (registered.has(domain)) return;
  registered.add(domain);
  try {
    domain.transform((draft) =>
      draft.add({
        name: SEND_FILE_TOOL,
        description: SEND_FILE_DESCRIPTION,
        options: { codemode: false },
        // No `output` schema: with one, 2.0.15 wants an `output` value besides the content.
        input: SEND_FILE_INPUT_SCHEMA,
        async execute(input: unknown, context: { sessionID?: unknown }) {
          const { sendProjectFile } = await import("../bridge/agent-tools/send-project-file.ts");
          const sessionID = typeof context?.sessionID === "string" ? context.sessionID : "";
          const args = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
          const text = await sendProjectFile(sender, { directory }, { sessionID, directory }, args);
          return { content: [{ type: "text", text }] };
        },
      }),
    );
  } catch (error) {
    logger.warn({ err: errorText(error) }, "could not register telegram_send_file on OpenCode 2");
  }
}
