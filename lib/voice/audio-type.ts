// Which audio a file's bytes are, decided from the bytes (never from the name or type the sender
// claims): the formats an OpenAI-compatible transcription service takes and phones send. Pure.

export interface AudioType {
  mime: string;
  /** The file name's extension the service is told (OpenAI's API reads the format from it). */
  extension: string;
}

const OGG: AudioType = { mime: "audio/ogg", extension: "ogg" };
const MP3: AudioType = { mime: "audio/mpeg", extension: "mp3" };
const M4A: AudioType = { mime: "audio/mp4", extension: "m4a" };
const WAV: AudioType = { mime: "audio/wav", extension: "wav" };

/** ISO base media brands of audio (and of plain MP4, which the services take too); HEIF or AVIF images share the box, not these brands. */
const MP4_BRANDS = new Set(["M4A ", "M4B ", "mp41", "mp42", "isom", "iso2", "dash", "3gp4", "3gp5"]);

/** The audio type of `bytes`, or undefined when they are not OGG (Opus, Vorbis), MP3, M4A or WAV. */
export function audioType(bytes: Uint8Array): AudioType | undefined {
  if (ascii(bytes, 0, 4) === "OggS") return OGG;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") return WAV;
  if (ascii(bytes, 4, 8) === "ftyp" && MP4_BRANDS.has(ascii(bytes, 8, 12))) return M4A;
  if (ascii(bytes, 0, 3) === "ID3" || isMpegAudioFrame(bytes)) return MP3;
  return undefined;
}

/** An MPEG audio frame header: 11 sync bits, a version that exists, and a layer (ADTS AAC has layer 0). */
function isMpegAudioFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 0b11;
  const layer = (bytes[1]! >> 1) & 0b11;
  const bitrate = bytes[2]! >> 4;
  return version !== 0b01 && layer !== 0 && bitrate !== 0b1111;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return bytes.length >= to ? String.fromCharCode(...bytes.subarray(from, to)) : "";
}
