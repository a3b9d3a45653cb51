// Credentials out of anything git, gh or a remote's URL says, before it reaches the chat or the
// log: a URL's user:password@ (or a token as its user), and tokens in the shapes the big forges
// hand out. Pure.

/** scheme://user:secret@host… or scheme://token@host… (an https URL with a user is a credential). */
const URL_USER = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
/** GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), Bitbucket app tokens, bearer headers. */
const TOKENS = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g,
  /\bATBB[A-Za-z0-9]{20,}\b/g,
  /\b(authorization:\s*(?:bearer|basic|token)\s+)[^\s]+/gi,
];

export function scrubCredentials(text: string): string {
  let result = text.replace(URL_USER, (match, scheme: string) => (match.toLowerCase().endsWith("://git@") ? match : `${scheme}***@`));
  for (const token of TOKENS) result = result.replace(token, (_match, prefix?: string) => `${typeof prefix === "string" ? prefix : ""}***`);
  return result;
}
