// What a file sent from the phone becomes in a prompt, decided from its bytes (never from the name
// or type the sender claims). Pure. Measured on OpenCode 1.18.33 and 1.1.53 (see docs/compatibility.md): an image
// as a `data:` URL file part reaches the LLM as is on both; a text file is sent as a text part,
// because a `text/plain` data URL arrives garbled on 1.1.53 and other text types (JSON, code)
// fail the run there; PDFs and other binary files fail the run on 1.1.53, so they are refused.
import type { Strings } from "../../i18n/catalog.ts";
import type { PromptPart } from "../../opencode/endpoint.ts";
import type { IncomingFile } from "../../telegram/wire/updates.ts";

export type FilePart = { ok: true; part: PromptPart } | { ok: false };

const IMAGES: ReadonlyArray<{ mime: string; extension: string; matches: (bytes: Uint8Array) => boolean }> = [
  { mime: "image/jpeg", extension: "jpg", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: "image/png", extension: "png", matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: "image/gif", extension: "gif", matches: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  { mime: "image/webp", extension: "webp", matches: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && ascii(b, 8, 12) === "WEBP" },
];

/** The prompt part for a downloaded file, or `ok: false` when Hermes does not take its type. */
export function filePart(bytes: Uint8Array, file: IncomingFile, t: Strings): FilePart {
  if (file.kind === "other") return { ok: false };
  const image = IMAGES.find((candidate) => candidate.matches(bytes));
  if (image) {
    const filename = file.name ? plainName(file.name) : `${file.kind}.${image.extension}`;
    return { ok: true, part: { type: "file", mime: image.mime, filename, url: `data:${image.mime};base64,${Buffer.from(bytes).toString("base64")}` } };
  }
  const text = file.kind === "document" ? asText(bytes) : undefined;
  if (text === undefined) return { ok: false };
  return { ok: true, part: { type: "text", text: `${t.files.textHeader(JSON.stringify(plainName(file.name ?? "file.txt")))}\n\n${text}` } };
}

/** UTF-8 text without control characters other than tab, line breaks and form feed; else undefined. */
export function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** A file name for the prompt: no path, no control or invisible formatting characters. */
function plainName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "_").slice(0, 200);
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return bytes.length >= to ? String.fromCharCode(...bytes.subarray(from, to)) : "";
}
