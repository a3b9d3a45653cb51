// A file uploaded from disk (the agent's files, telegram_send_file): never held whole. Its chunks
// (read from the project's file, scrubbed of secrets on the way: scrubbed-api.ts) are first copied
// into a private temporary file (a directory of its own, 0700, removed after the upload): that
// copy is the snapshot the request sends, so its length is exact (the Content-Length) and a file
// the agent is still writing cannot make the body disagree with it. The request body is then a
// stream of the multipart form read from that copy a chunk at a time. Measured in OpenCode's Bun
// (1.3.14 and 1.4.2), five 30 MB uploads at once: this body +28 to +39 MB of peak RSS; a FormData
// holding a disk-backed Blob (`Bun.file`, `fs.openAsBlob`) +182 to +191 MB, Bun reads the whole
// file into the form's body; in Node 20 the same stream +166 MB (docs/performance.md).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ChunkedBytes } from "./upload-source.ts";

/** How much of the copy is read for each piece of the body. */
const READ_BYTES = 1024 * 1024;

export interface StreamedForm {
  body: ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  /** Removes the copy (after the request, sent or not). */
  dispose(): Promise<void>;
}

/** The multipart form of `fields` and the file (its chunks copied to a private temporary file first), as a stream with its exact length. */
export async function streamedForm(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { field: string; filename: string; type: string; bytes: ChunkedBytes },
): Promise<StreamedForm> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hermes-upload-"));
  const dispose = () => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const copy = path.join(dir, "file");
    const size = await copyChunks(file.bytes, copy);
    const boundary = `----hermes${crypto.randomUUID().replaceAll("-", "")}`;
    const encoder = new TextEncoder();
    const head = encoder.encode(
      fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join("") +
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    );
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    const handle = await fs.open(copy, "r");
    let read = 0;
    let stage: "head" | "file" | "tail" | "done" = "head";
    const close = () => handle.close().catch(() => undefined);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (stage === "head") {
          stage = size > 0 ? "file" : "tail";
          controller.enqueue(head);
        } else if (stage === "file") {
          const buffer = new Uint8Array(Math.min(READ_BYTES, size - read));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, read);
          if (bytesRead === 0) throw new Error("the upload's copy ended early");
          read += bytesRead;
          if (read >= size) stage = "tail";
          controller.enqueue(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
        } else {
          stage = "done";
          controller.enqueue(tail);
          controller.close();
          await close();
        }
      },
      cancel: close,
    });
    return {
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + size + tail.length) },
      dispose: async () => {
        await close();
        await dispose();
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function copyChunks(bytes: ChunkedBytes, to: string): Promise<number> {
  const out = await fs.open(to, "wx", 0o600);
  let size = 0;
  try {
    for await (const chunk of bytes.chunks()) {
      let written = 0;
      while (written < chunk.length) written += (await out.write(chunk, written, chunk.length - written)).bytesWritten;
      size += chunk.length;
    }
  } finally {
    await out.close();
  }
  return size;
}

/** A name or file name inside the header's quotes, as browsers write it (WHATWG multipart/form-data encoding). */
function quoted(text: string): string {
  return text.replaceAll("\r", "%0D").replaceAll("\n", "%0A").replaceAll('"', "%22");
}
