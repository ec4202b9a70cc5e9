/**
 * withDataset reads an import's data directory (the embedded store) as it reads a crawl's: the export's
 * dataset has the imported articles and their stories.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importFiles } from "../../../cli/commands/import";
import { withDataset } from "../../../infra/local/data-dir-dataset";
import { buildDataset } from "../../../shared/export/dataset";
import { LocalStore } from "../../../shared/local-store/local-store";
import { realPageWarc } from "../../support/real-page-warc";

describe("withDataset", () => {
  it("reads the embedded store an import left in a data directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-dataset-store-"));
    const { warc, urls, copies } = await realPageWarc(9, 3, "2026-07-01T09:00:00Z");
    writeFileSync(join(dir, "pages.warc.gz"), warc);
    const dataDir = join(dir, "data");
    const store = LocalStore.open(dataDir);
    const summary = await importFiles(store, [join(dir, "pages.warc.gz")], {
      checkpointDir: join(dataDir, "backfill"),
    });
    await store.close();
    expect(summary.articles).toBe(urls.length + copies);

    const dataset = await withDataset({ dataDir }, buildDataset);
    expect(dataset.articles).toHaveLength(urls.length + copies);
    expect(dataset.stories).toHaveLength(urls.length);
    expect(dataset.stories.filter((s) => s.article_count === 2)).toHaveLength(copies);
    expect(dataset.articles.every((a) => a.story_id !== null)).toBe(true);
  });
});
