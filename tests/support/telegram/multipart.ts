/** Minimal multipart/form-data parser: text fields as strings, file parts as name, size, content (UTF-8), raw bytes and type. */
export interface MultipartResult {
  fields: Record<string, string>;
  files: Record<string, { filename: string; bytes: number; content: string; data: Buffer; type?: string }>;
}

export function parseMultipart(body: Buffer, contentType: string): MultipartResult {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2]?.trim();
  if (!boundary) throw new Error("multipart body without boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const result: MultipartResult = { fields: {}, files: {} };
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    let start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break; // closing delimiter
    if (body.subarray(start, start + 2).toString() === "\r\n") start += 2;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    let end = next;
    if (body.subarray(end - 2, end).toString() === "\r\n") end -= 2;
    addPart(result, body.subarray(start, end));
    pos = next;
  }
  return result;
}

function addPart(result: MultipartResult, part: Buffer): void {
  const headerEnd = part.indexOf("\r\n\r\n");
  if (headerEnd === -1) return;
  const headers = part.subarray(0, headerEnd).toString("utf8");
  const content = part.subarray(headerEnd + 4);
  const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
  const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined) return;
  const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
  const type = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim();
  if (filename !== undefined)
    result.files[name] = { filename, bytes: content.length, content: content.toString("utf8"), data: Buffer.from(content), ...(type ? { type } : {}) };
  else result.fields[name] = content.toString("utf8");
}
