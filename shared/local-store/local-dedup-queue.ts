/**
 * The dedup queue of an import on one machine: each article is clustered as it is sent, by the dedup
 * λ's own addArticle over the local store, in the order sent (one writer: no conflicts to retry).
 * Writes are committed every COMMIT_EVERY articles, so memory holds at most that many articles' writes.
 */

import type { DedupQueue } from "../crawl/ports";
import { addArticle } from "../dedup/clusterer";
import { type Fingerprint, fingerprintSchema } from "../dedup/fingerprint";
import { FingerprintViews } from "../dedup/fingerprint-views";
import type { DedupMessage } from "../records";
import type { LocalStore } from "./local-store";

/** Articles between commits: at 2,000 a commit's staged writes are ~10 MB; fewer commits did not
 * measurably speed up 100,000 articles (bench/dedup-scale.ts). */
const COMMIT_EVERY = 2_000;

export class LocalDedupQueue implements DedupQueue {
  private sinceCommit = 0;
  /** A candidate read again before the next commit is the same object (staged-table.ts): decoded once. */
  private readonly views = new FingerprintViews();

  constructor(
    private readonly store: LocalStore,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  async send(messages: readonly DedupMessage[]): Promise<void> {
    for (const msg of messages) {
      const fingerprint: Fingerprint = fingerprintSchema.parse(msg.fingerprint);
      await addArticle(this.store.dedup, { ...msg, fingerprint }, { now: this.now, views: this.views });
      if (++this.sinceCommit >= COMMIT_EVERY) {
        await this.store.commit();
        this.sinceCommit = 0;
      }
    }
  }
}
