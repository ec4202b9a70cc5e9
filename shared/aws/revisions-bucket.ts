/** Revisions beyond the Articles item (RevisionStore), in the raw samples' bucket under `revisions/`. */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { RevisionStore } from "../crawl/ports";
import type { ArticleRevision } from "../records";
import { revisionBodyKey, revisionSummaryKey } from "../revisions/article-revision";
import type { RawSamplesBucket } from "./raw-samples";

const gzipAsync = promisify(gzip);

export class RevisionsBucket implements RevisionStore {
  constructor(private readonly samples: RawSamplesBucket) {}

  async putEarlierBody(r: {
    article_id: string;
    number: number;
    body: string;
    collected_at: string;
  }): Promise<string> {
    const key = revisionBodyKey(r.article_id, r.number);
    await this.samples.putObject({
      Key: key,
      Body: await gzipAsync(Buffer.from(r.body, "utf8")),
      ContentType: "text/plain; charset=utf-8",
      ContentEncoding: "gzip",
      // When the earlier version was fetched (the revision's own time is its collected_at).
      Metadata: { "collected-at": r.collected_at },
    });
    return key;
  }

  async putSummary(r: { article_id: string; revision: ArticleRevision; reason: string }): Promise<string> {
    const key = revisionSummaryKey(r.article_id, r.revision.number);
    await this.samples.putObject({
      Key: key,
      Body: JSON.stringify({ reason: r.reason, revision: r.revision }),
      ContentType: "application/json",
    });
    return key;
  }
}
