// Secrets replaced in bytes (a file the agent sends), whole or as a stream of chunks: a file read
// from disk a chunk at a time is scrubbed as it passes, never held whole. A secret split across two
// chunks is still found: the last (longest secret − 1) bytes of a chunk wait for the next one, so
// at most one chunk and that tail are held, in one buffer reused chunk after chunk. Matches are
// found in the original bytes, left to right, the longest first where two start at the same byte
// (the token before its secret half); the result is the same whatever the chunks' sizes. Pure:
// scrubbed-api.ts gives it the secrets.

/** A secret's UTF-8 bytes and what stands in for them. */
export type BytePair = readonly [secret: Uint8Array, standIn: Uint8Array];

/**
 * The stream's chunks with every secret replaced; bytes without a secret pass as they are (or in
 * slices). What it yields lies in one work buffer, reused for the next chunk (valid until the next
 * is asked for, as the chunks it reads are): a large file leaves no garbage behind.
 */
export async function* scrubChunks(chunks: AsyncIterable<Uint8Array>, pairs: readonly BytePair[]): AsyncGenerator<Uint8Array> {
  const usable = pairs.filter(([secret]) => secret.length > 0);
  const keep = Math.max(0, ...usable.map(([secret]) => secret.length - 1));
  let work = new Uint8Array(0);
  let carried = 0;
  for await (const chunk of chunks) {
    const length = carried + chunk.length;
    if (work.length < length) {
      // Room for a tail beside the next chunk of this size too: one buffer for the whole stream.
      const larger = new Uint8Array(chunk.length + keep);
      larger.set(work.subarray(0, carried));
      work = larger;
    }
    work.set(chunk, carried);
    const buffer = work.subarray(0, length);
    const { out, restAt } = scrubUpTo(buffer, usable, Math.max(0, length - keep));
    for (const part of out) if (part.length > 0) yield part;
    // What may begin a secret that the next chunk ends waits at the buffer's start.
    work.copyWithin(0, restAt, length);
    carried = length - restAt;
  }
  const { out } = scrubUpTo(work.subarray(0, carried), usable, carried);
  for (const part of out) if (part.length > 0) yield part;
}

/** Every secret in `bytes` replaced (the same bytes back when there is none). */
export function scrubWhole(bytes: Uint8Array, pairs: readonly BytePair[]): Uint8Array {
  const { out } = scrubUpTo(
    bytes,
    pairs.filter(([secret]) => secret.length > 0),
    bytes.length,
  );
  return out.length === 1 && out[0] === bytes ? bytes : concat(...out);
}

/** Replaces the matches that start before `safe` (each lies whole in `buffer`); what follows the last of them, from `safe` on, is the rest (from `restAt`). */
function scrubUpTo(buffer: Uint8Array, pairs: readonly BytePair[], safe: number): { out: Uint8Array[]; restAt: number } {
  const out: Uint8Array[] = [];
  let from = 0;
  for (;;) {
    const match = firstMatch(buffer, pairs, from, safe);
    if (!match) break;
    out.push(buffer.subarray(from, match.at), match.pair[1]);
    from = match.at + match.pair[0].length;
  }
  const end = Math.max(from, safe);
  if (from === 0 && end === buffer.length) return { out: [buffer], restAt: end };
  out.push(buffer.subarray(from, end));
  return { out, restAt: end };
}

function firstMatch(buffer: Uint8Array, pairs: readonly BytePair[], from: number, before: number): { at: number; pair: BytePair } | undefined {
  const view = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let best: { at: number; pair: BytePair } | undefined;
  for (const pair of pairs) {
    const at = view.indexOf(pair[0], from);
    if (at < 0 || at >= before || at + pair[0].length > buffer.length) continue;
    if (!best || at < best.at || (at === best.at && pair[0].length > best.pair[0].length)) best = { at, pair };
  }
  return best;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
