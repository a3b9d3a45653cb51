// The pure parts of git from the phone: credentials scrubbed, git's status and numstat read,
// the proposed commit message, the worktree's slug, and what /diff and the confirmations show.
import { describe, expect, it } from "vitest";
import { proposeMessage, subjectOf, typedMessage } from "../../lib/git/commit-message.ts";
import { scrubCredentials } from "../../lib/git/scrub.ts";
import { parseNumstat, parseStatus } from "../../lib/git/status-parse.ts";
import { slugOf } from "../../lib/git/worktrees.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { decodeCallback } from "../../lib/telegram/codec.ts";
import {
  renderCommitAsk,
  renderCommitted,
  renderDiff,
  renderGitFailure,
  renderPullRequest,
  renderPushAsk,
  renderPushed,
  renderRemoveAsk,
  renderRemoved,
} from "../../lib/telegram/render/render-git.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";

const t = CATALOGS.en;

describe("scrubCredentials", () => {
  it("removes a URL's user and password, and tokens in the forges' shapes", () => {
    const token = "ghp_abcdefghijklmnopqrstuvwxyz012345";
    const text = [
      "fatal: unable to access 'https://alice:s3cret@example.com/repo.git/': Failed to connect",
      `https://${token}@github.com/o/r.git`,
      `http://x-access-token:${token}@github.com/o/r`,
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      "glpat-abcdefghijklmnopqrst",
      "Authorization: Bearer abc.def.ghi",
    ].join("\n");
    const scrubbed = scrubCredentials(text);
    for (const secret of ["alice", "s3cret", token, "x-access-token", "github_pat_11", "glpat-abc", "abc.def.ghi"]) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain("https://***@example.com/repo.git/");
    expect(scrubbed).toContain("Authorization: Bearer ***");
  });

  it("keeps what is not a credential: ssh's git@ user, paths, plain words", () => {
    const text = "ssh://git@github.com/o/r.git git@github.com:o/r.git /srv/remote.git rejected (fetch first)";
    expect(scrubCredentials(text)).toBe(text);
  });
});

describe("parseStatus", () => {
  it("reads the branch, its upstream, ahead/behind and each entry (porcelain v2, -z)", () => {
    const output = [
      "# branch.oid 0123456789abcdef0123456789abcdef01234567",
      "# branch.head feature-x",
      "# branch.upstream origin/feature-x",
      "# branch.ab +2 -1",
      "1 .M N... 100644 100644 100644 aaaa bbbb one file.txt",
      "1 A. N... 000000 100644 100644 0000 cccc added.txt",
      "1 .D N... 100644 100644 000000 dddd dddd gone.txt",
      "2 R. N... 100644 100644 100644 eeee eeee R100 new-name.txt",
      "old-name.txt",
      "u UU N... 100644 100644 100644 100644 ffff gggg hhhh clash.txt",
      "? untracked.bin",
      "",
    ].join("\0");
    expect(parseStatus(output)).toEqual({
      branch: "feature-x",
      upstream: "origin/feature-x",
      ahead: 2,
      behind: 1,
      unborn: false,
      entries: [
        { path: "one file.txt", kind: "modified", staged: false },
        { path: "added.txt", kind: "new", staged: true },
        { path: "gone.txt", kind: "deleted", staged: false },
        { path: "new-name.txt", kind: "renamed", staged: true },
        { path: "clash.txt", kind: "conflict", staged: true },
        { path: "untracked.bin", kind: "new", staged: false },
      ],
    });
  });

  it("a detached HEAD has no branch; a new repository is unborn", () => {
    expect(parseStatus("# branch.oid (initial)\0# branch.head (detached)\0")).toMatchObject({ branch: undefined, unborn: true, entries: [] });
  });
});

describe("parseNumstat", () => {
  it("counts lines, marks binary files, and reads renames and --no-index pairs", () => {
    const output = ["3\t1\tone.txt", "-\t-\timage.png", "2\t0\t", "/dev/null", "new.txt", ""].join("\0");
    expect([...parseNumstat(output)]).toEqual([
      ["one.txt", { added: 3, removed: 1, binary: false }],
      ["image.png", { added: 0, removed: 0, binary: true }],
      ["new.txt", { added: 2, removed: 0, binary: false }],
    ]);
  });
});

describe("the proposed commit message", () => {
  it("is the session's title, or the answer's first line, at most 72 characters, with the files as its body", () => {
    expect(proposeMessage("Fix the login form", "whatever", ["a.ts", "b.ts"])).toBe("Fix the login form\n\n- a.ts\n- b.ts\n");
    expect(proposeMessage("New session - 2026-11-28T10:00:00.000Z", "## Renamed the helper\nmore", ["a.ts"])).toBe("Renamed the helper\n\n- a.ts\n");
    expect(proposeMessage(undefined, undefined, ["a.ts"])).toBe("Changes from an OpenCode run\n\n- a.ts\n");
    const long = subjectOf("x".repeat(100));
    expect([...long]).toHaveLength(72);
    expect(long.endsWith("…")).toBe(true);
    expect([...subjectOf("ü".repeat(80))]).toHaveLength(72);
  });

  it("a typed message is kept as typed, without trailing space; an empty one is none", () => {
    expect(typedMessage("Subject\n\nBody  \n\n")).toBe("Subject\n\nBody\n");
    expect(typedMessage("  \n ")).toBeUndefined();
  });
});

