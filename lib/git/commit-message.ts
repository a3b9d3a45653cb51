// The message Commit proposes for a run's files: its subject is the session's title (when
// OpenCode's default one was replaced) or the first line of the run's answer, at most 72
// characters; its body lists the files. Pure.

export const SUBJECT_LIMIT = 72;
/** OpenCode's placeholder titles ("New session - 2026-…", "Child session - …"): not worth a subject. */
const DEFAULT_TITLE = /^(new|child) session - \d{4}-/i;
const FALLBACK_SUBJECT = "Changes from an OpenCode run";

export function proposeMessage(title: string | undefined, answer: string | undefined, files: readonly string[]): string {
  const fromTitle = title && !DEFAULT_TITLE.test(title.trim()) ? title : undefined;
  const fromAnswer = answer
    ?.split("\n")
    .map((line) => line.replace(/^[#>*\-\s]+/, "").trim())
    .find((line) => line !== "");
  const subject = subjectOf(fromTitle ?? fromAnswer ?? FALLBACK_SUBJECT);
  return `${subject}\n\n${files.map((file) => `- ${file}`).join("\n")}\n`;
}

/** One line, at most SUBJECT_LIMIT characters (code points), cut with "…". */
export function subjectOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length <= SUBJECT_LIMIT
    ? line
    : `${chars
        .slice(0, SUBJECT_LIMIT - 1)
        .join("")
        .trimEnd()}…`;
}

/** A message typed on the phone: trailing spaces gone, ending with one newline (empty: none). */
export function typedMessage(text: string): string | undefined {
  const trimmed = text.replace(/\s+$/, "").replace(/^\s*\n/, "");
  return trimmed.trim() === "" ? undefined : `${trimmed}\n`;
}
