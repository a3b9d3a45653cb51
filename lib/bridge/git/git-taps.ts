// The git buttons (docs/git.md): Commit on the Done notice of a run that changed files (a
// confirmation naming the branch, the run's files and the proposed message, which a reply
// replaces; Confirm commits exactly those files), Push (a red confirmation naming the remote and
// branch), Open pull request (gh), and Remove worktree (worktree-taps.ts). Each refusal says why
// and changes nothing. Only taps from those who may act arrive here (lib/bridge/core/gate.ts); a key is this
// process' own, so the process whose session it is claims the tap.
import type { Strings } from "../../i18n/catalog.ts";
import type { FileChange } from "../../hermes-events.ts";
import { commitFiles } from "../../git/commit-files.ts";
import { proposeMessage, typedMessage } from "../../git/commit-message.ts";
import { createPullRequest, ghState } from "../../git/gh.ts";
import { COMMIT_HOOKS, hooksToRun, PUSH_HOOKS } from "../../git/hooks.ts";
import { planPush, push } from "../../git/push.ts";
import { lastCommitMessage, operationUnderWay, readStatus, repoRoot } from "../../git/repo.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback, isActionOn, type CallbackData, type GitAction } from "../../telegram/codec.ts";
import {
  gitButton,
  COMMIT_LIST_FILE,
  commitListText,
  renderCommitAsk,
  renderCommitted,
  renderGitFailure,
  renderPullRequest,
  renderPushAsk,
  renderPushed,
} from "../../telegram/render/render-git.ts";
import type { InlineButton, RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap, ActingText } from "../core/gate.ts";
import type { SessionPostDeps, SessionPosts, PostWhere } from "../core/session-posts.ts";
import { fingerprint, GitTargets, repoPaths, type GitTarget } from "./git-targets.ts";
import { WorktreeTaps, type WorktreeBook } from "./worktree-taps.ts";

export interface GitTapDeps extends SessionPostDeps {
  t: Strings;
  activity: Pick<ActivityTracker, "isBusy">;
  chat: Pick<Chat, "answerCallback">;
  worktrees: WorktreeBook;
  posts: SessionPosts;
}

type Refusal = ((t: Strings) => string) | undefined;

export class GitTaps {
  readonly #deps: GitTapDeps;
  readonly #targets = new GitTargets();
  readonly #posts: SessionPosts;
  readonly #worktrees: WorktreeTaps;

  constructor(deps: GitTapDeps) {
    this.#deps = deps;
    this.#posts = deps.posts;
    this.#worktrees = new WorktreeTaps(deps);
  }

  /** The Done notice's git buttons: Commit for a run that changed files in a git repository; Push and Remove worktree in a worktree Hermes made. */
  async buttonsFor(owner: MessageOwner, changes: readonly FileChange[], answer: string | undefined): Promise<InlineButton[]> {
    const { t, registry } = this.#deps;
    const worktree = this.#deps.worktrees.get(owner.directory);
    const root = changes.length > 0 ? await repoRoot(owner.directory) : undefined;
    const buttons: InlineButton[] = [];
    if (root?.ok) {
      const files = repoPaths(
        changes.map((change) => change.file),
        root.value,
        owner.directory,
      );
      if (files.length > 0) {
        const fingerprints = new Map(files.map((file) => [file, fingerprint(root.value, file)]));
        const message = proposeMessage(registry.sessions.title(owner.sessionID), answer, files);
        const target = this.#targets.add({ owner, cwd: owner.directory, commit: { root: root.value, files, fingerprints, message } });
        buttons.push(gitButton("commit", target.key, t));
      }
    }
    if (worktree) {
      const target = this.#targets.add({ owner, cwd: owner.directory, worktree: { ...worktree } });
      buttons.push(gitButton("push", target.key, t), gitButton("removeWorktree", target.key, t));
    }
    return buttons;
  }

