import { execFile } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildRecordsPackage,
  JSON_SCHEMA_DIR,
  jsonSchemaFiles,
  PACKAGE_DIR,
} from "../../../packages/records/build";
import { member, streamRecord } from "../../shared/consumer/cluster-records";
import {
  INSERT,
  type InstalledRecords,
  installedPackages,
  installRecordsPackage,
} from "../../support/records-package";
import { articleRevision } from "../../support/revision-fixtures";

/** A member's MODIFY that gave it its first revision (the old image written by version 7). */
const REVISED = streamRecord("MODIFY", {
  old: { ...member("c-a1", "a1"), record_version: 7, latest_revision: undefined },
  new: member("c-a1", "a1", {
    latest_revision: articleRevision({
      headline: "Hafen nach Einigung wieder offen",
      previous_headline: "Hafen wieder offen",
    }),
  }),
});

const ROOT = join(PACKAGE_DIR, "..", "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** An Articles item without its body (version 3), as the document client returns one. */
const ARTICLE = {
  record_version: 3,
  article_id: "a1",
  url: "https://harbor.example/world/port-strike-ends",
  url_variants: ["https://harbor.example/world/port-strike-ends"],
  source_id: "harbor-daily",
  collected_at: "2026-12-01T00:00:00.000Z",
  collected_day: "2026-12-01",
  http_status: 200,
  raw_key: null,
  truncated: null,
  extractor_version: "x",
  canonical_from_page: null,
  headline: "Hafen wieder offen",
  publication: "Harbor Daily",
  section: null,
  authors: [],
  published_at: null,
  published_day: null,
  published_at_source: null,
  date_flag: "missing",
  modified_at: null,
  language: "de",
  language_source: "html_lang",
  is_accessible_for_free: null,
  word_count: 5,
};

describe("the storytrail records package", () => {
  let pkg: InstalledRecords;

  beforeAll(async () => {
    pkg = await installRecordsPackage();
  }, 180_000);

  it("installs as itself and zod, nothing else, from a small tarball", () => {
    expect(installedPackages(pkg.dir).sort()).toEqual(["@storytrail/records", "zod"]);
    expect(statSync(pkg.tarball).size).toBeLessThan(64 * 1024);
  });

  it("imports as @storytrail/records in plain node, decodes a stream record, a TTL expiry, an article_revised one, and version 6, 5, 4, 3 and 2 Articles items, and leaves zod's config alone", async () => {
    const out = await pkg.node(
      "consumer.mjs",
      `import * as z from "zod/mini";
const before = { ...z.config() };
const kit = await import("@storytrail/records");
const event = kit.decodeClusterStreamRecord(${JSON.stringify(INSERT)});
const view = new kit.StoryView();
view.apply(event);
const bad = kit.clusterSummarySchema.safeParse({ ...event.story, first_published_at: "2026-11-30T14:05:00Z" });
const { gzipSync } = await import("node:zlib");
const item = { ...${JSON.stringify(ARTICLE)}, body: gzipSync("Der Hafen ist wieder offen."), body_encoding: "gzip" };
const v2 = { ...${JSON.stringify(ARTICLE)}, record_version: 2, body: "Der Hafen ist wieder offen." };
const v4 = { ...item, record_version: 4, published_at_source: "text", published_day: "2026-11-27", published_at_structured: "2026-11-30" };
const v5 = { ...item, record_version: 5, headline_declared: "Hafen: wieder offen", kicker: "Hafen", credit: ["dpa"] };
const v6 = { ...item, record_version: 6, published_day: "2026-10-11", date_order_flag: "swapped" };
const older = kit.decodeArticleItem(v4);
const keys = { cluster_id: { S: event.cluster_id }, item: { S: "member#a9" } };
const expiry = kit.decodeClusterStreamRecord({ eventID: "e2", eventName: "REMOVE", userIdentity: kit.TTL_DELETION_IDENTITY, dynamodb: { Keys: keys, SequenceNumber: "2" } });
view.apply(expiry);
const revised = kit.decodeClusterStreamRecord(${JSON.stringify(REVISED)});
console.log(JSON.stringify({
  v5: [kit.decodeArticleItem(v5).headline_declared, kit.decodeArticleItem(v5).kicker, kit.decodeArticleItem(v5).credit],
  v6: kit.decodeArticleItem(v6).date_order_flag,
  revised: [revised.type, revised.revision.number, revised.revision.headline, revised.previous.latest_revision],
  v6Revisions: [kit.decodeArticleItem(v6).revision_count, kit.decodeArticleItem(v6).revisions],
  v5Order: kit.decodeArticleItem(v5).date_order_flag,
  v4New: [older.headline_declared, older.kicker, older.credit],
  v4Structured: kit.decodeArticleItem(v4).published_at_structured,
  v3Structured: kit.decodeArticleItem(item).published_at_structured,
  v3Body: kit.decodeArticleItem(item).body,
  v2Body: kit.decodeArticleItem(v2).body,
  storedBody: kit.articleItemBody(kit.articleItemFields({ body: "wieder" })),
  config: JSON.stringify(z.config()) === JSON.stringify(before) && z.config().localeError === before.localeError,
  version: kit.RECORD_VERSION,
  type: event.type,
  expiry: [expiry.type, expiry.article_id],
  stories: view.stories().map((s) => s.summary.cluster_id),
  rejectsSeconds: !bad.success,
}));`,
    );
    expect(JSON.parse(out)).toEqual({
      v5: ["Hafen: wieder offen", "Hafen", ["dpa"]],
      v6: "swapped",
      revised: ["article_revised", 1, "Hafen nach Einigung wieder offen", null],
      v6Revisions: [0, []],
      v5Order: null,
      v4New: [null, null, []],
      v4Structured: "2026-11-30",
      v3Structured: null,
      v3Body: "Der Hafen ist wieder offen.",
      v2Body: "Der Hafen ist wieder offen.",
      storedBody: "wieder",
      config: true,
      version: 8,
      type: "story_created",
      expiry: ["member_expired", "a9"],
      stories: ["c-a1"],
      rejectsSeconds: true,
    });
  });

  it("gives TypeScript consumers (node16 resolution) the event union, not any", async () => {
    const check = async (source: string) => {
      writeFileSync(join(pkg.dir, "consumer.ts"), source);
      const compilerOptions = { noEmit: true, strict: true, module: "node16", types: [], skipLibCheck: true };
      writeFileSync(
        join(pkg.dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions, files: ["consumer.ts"] }),
      );
      return promisify(execFile)(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: pkg.dir }).then(
        () => "ok",
        (err: { stdout: string }) => err.stdout,
      );
    };
    const good = `import { decodeClusterStreamRecord, type ClusterStreamEvent } from "@storytrail/records";
const e: ClusterStreamEvent = decodeClusterStreamRecord({ eventName: "REMOVE" });
export const into: string | null = e.type === "story_merged" ? e.into : null;\n`;
    expect(await check(good)).toBe("ok");
    const wrong = `import { decodeClusterStreamRecord } from "@storytrail/records";
export const n: number = decodeClusterStreamRecord({}).type;\n`;
    expect(await check(wrong)).toMatch(/TS2322/);
  }, 60_000);

  it("points every export at built JavaScript and declarations", async () => {
    // The package's main export; the repository's own `storytrail/records` (for its tests and examples),
    // which points into packages/records/dist: built there by this file alone (the installs stage theirs).
    await buildRecordsPackage();
    for (const [dir, entry] of [
      [PACKAGE_DIR, "."],
      [ROOT, "./records"],
    ] as const) {
      const exp = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports[entry];
      expect(exp.default).toMatch(/\.js$/);
      expect(exp.types).toMatch(/\.d\.ts$/);
      for (const f of [exp.default, exp.types]) expect(statSync(join(dir, f)).isFile()).toBe(true);
    }
  });

  it("ships JSON Schema files that match the zod schemas (npm run build:records rewrites them)", () => {
    for (const [name, text] of Object.entries(jsonSchemaFiles()))
      expect(readFileSync(join(JSON_SCHEMA_DIR, name), "utf8"), name).toBe(text);
  });
});
