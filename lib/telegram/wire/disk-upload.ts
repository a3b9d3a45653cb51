// A file uploaded from disk (the agent's files, telegram_send_file): never held whole. The whole
// multipart request body is written into a private temporary file (a directory of its own, 0700,
// removed after the upload): the form's fields, then the file's chunks (read from the project's
// file and scrubbed of secrets on the way, scrubbed-api.ts), then the form's end. That copy is the
// snapshot the request sends (a file the agent is still writing cannot make the body disagree with
// its length, sent as Content-Length), and the request's body is a stream of it: in Bun (OpenCode)
// `Bun.file(copy).stream()`, read by the runtime itself; elsewhere (Node: the tests, attach mode)
// pieces read here. Measured 2026-12-02 in OpenCode's Bun 1.3.14, 25 uploads of 30 MB in a row
// to the fake Telegram: peak RSS +7 to +16 MB with Bun's stream, +23 to +59 MB with pieces read in
// JavaScript (each piece garbage once sent); the same file in a FormData (even as a disk-backed
// Blob) +62 MB one at a time and +182 MB five at once, Bun reads it whole into the form's body. A
// disk-backed Blob of the copy as the body (`fs.openAsBlob`) crashed Bun inside OpenCode 1.18.33
// and 1.1.53 (a segmentation fault at the first small photo; not alone in Bun), so it is not used.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ChunkedBytes } from "./upload-source.ts";

/** How much of the copy each piece of the request's body holds. */
const PIECE_BYTES = 256 * 1024;

export interface DiskForm {
  body: ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  /** Removes the copy (after the request, sent or not). */
  dispose(): Promise<void>;
}

/** The multipart form of `fields` and the file, written to a private temporary file, as a stream of pieces of it with its length. */
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
    const length = await writeBody(copy, head, file.bytes, tail);
    const bun = (globalThis as { Bun?: { file(path: string): { stream(): ReadableStream<Uint8Array> } } }).Bun;
    const body = bun ? bun.file(copy).stream() : fileStream(copy, length);
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(length) };
    return { body, headers, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Writes head, the chunks (each written before the next is read: a chunk may be reused) and tail, as 0600; resolves with the length. */
async function writeBody(to: string, head: Uint8Array, bytes: ChunkedBytes, tail: Uint8Array): Promise<number> {
  const out = await fs.open(to, "wx", 0o600);
  let length = 0;
  const write = async (chunk: Uint8Array) => {
    length += chunk.length;
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
  return length;
}

/** A name or file name inside the header's quotes, as browsers write it (WHATWG multipart/form-data encoding). */
function quoted(text: string): string {
  return text.replaceAll("\r", "%0D").replaceAll("\n", "%0A").replaceAll('"', "%22");
}

function fileStream(copy: string, length: number): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof fs.open>> | undefined;
  let read = 0;
  const close = () => handle?.close().catch(() => undefined);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      handle ??= await fs.open(copy, "r");
      const piece = new Uint8Array(Math.min(PIECE_BYTES, length - read));
      const { bytesRead } = await handle.read(piece, 0, piece.length, read);
      if (bytesRead === 0) throw new Error("the upload's copy ended early");
      read += bytesRead;
      controller.enqueue(bytesRead === piece.length ? piece : piece.subarray(0, bytesRead));
      if (read >= length) {
        controller.close();
        await close();
      }
    },
    cancel: close,
  });
}
