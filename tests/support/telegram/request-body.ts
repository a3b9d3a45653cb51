import type { IncomingMessage } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { readBody } from "../loopback-server.ts";
import { parseMultipart } from "./multipart.ts";

/**
 * Reads a Bot API request the way Telegram accepts it: query string, JSON body, urlencoded
 * body or multipart/form-data. Form values arrive as strings and are coerced back (JSON
 * objects, numeric ids, booleans) so handlers see the same payload whatever the encoding.
 */
export interface ApiRequest {
  payload: Record<string, any>;
  files: Record<string, { filename: string; bytes: number; content: string; data: Buffer; type?: string }>;
}

const NUMERIC_FIELDS = new Set([
  "chat_id",
  "message_id",
  "reply_to_message_id",
  "offset",
  "limit",
  "timeout",
  "cache_time",
  "from_chat_id",
  "message_thread_id",
  "user_id",
]);
const BOOLEAN_FIELDS = new Set([
  "show_alert",
  "disable_notification",
  "protect_content",
  "drop_pending_updates",
  "is_big",
  "disable_web_page_preview",
  "allow_sending_without_reply",
]);

export async function readApiRequest(req: IncomingMessage, url: URL): Promise<ApiRequest> {
  const payload: Record<string, any> = {};
  const files: ApiRequest["files"] = {};
  for (const [k, v] of url.searchParams) payload[k] = coerce(k, v);
  const body = decode(await readBody(req), req.headers["content-encoding"]);
  if (body.length === 0) return { payload, files };
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (type.includes("application/json")) {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (parsed && typeof parsed === "object") Object.assign(payload, parsed);
  } else if (type.includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(body.toString("utf8"))) payload[k] = coerce(k, v);
  } else if (type.includes("multipart/form-data")) {
    const parts = parseMultipart(body, req.headers["content-type"] ?? "");
    for (const [k, v] of Object.entries(parts.fields)) payload[k] = coerce(k, v);
    Object.assign(files, parts.files);
  } else {
    throw new Error(`unsupported content-type "${type}"`);
  }
  return { payload, files };
}

/**
 * A request body with `Content-Encoding`: the Bun inside OpenCode 2.0.15 (1.4.2) gzips request
 * bodies when asked for `compress: true`, which telegraf passes (meaning "accept compressed
 * answers" in node-fetch). Decoded as an HTTP server that supports it would; an unknown encoding
 * is refused (415 from the caller's error path).
 */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "identity").trim().toLowerCase()) {
    case "identity":
    case "":
      return body;
    case "gzip":
      return gunzipSync(body);
    case "deflate":
      return inflateSync(body);
    case "br":
      return brotliDecompressSync(body);
    default:
      throw new Error(`unsupported content-encoding "${encoding}"`);
  }
}

function coerce(key: string, value: string): unknown {
  if (NUMERIC_FIELDS.has(key) && /^-?\d+$/.exec(value) !== null) return Number(value);
  if (BOOLEAN_FIELDS.has(key) && (value === "true" || value === "false")) return value === "true";
  if ((value.startsWith("{") || value.startsWith("[")) && key !== "text" && key !== "caption") {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}
