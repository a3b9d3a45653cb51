// What telegram_send_file does when the agent calls it (loaded with the first call): the file must
// pass the rules (file-rules.ts) before a byte is read; its first bytes decide photo or document
// (upload-kind.ts); the bridge sends it as a message of the session. The result tells the model
// what happened: sent (as what), or exactly why not, naming the rule.
import path from "node:path";
import type { MessageOwner } from "../../registry/registry.ts";
import { SNIFF_BYTES, uploadKind } from "../../telegram/wire/upload-kind.ts";
import { errorText } from "../../error-text.ts";
import { FileRefused, readProjectFile, type ProjectRoots } from "./file-rules.ts";
import type { AgentFileSender } from "./agent-files.ts";

export interface SendFileArgs {
  path?: unknown;
  caption?: unknown;
}

/** The tool's result when the file was sent; throws an Error the model reads when it was not. */
export async function sendProjectFile(sender: AgentFileSender, roots: ProjectRoots, owner: MessageOwner, args: SendFileArgs): Promise<string> {
  const requested = typeof args.path === "string" ? args.path : "";
  const caption = typeof args.caption === "string" && args.caption.trim() !== "" ? args.caption : undefined;
  const file = await readProjectFile(requested, roots);
  const kind = uploadKind(file.bytes.subarray(0, SNIFF_BYTES), file.bytes.length);
  const filename = path.basename(path.resolve(roots.directory, requested));
  try {
    const sent = await sender.sendAgentFile(owner, { ...kind, filename, bytes: file.bytes }, caption);
    const shown = sent.as === "photo" ? "a photo" : "a document";
    return (
      `Sent ${filename} (${file.bytes.length} bytes) to the user's Telegram chat as ${shown}. ` +
      "If the user replies to it on the phone, the reply comes back to this session."
    );
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    throw new Error(`not sent: Telegram did not take ${filename} (${error instanceof Error ? error.message : errorText(error)})`);
  }
}
