// Photo or document for the agent's files: by the first bytes, never the name, and by size.
import { describe, expect, it } from "vitest";
import { PHOTO_LIMIT_BYTES, photoMime, uploadKind, uploadTimeoutMs } from "../../lib/telegram/wire/upload-kind.ts";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const WEBP = [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50];
const GIF = [...Buffer.from("GIF89a"), 1, 0, 1, 0, 0, 0];
const WAV = [...Buffer.from("RIFF"), 1, 2, 3, 4, ...Buffer.from("WAVE")];
const head = (bytes: number[]) => Uint8Array.from(bytes);

describe("how the agent's file goes to Telegram", () => {
  it("JPEG, PNG and WebP (by their bytes) are photos up to 10 MB", () => {
    expect(uploadKind(head(PNG), 1_000)).toEqual({ as: "photo", mime: "image/png" });
    expect(uploadKind(head(JPEG), PHOTO_LIMIT_BYTES)).toEqual({ as: "photo", mime: "image/jpeg" });
    expect(uploadKind(head(WEBP), 5)).toEqual({ as: "photo", mime: "image/webp" });
  });

  it("a larger picture is a document (keeping its type); a GIF, a RIFF that is not WebP and text are documents", () => {
    expect(uploadKind(head(PNG), PHOTO_LIMIT_BYTES + 1)).toEqual({ as: "document", mime: "image/png" });
    expect(uploadKind(head(GIF), 100).as).toBe("document");
    expect(photoMime(head(WAV))).toBeUndefined();
    expect(uploadKind(head([...Buffer.from("hello, world")]), 12)).toEqual({ as: "document", mime: "application/octet-stream" });
    // A short file cannot be mistaken for one by reading past its end.
    expect(uploadKind(head([0xff, 0xd8]), 2).as).toBe("document");
  });

  it("a larger upload may take longer", () => {
    expect(uploadTimeoutMs(1)).toBe(31_000);
    expect(uploadTimeoutMs(50 * 1024 * 1024)).toBe(230_000);
  });
});
