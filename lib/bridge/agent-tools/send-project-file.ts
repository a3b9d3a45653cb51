// What telegram_send_file does when the agent calls it (loaded with the first call): the file must
// pass the rules (file-rules.ts) and OpenCode's read permission (read-permission.ts) before a byte
// is read; it waits its turn (send-turns.ts: one file sent at a time); its first bytes decide
// photo or document (lib/telegram/wire/upload-kind.ts); the bridge sends it as a message of the session,
// read from the open file a chunk at a time as it is uploaded (lib/telegram/wire/disk-upload.ts): never held whole. The result
// tells the model what happened: sent (as what), or exactly why not, naming the rule.
import path from "node:path";
import type { MessageOwner } from "../../registry/registry.ts";
import { SNIFF_BYTES, uploadKind } from "../../telegram/wire/upload-kind.ts";
import { errorText } from "../../util/error-text.ts";
import { checkProjectFile, FileRefused, openCheckedFile, type OpenedFile, type ProjectRoots } from "./file-rules.ts";
import { type ChunkedBytes, NotSentError } from "../../telegram/wire/upload-source.ts";
import { envFileRule, readRequest } from "./read-permission.ts";
import { MAX_WAITING, processSendTurns } from "./send-turns.ts";
import type { AgentFileSender } from "./agent-files.ts";

export const MAX_WAITING_SENDS = MAX_WAITING;

export interface SendFileArgs {
  path?: unknown;
  caption?: unknown;
}

/** OpenCode 1.x's permission call of the tool context (`context.ask`): resolves when allowed, throws OpenCode's error when not. */
export type ReadAsk = (request: ReturnType<typeof readRequest>) => Promise<void>;

/** The tool's result when the file was sent; throws an Error the model reads when it was not. */
export async function sendProjectFile(sender: AgentFileSender, roots: ProjectRoots, owner: MessageOwner, args: SendFileArgs, ask?: ReadAsk): Promise<string> {
  const requested = typeof args.path === "string" ? args.path : "";
  const caption = typeof args.caption === "string" && args.caption.trim() !== "" ? args.caption : undefined;
  const checked = await checkProjectFile(requested, roots);
  // The user's read rules through OpenCode's own call (its error, a rejection, goes back as it is); without one, the default rule.
  if (ask) await ask(readRequest(checked.real, roots.worktree || roots.directory));
  else {
    const rule = envFileRule(path.relative(roots.worktree || roots.directory, checked.real));
    if (rule)
      throw new FileRefused(
        "env-file",
        `${requested} matches OpenCode's read rule "${rule}: ask" (a file of secrets), and this OpenCode offers the tool no way to ask you`,
      );
  }
  const release = await processSendTurns().take(requested);
  let opened: OpenedFile | undefined;
  try {
    opened = await openCheckedFile(checked);
    const file = opened;
    const sniffed = await firstBytes(file, SNIFF_BYTES);
    const kind = uploadKind(sniffed, file.size);
    const filename = path.basename(path.resolve(roots.directory, requested));
    // Read from disk a chunk at a time as the upload goes (and again if it is tried again): never held whole.
    const bytes: ChunkedBytes = { size: file.size, chunks: () => file.chunks() };
    try {
      const sent = await sender.sendAgentFile(owner, { ...kind, filename, bytes }, caption);
      const shown = sent.as === "photo" ? "a photo" : "a document";
      return (
        `Sent ${filename} (${file.size} bytes) to the user's Telegram chat as ${shown}. ` +
        "If the user replies to it on the phone, the reply comes back to this session."
      );
    } catch (error) {
      if (error instanceof FileRefused) throw error;
      if (error instanceof NotSentError && error.cause instanceof FileRefused) throw error.cause;
      throw new Error(`not sent: Telegram did not take ${filename} (${error instanceof Error ? error.message : errorText(error)})`);
    }
  } finally {
    await opened?.close();
    release();
  }
}

/** The file's first `count` bytes (what decides photo or document). */
async function firstBytes(file: OpenedFile, count: number): Promise<Uint8Array> {
  for await (const chunk of file.chunks()) return chunk.subarray(0, count);
  return new Uint8Array(0);
}