describe("slugOf", () => {
  it("makes a branch-safe slug of at most 40 characters from an instruction", () => {
    expect(slugOf("Fix the login form's CSS!")).toBe("fix-the-login-form-s-css");
    expect(slugOf("Résumé page: añadir ünïcode")).toBe("resume-page-anadir-unicode");
    expect(slugOf("修复登录")).toBe("task");
    expect(slugOf("a ".repeat(50)).length).toBeLessThanOrEqual(40);
    expect(slugOf("--force; rm -rf / && echo ../../x")).toMatch(/^[a-z0-9-]+$/);
  });
});

describe("render-git", () => {
  it("/diff: the branch and its upstream, each file with its lines (new, deleted, binary marked), hostile names escaped", () => {
    const text = renderDiff(
      {
        project: "proj",
        branch: "feature/<b>",
        upstream: "origin/feature",
        ahead: 1,
        behind: 0,
        files: [
          { path: "a<i>.ts", kind: "modified", added: 3, removed: 1, binary: false },
          { path: "new.txt", kind: "new", added: 2, removed: 0, binary: false },
          { path: "pic.png", kind: "new", added: 0, removed: 0, binary: true },
          { path: "old.txt", kind: "deleted", added: 0, removed: 4, binary: false },
        ],
      },
      t,
    );
    expect(text).toBe(
      [
        "🌿 <b>proj</b> on <b>feature/&lt;b&gt;</b>",
        "origin/feature: 1 ahead, 0 behind",
        "<code>a&lt;i&gt;.ts</code> +3 −1",
        "<code>new.txt</code> (new) +2 −0",
        "<code>pic.png</code> (new) (binary)",
        "<code>old.txt</code> (deleted) +0 −4",
      ].join("\n"),
    );
    expect(renderDiff({ project: "p", branch: undefined, upstream: undefined, ahead: 0, behind: 0, files: [] }, t)).toBe(
      "🌿 <b>p</b> on <b>(detached HEAD)</b>\nNothing uncommitted.",
    );
  });

  it("the commit's confirmation names the branch, the files, the others left out and the message; Confirm carries the key", () => {
    const ask = renderCommitAsk({ branch: "main", files: ["a.ts", "b.ts"], others: 2, message: "Fix <it>\n\n- a.ts\n" }, "Key12345", t);
    expect(ask.text).toContain("<b>Commit on main?</b>");
    expect(ask.text).toContain("<code>a.ts</code>\n<code>b.ts</code>\n(2 other uncommitted files stay out of it)");
    expect(ask.text).toContain("<pre>Fix &lt;it&gt;\n\n- a.ts\n</pre>");
    expect(decodeCallback(ask.keyboard[0]![0]!.callback_data)).toEqual({ key: "Key12345", action: "commitConfirm", question: 0, option: 0 });
  });

  it("Push's confirmation is red and names the remote's scrubbed URL; a failure shows git's words escaped, their end when long", () => {
    const push = renderPushAsk({ branch: "b", remote: "origin", url: "https://***@h/r.git", setsUpstream: true }, "Key12345", t);
    expect(push.keyboard[0]![0]).toMatchObject({ text: "⬆️ Confirm push", style: "danger" });
    expect(push.text).toContain("Its upstream becomes origin/b.");
    const failure = renderGitFailure("push", `${"x".repeat(3000)}\n! [rejected] <b> (fetch first)`, t);
    expect(failure.text).toContain("! [rejected] &lt;b&gt; (fetch first)");
    expect(failure.text.length).toBeLessThan(1_700);
  });
});

describe("render-git writes HTML Telegram parses, showing hostile text verbatim (en, zh)", () => {
  const hostile = `a<b>&amp;"x" &#128512; </i>`;
  const shows = (html: string, texts: string[]) => {
    const parsed = parseTelegramHtml(html);
    if (!parsed.ok) throw new Error(`refused: ${parsed.error}\n${html}`);
    for (const text of texts) expect(parsed.plain).toContain(text);
  };
  for (const language of ["en", "zh"] as const) {
    it(language, () => {
      const t = CATALOGS[language];
      const file = { path: hostile, kind: "new" as const, added: 1, removed: 0, binary: false };
      shows(renderDiff({ project: hostile, branch: hostile, upstream: hostile, ahead: 1, behind: 2, files: [file] }, t), [hostile]);
      shows(renderCommitAsk({ branch: hostile, files: [hostile], others: 3, message: `${hostile}\n\n- ${hostile}` }, "Key12345", t).text, [hostile]);
      shows(renderPushAsk({ branch: hostile, remote: hostile, url: hostile, setsUpstream: true }, "Key12345", t).text, [hostile]);
      shows(renderGitFailure("commit", hostile, t).text, [hostile]);
      shows(renderCommitted(hostile, hostile, "Key12345", t).text, [hostile]);
      shows(renderPushed({ branch: hostile, remote: hostile, url: "", setsUpstream: false }, "Key12345", true, t).text, [hostile]);
      shows(renderPullRequest(hostile, t).text, [hostile]);
      shows(renderRemoveAsk(hostile, 2, "Key12345", t).text, [hostile]);
      shows(renderRemoved(hostile, hostile, t).text, [hostile]);
      for (const text of [t.git.help, t.git.ghMissing, t.git.ghSignedOut, t.git.worktreeUsage, t.git.pick, t.git.clean]) shows(text, []);
    });
  }
});
