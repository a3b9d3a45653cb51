// /compact (issue 43): as a reply to a session's message, compacts it through OpenCode's own
// summarize route with the session's model, and shows the context's fill before and after
// (`🧠 87% → 12% of 200k`: the last answer's tokens, then the summary's; /status shows the latter
// until the session's next run). Refused while the
// session works, and while a compaction of it runs.
import type { MessageOwner } from "../../registry/registry.ts";
import { errorText } from "../../util/error-text.ts";
import { escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import { fillChange } from "../../telegram/render/render-vocabulary.ts";
import type { RunCosts } from "../runs/run-costs.ts";
import type { VocabularyDesk } from "./vocabulary-desk.ts";

export class CompactRun {
  readonly #posts: VocabularyDesk;
  readonly #running = new Set<string>();
  /** Where /status learns the fill the compaction left. */
  readonly #costs: Pick<RunCosts, "compacted">;

  constructor(posts: VocabularyDesk, costs: Pick<RunCosts, "compacted">) {
    this.#posts = posts;
    this.#costs = costs;
  }

  async compact(owner: MessageOwner, replyTo: number): Promise<void> {
    const { t, activity, log, links } = this.#posts.deps;
    if (activity.isBusy(owner.sessionID) || this.#running.has(owner.sessionID))
      return void (await this.#posts.post(owner, t.vocabulary.compact.busy, [], replyTo));
    const route = this.#posts.route(owner, "compact", "compact");
    if ("refusal" in route) return void (await this.#posts.post(owner, route.refusal, [], replyTo));
    this.#running.add(owner.sessionID);
    try {
      const title = this.#posts.titleOf(owner);
      const message = await this.#posts.post(owner, t.vocabulary.compact.working(title), [], replyTo);
      const outcome = await route.call(owner.sessionID).catch((error: unknown) => ({ ok: false, gone: false, error: errorText(error) }) as const);
      log.info({ sessionID: owner.sessionID, outcome }, "session compacted from the phone");
      let text: Html;
      if (outcome.ok) {
        const models = outcome.model
          ? await links
              .linkFor(owner.directory)
              ?.opencode.listModels()
              .catch(() => undefined)
          : undefined;
        const window = models?.find((model) => model.providerID === outcome.model?.providerID && model.modelID === outcome.model?.modelID)?.contextLimit;
        const fill = fillChange(outcome.before, outcome.after, window, t);
        if (outcome.after !== undefined) this.#costs.compacted(owner.sessionID, { tokens: outcome.after, ...(window ? { window } : {}) });
        text = fill ? t.vocabulary.compact.done(title, fill) : t.vocabulary.compact.doneNoFill(title);
      } else text = outcome.gone ? html`⚠️ ${escapeHtml(t.talk.sessionGone)}` : t.vocabulary.failed(escapeWithin(outcome.error, 300));
      if (message) await this.#posts.edit(message, text);
      else await this.#posts.post(owner, text, [], replyTo);
    } finally {
      this.#running.delete(owner.sessionID);
    }
  }
}
