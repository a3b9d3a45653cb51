// Downloading a file the phone sent, into memory, within what a bot may download (Telegram's 20 MB):
// a file over the limit by Telegram's word is never asked for. Shared by photos and files
// (phone-files.ts) and voice notes (voice-notes.ts). Nothing is written to disk.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import { errorText } from "../../util/error-text.ts";
import { FileTooBigError, type TelegramApi } from "../../telegram/wire/api.ts";
import { escapeHtml, escapeWithin, type Html } from "../../text/html.ts";
import type { IncomingFile } from "../../telegram/wire/updates.ts";

/** The bytes, or what to tell the phone (HTML) instead. */
export type Downloaded = { ok: true; bytes: Uint8Array } | { ok: false; refusal: Html };

export async function downloadFromPhone(deps: { telegram: TelegramApi; log: Logger; t: Strings }, file: IncomingFile, limit: number): Promise<Downloaded> {
  const { telegram, log, t } = deps;
  if (file.size !== undefined && file.size > limit)
    return { ok: false, refusal: t.files.tooBig(escapeHtml(formatSize(file.size)), escapeHtml(formatSize(limit))) };
  const bytes = await download(telegram, file, limit).catch((error: unknown) => error);
  if (bytes instanceof FileTooBigError) return { ok: false, refusal: t.files.tooBig(escapeHtml(`> ${formatSize(limit)}`), escapeHtml(formatSize(limit))) };
  if (bytes instanceof Uint8Array) return { ok: true, bytes };
  log.warn({ err: errorText(bytes), type: file.type }, "could not download a file from the phone");
  return { ok: false, refusal: t.files.downloadFailed(escapeWithin(withoutToken(bytes instanceof Error ? bytes.message : String(bytes)), 200)) };
}

async function download(telegram: TelegramApi, file: IncomingFile, limit: number): Promise<Uint8Array> {
  const found = await telegram.getFile(file.fileId);
  if (found.size !== undefined && found.size > limit) throw new FileTooBigError(limit);
  if (!found.path) throw new Error("Telegram gave no file path");
  return telegram.downloadFile(found.path, limit);
}

/** A network error can quote the request URL, and with it the bot token: never show that. */
function withoutToken(text: string): string {
  return text.replace(/\d{5,}:[A-Za-z0-9_-]{30,}/g, "…");
}

/** 20971520 → "20 MB", 1536 → "1.5 KB" (binary units, as Telegram counts its limits). */
export function formatSize(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(value) : value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${units[unit]}`;
}
