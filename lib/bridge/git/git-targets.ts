// What each git button's key names (one writer: git-taps.ts, which makes and changes them): the
// session or project it is for, the run's files with their contents' fingerprints at the Done
// notice, the proposed message, the push planned, the worktree to remove. Bounded: the oldest go.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PushPlan } from "../../git/push.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import { newPromptKey } from "../../registry/registry.ts";

const TARGET_LIMIT = 200;

export interface CommitPlan {
  /** The repository's top directory: the files are relative to it. */
  root: string;
  files: string[];
  /** Each file's content when the run ended ("" when it did not exist). */
  fingerprints: Map<string, string>;
  message: string;
  /** The confirmation: a reply to it replaces the message. */
  ask?: MessageRef;
  /** The confirmation could not show every file (it offered no Confirm): nothing is committed. */
  cut?: true;
  /** The whole list went out as a file before the confirmation, which names it instead. */
  listed?: true;
  done?: true;
}

export interface GitTarget {
  key: string;
  /** The session it is for (its topic, its busy state); none for /diff without one. */
  owner?: MessageOwner;
  /** Where git runs: the session's (or picked project's) directory. */
  cwd: string;
  threadId?: number;
  working?: true;
  commit?: CommitPlan;
  push?: PushPlan;
  /** A worktree Hermes made (/new --worktree): Remove worktree. */
  worktree?: { directory: string; branch: string; dirty?: number; removed?: true };
}

export class GitTargets {
  readonly #byKey = new Map<string, GitTarget>();

  add(target: Omit<GitTarget, "key">): GitTarget {
    const made = { ...target, key: newPromptKey() };
    this.#byKey.set(made.key, made);
    if (this.#byKey.size > TARGET_LIMIT) this.#byKey.delete(this.#byKey.keys().next().value!);
    return made;
  }

  byKey(key: string): GitTarget | undefined {
    return this.#byKey.get(key);
  }

  /** The commit whose confirmation this message is. */
  byAsk(message: MessageRef): GitTarget | undefined {
    for (const target of this.#byKey.values()) {
      const ask = target.commit?.ask;
      if (ask && ask.chatId === message.chatId && ask.messageId === message.messageId && !target.commit?.done) return target;
    }
    return undefined;
  }
}

/** A file's content, hashed: what "changed again since the run" compares. */
export function fingerprint(root: string, file: string): string {
  try {
    return createHash("sha256")
      .update(fs.readFileSync(path.join(root, file)))
      .digest("hex");
  } catch {
    return "";
  }
}

/** OpenCode's names of the run's files, relative to the repository's top (they may be absolute, or relative to the session's directory). */
export function repoPaths(files: readonly string[], root: string, directory: string): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    const absolute = path.isAbsolute(file)
      ? file
      : fs.existsSync(path.join(root, file)) || !fs.existsSync(path.join(directory, file))
        ? path.join(root, file)
        : path.join(directory, file);
    const relative = path.relative(root, absolute);
    if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) paths.add(relative.split(path.sep).join("/"));
  }
  return [...paths];
}
