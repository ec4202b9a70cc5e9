/**
 * `storytrail import` into the embedded store, with its extraction in worker threads: the stories,
 * counts, stored articles and raw samples of a real-page WARC are the same, byte for byte, with no
 * worker (this thread extracts and compresses), one and four (pages are stored in file order whatever
 * order the workers finish in; the workers compress bodies and samples), and the same as the emulated
 * tables' (the crawl's path, what the deployed functions do) on the same file.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { LocalRuntime } from "../../infra/local/runtime";
import type { ImportSummary } from "../../shared/backfill/import-summary";
import { decodeArticleItem } from "../../shared/consumer/article-item";
import { LocalStore } from "../../shared/local-store/local-store";
import { liveStories } from "../support/live-stories";
import { realPageWarc } from "../support/real-page-warc";
import { uniquePrefix } from "../support/unique-prefix";

const ARCHIVED_AT = "2026-07-01T09:00:00Z";

describe("storytrail import into the embedded store", () => {
  let dir: string;
  let file: string;
  let copies: number;
  const stores: {
    workers: number;
    summary: ImportSummary;
    stories: string[][];
    articles: unknown[];
    samples: Map<string, Buffer>;
  }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-import-store-"));
    const made = await realPageWarc(24, 4, ARCHIVED_AT);
    copies = made.copies;
    file = join(dir, "pages.warc.gz");
    writeFileSync(file, made.warc);
    for (const workers of [0, 1, 4]) {
      const store = LocalStore.open(join(dir, `data-${workers}`));
      const summary = await importFiles(store, [file], {
        checkpointDir: join(dir, `checkpoints-${workers}`),
        workers,
        // Half the pages keep their raw HTML (thin ones always), so that both kinds are compared.
        settings: { STORYTRAIL_RAW_SAMPLE_RATE: "0.5" },
      });
      await store.commit();
      const articles = [];
      for await (const item of store.articleItems()) articles.push(item);
      const raw = join(dir, `data-${workers}`, "store", "samples", "raw");
      const samples = new Map(readdirSync(raw).map((f) => [f, readFileSync(join(raw, f))]));
      stores.push({ workers, summary, stories: await liveStories(store), articles, samples });
      await store.close();
    }
  });

  it("stores the same counts, article items, raw samples and stories with 0, 1 and 4 workers", () => {
    const [none, ...pooled] = stores as [(typeof stores)[0], ...typeof stores];
    expect(none.summary.errors).toBe(0);
    expect(none.stories.filter((s) => s.length === 2)).toHaveLength(copies);
    // Some articles were sampled and some not.
    expect(none.samples.size).toBeGreaterThan(0);
    expect(none.samples.size).toBeLessThan(none.summary.articles);
    for (const other of pooled) {
      expect(other.summary).toEqual(none.summary);
      // The items as stored: the body's gzip bytes compared, not only the text they decode to.
      expect(other.articles).toEqual(none.articles);
      expect([...other.samples.keys()].sort()).toEqual([...none.samples.keys()].sort());
      for (const [key, bytes] of none.samples) expect(other.samples.get(key)?.equals(bytes), key).toBe(true);
      expect(other.stories).toEqual(none.stories);
    }
  });

  describe("against the emulated tables", () => {
    let runtime: LocalRuntime;
    afterAll(async () => {
      await runtime?.close();
    });

    it("stores the same articles and finds the same stories", async () => {
      runtime = await LocalRuntime.start({
        endpoints: inject("endpoints"),
        prefix: uniquePrefix("importstore"),
        settings: { STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
      });
      const summary = await importFiles(runtime, [file], {
        checkpointDir: join(dir, "checkpoints-emulated"),
        workers: 2,
      });
      const embedded = stores[1]!;
      expect(summary).toEqual(embedded.summary);
      expect(await liveStories(runtime)).toEqual(embedded.stories);
      const fields = (items: unknown[]) =>
        items
          .map((i) => decodeArticleItem(i as Record<string, unknown>))
          .map(({ article_id, url, headline, body, published_at, source_id }) => ({
            article_id,
            url,
            headline,
            body,
            published_at: published_at && new Date(published_at).toISOString(),
            source_id,
          }))
          .sort((a, b) => a.article_id.localeCompare(b.article_id));
      expect(fields(await runtime.items("articles"))).toEqual(fields(embedded.articles));
    });
  });
});
