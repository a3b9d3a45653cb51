// How Telegram takes a file the agent sends (pure): a JPEG, PNG or WebP of at most 10 MB as a photo
// (shown as a picture, sendPhoto), anything else as a document (sendDocument), up to the 50 MB a
// bot may upload. What a file is comes from its first bytes, never from its name.

/** sendPhoto takes at most 10 MB (Bot API). */
export const PHOTO_LIMIT_BYTES = 10 * 1024 * 1024;
/** A bot uploads at most 50 MB (Bot API, sendDocument). */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
/** How many first bytes `uploadKind` needs to tell the image kinds apart. */
export const SNIFF_BYTES = 12;

export interface UploadKind {
  as: "photo" | "document";
  mime: string;
}

/** The image kinds Telegram shows as a photo, by their first bytes; undefined for anything else. */
export function photoMime(head: Uint8Array): string | undefined {
  const starts = (offset: number, bytes: number[]) => bytes.every((byte, index) => head[offset + index] === byte);
  if (starts(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  // RIFF....WEBP
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
  return undefined;
}

/** A photo when its bytes are an image Telegram shows and it fits sendPhoto's limit; a document otherwise. */
export function uploadKind(head: Uint8Array, size: number): UploadKind {
  const mime = photoMime(head);
  if (mime && size <= PHOTO_LIMIT_BYTES) return { as: "photo", mime };
  return { as: "document", mime: mime ?? "application/octet-stream" };
}

/** How long an upload of `size` bytes may take: 30 s, and a second more per 256 KB (50 MB: 230 s). */
export function uploadTimeoutMs(size: number): number {
  return 30_000 + Math.ceil(size / (256 * 1024)) * 1_000;
}
