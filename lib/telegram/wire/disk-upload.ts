// A file uploaded from disk (the agent's files, telegram_send_file): never held whole. The whole
// multipart request body is written into a private temporary file (a directory of its own, 0700,
// removed after the upload): the form's fields, then the file's chunks (read from the project's
// file and scrubbed of secrets on the way, scrubbed-api.ts), then the form's end. That copy is the
// snapshot the request sends (a file the agent is still writing cannot make the body disagree with
// its length), and the request's body is a disk-backed Blob of it (`fs.openAsBlob`: Bun's is
// `Bun.file`), which the runtime sends from disk. Measured in OpenCode's Bun 1.3.14, five 30 MB
// uploads at once to the fake Telegram, five times: peak RSS +1 MB; the same file in a FormData
// (even as a disk-backed Blob) +62 MB one at a time and +182 MB five at once, Bun reads it whole
// into the form's body; a streamed body of 1 MB pieces +23 to +61 MB, growing with the garbage.
import { openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ChunkedBytes } from "./upload-source.ts";

export interface DiskForm {
  body: Blob;
  headers: Record<string, string>;
  /** Removes the copy (after the request, sent or not). */
  dispose(): Promise<void>;
}

/** The multipart form of `fields` and the file, written to a private temporary file, as a disk-backed Blob. */
export async function diskForm(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { field: string; filename: string; type: string; bytes: ChunkedBytes },
): Promise<DiskForm> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hermes-upload-"));
  const dispose = () => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const copy = path.join(dir, "body");
    const boundary = `----hermes${crypto.randomUUID().replaceAll("-", "")}`;
    const encoder = new TextEncoder();
    const head = encoder.encode(
      fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join("") +
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    );
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    await writeBody(copy, head, file.bytes, tail);
    const body = await openAsBlob(copy);
    return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Writes head, the chunks (each written before the next is read: a chunk may be reused) and tail, as 0600. */
async function writeBody(to: string, head: Uint8Array, bytes: ChunkedBytes, tail: Uint8Array): Promise<void> {
  const out = await fs.open(to, "wx", 0o600);
  const write = async (chunk: Uint8Array) => {
    let written = 0;
    while (written < chunk.length) written += (await out.write(chunk, written, chunk.length - written)).bytesWritten;
  };
  try {
    await write(head);
    for await (const chunk of bytes.chunks()) await write(chunk);
    await write(tail);
  } finally {
    await out.close();
  }
}

/** A name or file name inside the header's quotes, as browsers write it (WHATWG multipart/form-data encoding). */
function quoted(text: string): string {
  return text.replaceAll("\r", "%0D").replaceAll("\n", "%0A").replaceAll('"', "%22");
}
