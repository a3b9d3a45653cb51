// Secrets replaced in a file's bytes as they stream by (lib/telegram/wire/byte-scrubber.ts): the same
// result whatever the chunks' sizes, a secret split across chunks found, the token before its half.
import { describe, expect, it } from "vitest";
import { type BytePair, scrubChunks, scrubWhole } from "../../lib/telegram/wire/byte-scrubber.ts";

const encoder = new TextEncoder();
const TOKEN = "123456:AAHsecretPartOfTheToken_xyz";
const HALF = TOKEN.split(":")[1]!;
const PAIRS: BytePair[] = [
  [encoder.encode(TOKEN), encoder.encode("[T]")],
  [encoder.encode(HALF), encoder.encode("[H]")],
  [encoder.encode("sk-998877"), encoder.encode("[K]")],
];

async function streamed(bytes: Uint8Array, size: number): Promise<string> {
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
  }
  const out: Uint8Array[] = [];
  for await (const part of scrubChunks(chunks(), PAIRS)) out.push(part.slice());
  return Buffer.concat(out).toString();
}

describe("scrubChunks", () => {
  const text = `a ${TOKEN} b ${HALF}${HALF} sk-998877sk-99887 end ${TOKEN}`;
  const expected = "a [T] b [H][H] [K]sk-99887 end [T]";

  it("gives the same bytes as the whole file scrubbed, for every chunk size (a secret split across chunks included)", async () => {
    expect(Buffer.from(scrubWhole(encoder.encode(text), PAIRS)).toString()).toBe(expected);
    for (let size = 1; size <= text.length + 1; size++) expect(await streamed(encoder.encode(text), size)).toBe(expected);
  });

  it("bytes without a secret pass unchanged (the same array when whole)", async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, index) => index % 256);
    expect(scrubWhole(bytes, PAIRS)).toBe(bytes);
    const out: Uint8Array[] = [];
    for await (const part of scrubChunks(
      (async function* () {
        yield bytes.subarray(0, 1000);
        yield bytes.subarray(1000);
      })(),
      PAIRS,
    ))
      out.push(part.slice());
    expect(Buffer.concat(out).equals(Buffer.from(bytes))).toBe(true);
  });

  it("holds no more than a chunk and a secret's length: a large stream is scrubbed as it passes", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let given = 0;
    let taken = 0;
    let ahead = 0;
    async function* chunks() {
      for (let n = 0; n < 32; n++) {
        given += chunk.length;
        ahead = Math.max(ahead, given - taken);
        yield chunk;
      }
    }
    for await (const part of scrubChunks(chunks(), PAIRS)) taken += part.length;
    expect(taken).toBe(32 * chunk.length);
    expect(ahead).toBeLessThanOrEqual(chunk.length + TOKEN.length);
  });
});
