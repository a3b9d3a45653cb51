// The string catalogue: one full set of user-facing strings per language (English in en.ts, Simplified
// Chinese in zh.ts, both typed as the whole `Strings` shape of strings.ts), and the setting that picks one.
import { en } from "./en.ts";
import type { Strings } from "./strings.ts";
import { zh } from "./zh.ts";

export type { Strings, Text } from "./strings.ts";

/** Every language Hermes speaks. */
export const LANGUAGES = ["en", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGS: Record<Language, Strings> = { en, zh };

/** "zh", "zh-CN", "zh_Hans"… pick Chinese; anything else unknown is undefined. */
export function languageOf(text: string | undefined): Language | undefined {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "" || value.startsWith("en")) return "en";
  if (value.startsWith("zh")) return "zh";
  return undefined;
}
