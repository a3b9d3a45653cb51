// What a file from the phone becomes in a prompt: decided by its bytes, never by the name or type
// the sender claims. Images become data-URL file parts, UTF-8 text a text part, the rest nothing.
import { describe, expect, it } from "vitest";
import { asText, filePart } from "../../lib/bridge/input/file-part.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { IncomingFile } from "../../lib/telegram/wire/updates.ts";

const t = CATALOGS.en;
const doc = (extra: Partial<IncomingFile> = {}): IncomingFile => ({ kind: "document", type: "document", fileId: "f", ...extra });
const bytes = (...values: number[]) => Uint8Array.from(values);

describe("filePart", () => {
  it.each([
    ["image/jpeg", bytes(0xff, 0xd8, 0xff, 0xe0, 1, 2)],
    ["image/png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9)],
    ["image/gif", Buffer.from("GIF89a....")],
    ["image/webp", Buffer.from("RIFF\x10\0\0\0WEBPVP8 ", "latin1")],
  ])("%s bytes become a data-URL file part with that type, whatever the phone claimed", (mime, data) => {
    const result = filePart(data, doc({ mime: "application/zip", name: "holiday.bin" }), t);
    expect(result).toEqual({
      ok: true,
      part: { type: "file", mime, filename: "holiday.bin", url: `data:${mime};base64,${Buffer.from(data).toString("base64")}` },
    });
  });

  it("a photo without a name is named after its type", () => {
    const result = filePart(bytes(0xff, 0xd8, 0xff, 0xdb), { kind: "photo", type: "photo", fileId: "p" }, t);
    expect(result.ok && result.part.type === "file" && result.part.filename).toBe("photo.jpg");
  });

  it("UTF-8 text becomes a text part headed by its name, quoted so that it can't break out of the line", () => {
    const result = filePart(Buffer.from("\uFEFFlet x = 1;\n\tx++\r\n"), doc({ name: 'a"\n\u202Eevil/../../x.ts' }), t);
    expect(result).toEqual({ ok: true, part: { type: "text", text: `File "x.ts", sent from Telegram:\n\nlet x = 1;\n\tx++\r\n` } });
    const hostile = filePart(Buffer.from("ok"), doc({ name: 'a"\n\u202Eb.txt' }), t);
    expect(hostile.ok && hostile.part.type === "text" && hostile.part.text.split("\n")[0]).toBe('File "a\\"__b.txt", sent from Telegram:');
  });

  it("binary data, text with NUL or control bytes, invalid UTF-8 and non-files are refused", () => {
    expect(filePart(bytes(0x50, 0x4b, 0x03, 0x04, 0, 0), doc({ mime: "text/plain" }), t)).toEqual({ ok: false });
    expect(filePart(Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1"), doc({ mime: "application/pdf" }), t)).toEqual({ ok: false });
    expect(filePart(Buffer.from("abc\u0000def"), doc(), t)).toEqual({ ok: false });
    expect(filePart(Buffer.from("abc\u001bdef"), doc(), t)).toEqual({ ok: false });
    expect(filePart(bytes(0x61, 0xc3, 0x28), doc(), t)).toEqual({ ok: false });
    expect(filePart(Buffer.from("text"), { kind: "other", type: "video", fileId: "v" }, t)).toEqual({ ok: false });
  });

  it("a photo that is not an image is refused (text is taken only from documents)", () => {
    expect(filePart(Buffer.from("just text"), { kind: "photo", type: "photo", fileId: "p" }, t)).toEqual({ ok: false });
  });

  it("asText keeps tabs, line breaks, form feeds and any script", () => {
    expect(asText(Buffer.from("中文\t👨‍👩‍👧\f\r\n"))).toBe("中文\t👨‍👩‍👧\f\r\n");
  });
});