  /** A target that /diff's Push button names (no session: the picked project). */
  pushTarget(cwd: string, owner: MessageOwner | undefined, threadId: number | undefined): GitTarget {
    return this.#targets.add({ cwd, ...(owner ? { owner } : {}), ...(threadId !== undefined ? { threadId } : {}) });
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (!data || !isActionOn(data.action, "git")) return undefined;
    const target = this.#targets.byKey(data.key);
    if (!target) return undefined;
    return () => this.#tap(intent, data as CallbackData<GitAction>, target);
  }

  /** A reply to a commit's confirmation: its text becomes the message. */
  claimText(intent: ActingText): Claim | undefined {
    if (intent.replyTo === undefined || intent.from.chatId === undefined) return undefined;
    const target = this.#targets.byAsk({ chatId: intent.from.chatId, messageId: intent.replyTo });
    if (!target?.commit?.ask) return undefined;
    const { commit } = target;
    return async () => {
      const message = typedMessage(intent.text);
      if (!message || target.working) return;
      commit.message = message;
      await this.#posts.edit(commit.ask!, await this.#commitAsk(target));
    };
  }

  async #tap(intent: ActingTap, data: CallbackData<GitAction>, target: GitTarget): Promise<void> {
    const { chat, t } = this.#deps;
    if (target.working) return chat.answerCallback(intent.id, t.git.working);
    // Working from the first moment: a second quick tap waits for this one's outcome, never runs twice.
    target.working = true;
    try {
      const refusal = await this.#refusal(data.action, target);
      if (refusal) return await chat.answerCallback(intent.id, refusal(t), true);
      const tapped =
        intent.messageId !== undefined && intent.from.chatId !== undefined ? { chatId: intent.from.chatId, messageId: intent.messageId } : undefined;
      const where = { owner: target.owner, replyTo: intent.messageId, threadId: target.threadId };
      const notes: Partial<Record<GitAction, string>> = {
        commitConfirm: t.git.committing,
        pushConfirm: t.git.pushing,
        pullRequest: t.git.opening,
        removeConfirm: t.git.removing,
      };
      await chat.answerCallback(intent.id, notes[data.action]);
      switch (data.action) {
        case "commit":
          return await this.#askCommit(target, where);
        case "commitConfirm":
          return await this.#commit(target, tapped);
        case "push":
          return await this.#offerPush(target, where);
        case "pushConfirm":
          return await this.#push(target, tapped);
        case "pullRequest":
          return await this.#pullRequest(target, where);
        case "removeWorktree":
        case "removeConfirm":
          return await this.#worktrees.tap(data.action, target, tapped, where);
      }
    } finally {
      delete target.working;
    }
  }

  /** Why this tap does nothing now (checked before anything changes). */
  async #refusal(action: GitAction, target: GitTarget): Promise<Refusal> {
    const { activity } = this.#deps;
    if (target.worktree?.removed) return (t) => t.git.gone;
    if (action !== "commit" && action !== "commitConfirm") return undefined;
    const commit = target.commit;
    if (!commit || commit.done) return (t) => t.git.gone;
    if (action === "commitConfirm" && commit.cut) return (t) => t.git.commitTooLong(commit.files.length);
    if (target.owner && activity.isBusy(target.owner.sessionID)) return (t) => t.git.busy;
    const operation = await operationUnderWay(commit.root);
    if (operation) return (t) => t.git.underWay(operation);
    const changed = commit.files.find((file) => fingerprint(commit.root, file) !== commit.fingerprints.get(file));
    if (changed !== undefined) return (t) => t.git.changedSince(changed);
    return undefined;
  }

  async #askCommit(target: GitTarget, where: PostWhere): Promise<void> {
    const commit = target.commit!;
    let rendered = await this.#commitAsk(target);
    if (commit.cut && !commit.listed) {
      // Too many files for one message: the whole list goes out first, and the confirmation replies to it.
      const { t } = this.#deps;
      const list = await this.#posts.document(COMMIT_LIST_FILE, commitListText(commit.files), t.git.commitListCaption(commit.files.length), where);
      if (list) {
        commit.listed = true;
        rendered = await this.#commitAsk(target);
        where = { ...where, replyTo: list.messageId };
      }
    }
    const ask = await this.#posts.post(rendered, where);
    if (ask) commit.ask = ask;
  }

  async #commitAsk(target: GitTarget): Promise<RenderedMessage> {
    const commit = target.commit!;
    const status = await readStatus(commit.root);
    const branch = status.ok ? (status.value.branch ?? this.#deps.t.git.detached) : "?";
    const others = status.ok ? status.value.entries.filter((entry) => !commit.files.includes(entry.path)).length : 0;
    const hooks = await hooksToRun(commit.root, COMMIT_HOOKS);
    const rendered = renderCommitAsk({ branch, files: commit.files, others, message: commit.message, hooks }, target.key, this.#deps.t, commit.listed);
    // A list the message can't hold whole (a group's machine label takes room too) is never committed
    // from the phone unless it went out whole as a file first (#askCommit).
    if (rendered.keyboard.length === 0) commit.cut = true;
    else delete commit.cut;
    return rendered;
  }

  async #commit(target: GitTarget, tapped: MessageRef | undefined): Promise<void> {
    const { t, log } = this.#deps;
    const commit = target.commit!;
    const outcome = await commitFiles(commit.root, commit.files, commit.message);
    log.info({ sessionID: target.owner?.sessionID, files: commit.files.length, outcome: outcome.ok ? outcome.value : "failed" }, "commit from the phone");
    if (outcome.ok) commit.done = true;
    const rendered = outcome.ok
      ? renderCommitted(outcome.value.hash, outcome.value.branch ?? t.git.detached, target.key, t)
      : renderGitFailure("commit", outcome.error, t, gitButton("commitConfirm", target.key, t));
    const message = tapped ?? commit.ask;
    if (message) await this.#posts.edit(message, rendered);
  }

  async #offerPush(target: GitTarget, where: PostWhere): Promise<void> {
    const { t } = this.#deps;
    const plan = await planPush(target.cwd);
    if (!plan.ok) return void (await this.#posts.post(renderGitFailure("push", plan.error, t), where));
    target.push = plan.value;
    const hooks = await hooksToRun(target.cwd, PUSH_HOOKS);
    await this.#posts.post(renderPushAsk({ ...plan.value, hooks }, target.key, t), where);
  }

  async #push(target: GitTarget, tapped: MessageRef | undefined): Promise<void> {
    const { t, log } = this.#deps;
    const plan = target.push;
    if (!plan || !tapped) return;
    const outcome = await push(target.cwd, plan);
    log.info({ branch: plan.branch, remote: plan.remote, pushed: outcome.ok }, "push from the phone");
    await this.#posts.edit(
      tapped,
      outcome.ok ? renderPushed(plan, target.key, true, t) : renderGitFailure("push", outcome.error, t, gitButton("pushConfirm", target.key, t)),
    );
  }

  async #pullRequest(target: GitTarget, where: PostWhere): Promise<void> {
    const { t, log } = this.#deps;
    const state = await ghState(target.cwd);
    if (state !== "ready") return void (await this.#posts.post({ text: state === "missing" ? t.git.ghMissing : t.git.ghSignedOut, keyboard: [] }, where));
    const plan = target.push ? undefined : await planPush(target.cwd);
    const name = target.push?.branch ?? (plan?.ok ? plan.value.branch : undefined);
    const message = await lastCommitMessage(target.cwd);
    if (!name || !message.ok) return void (await this.#posts.post(renderGitFailure("pr", message.ok ? "no branch" : message.error, t), where));
    const outcome = await createPullRequest(target.cwd, name, message.value);
    log.info({ branch: name, opened: outcome.ok }, "pull request from the phone");
    await this.#posts.post(outcome.ok ? renderPullRequest(outcome.value, t) : renderGitFailure("pr", outcome.error, t), where);
  }
}
