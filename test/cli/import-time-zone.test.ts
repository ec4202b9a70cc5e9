/**
 * `storytrail import` dates an archived page as fetch would: a page of a source with a `timezone` has
 * its `published_day` in that zone, whether it is extracted as it is stored or ahead in a worker thread.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { LocalStore } from "../../shared/local-store/local-store";
import { writeWarc } from "../support/warc-files";

const ARCHIVED_AT = "2026-03-11T09:00:00Z";
const words = Array.from({ length: 320 }, (_, i) => `w${i}`).join(" ");
// 02:30 UTC on 10 March is 21:30 on 9 March in New York (EST, UTC-5).
const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>` +
  `<meta property="article:published_time" content="2026-03-10T02:30:00Z"></head>` +
  `<body><article><h1>${title}</h1><p>${title} ${words}.</p></article></body></html>`;
const SOURCES = [
  { id: "ny-paper", publication: "NY Paper", homepage: "https://ny.example/", timezone: "America/New_York" },
  { id: "utc-paper", publication: "UTC Paper", homepage: "https://utc.example/" },
];

describe("storytrail import with a source's time zone", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-import-zone-"));
    file = join(dir, "pages.warc");
    const warc = await writeWarc(
      [
        {
          type: "response",
          url: "https://ny.example/late",
          date: ARCHIVED_AT,
          body: page("Late in New York"),
        },
        {
          type: "response",
          url: "https://utc.example/late",
          date: ARCHIVED_AT,
          body: page("Late elsewhere"),
        },
      ],
      "plain",
    );
    writeFileSync(file, warc);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const workers of [undefined, 1]) {
    it(`gives the zoned source's page its day there (${workers ? "extracted ahead" : "inline"})`, async () => {
      const store = LocalStore.open(join(dir, `data-${workers ?? 0}`));
      try {
        await importFiles(store, [file], {
          sources: { sources: SOURCES },
          checkpointDir: join(dir, `checkpoints-${workers ?? 0}`),
          workers,
        });
        await store.commit();
        const days: Record<string, unknown> = {};
        for await (const a of store.articleItems())
          days[String(a.source_id)] = [a.published_at, a.published_day];
        expect(days).toEqual({
          "ny-paper": ["2026-03-10T02:30:00.000Z", "2026-03-09"],
          "utc-paper": ["2026-03-10T02:30:00.000Z", "2026-03-10"],
        });
      } finally {
        await store.close();
      }
    });
  }
});
