import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSources, SourcesError, sourcesFileSchema } from "../../../shared/discover/sources";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const good = { id: "bbc", publication: "BBC News", homepage: "https://www.bbc.co.uk/news" };

function errorOf(json: unknown): string {
  try {
    parseSources(json);
  } catch (err) {
    expect(err).toBeInstanceOf(SourcesError);
    return (err as Error).message;
  }
  throw new Error("expected a SourcesError");
}

describe("parseSources", () => {
  it("accepts sources.example.json", () => {
    const json = JSON.parse(readFileSync(path.join(repoRoot, "sources.example.json"), "utf8"));
    const sources = parseSources(json);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const s of sources) expect(s.feeds.length + s.sitemaps.length).toBeGreaterThan(0);
    expect(sourcesFileSchema.safeParse(json).success).toBe(true);
  });

  it("fills defaults and accepts a bare array and singular feed/sitemap", () => {
    expect(parseSources([good])).toEqual([{ ...good, feeds: [], sitemaps: [] }]);
    const [s] = parseSources({
      sources: [
        {
          ...good,
          feed: "https://feeds.bbci.co.uk/news/rss.xml",
          sitemap: ["https://www.bbc.co.uk/sitemap.xml"],
        },
      ],
    });
    expect(s?.feeds).toEqual(["https://feeds.bbci.co.uk/news/rss.xml"]);
    expect(s?.sitemaps).toEqual(["https://www.bbc.co.uk/sitemap.xml"]);
  });

  it("names the source and the field in errors", () => {
    const msg = errorOf({
      sources: [good, { ...good, id: "cnn" }, { ...good, id: "bbc2", feeds: ["not a url"] }],
    });
    expect(msg).toBe('sources[2] ("bbc2"): feeds[0]: Invalid URL');
  });

  it("reports every problem at once", () => {
    const msg = errorOf([
      { ...good, homepage: "ftp://bbc.co.uk" },
      { id: "x", homepage: "https://x.com" },
      {
        ...good,
        id: "Bad Id!",
        schedule: "every hour",
        language: "english",
        min_delay_ms: -5,
        colour: "red",
      },
      good,
    ]);
    expect(msg).toContain('sources[0] ("bbc"): homepage: Invalid URL');
    expect(msg).toContain('sources[1] ("x"): publication: is required');
    expect(msg).toContain('sources[2] ("Bad Id!"): unknown field(s) colour');
    expect(msg).toContain('sources[2] ("Bad Id!"): id: must be');
    expect(msg).toContain('sources[2] ("Bad Id!"): schedule: must be rate');
    expect(msg).toContain('sources[2] ("Bad Id!"): language: must be a BCP 47 tag');
    expect(msg).toContain('sources[2] ("Bad Id!"): min_delay_ms:');
    expect(msg).toContain('sources[3] ("bbc"): id: duplicate of sources[0]');
  });

  it("takes a min_delay_ms up to the Crawl-delay cap, which fetch's time budget can wait, and no more", () => {
    expect(parseSources([{ ...good, min_delay_ms: 30_000 }])[0]?.min_delay_ms).toBe(30_000);
    expect(errorOf([{ ...good, min_delay_ms: 30_001 }])).toContain('sources[0] ("bbc"): min_delay_ms:');
  });

  it("validates schedules, partners and the file shape", () => {
    expect(parseSources([{ ...good, schedule: "cron(0 6 * * ? *)" }])[0]?.schedule).toBe("cron(0 6 * * ? *)");
    expect(parseSources([{ ...good, schedule: "rate(2 hours)" }])[0]?.schedule).toBe("rate(2 hours)");
    expect(errorOf([{ ...good, schedule: "cron(0 6 * * *)" }])).toContain("schedule");
    expect(parseSources([{ ...good, partners: ["Wire-Service.com"] }])[0]?.partners).toEqual([
      "wire-service.com",
    ]);
    expect(errorOf([{ ...good, partners: ["https://x.com/"] }])).toContain("partners[0]");
    expect(errorOf({ feeds: [] })).toContain("sources file");
    expect(errorOf("nope")).toContain("sources file");
    expect(errorOf([42])).toContain("sources[0]");
  });

  it("allowed_hosts: host names, lower-cased", () => {
    expect(parseSources([{ ...good, allowed_hosts: ["Edition.CNN.com"] }])[0]?.allowed_hosts).toEqual([
      "edition.cnn.com",
    ]);
    expect(errorOf([{ ...good, allowed_hosts: ["https://x.com/"] }])).toContain("allowed_hosts[0]");
  });

  it("timezone: an IANA zone name, else an error naming the source and the field", () => {
    expect(parseSources([{ ...good, timezone: " America/New_York " }])[0]?.timezone).toBe("America/New_York");
    expect(parseSources([good])[0]).not.toHaveProperty("timezone");
    const msg = errorOf([{ ...good, timezone: "Mars/Olympus_Mons" }]);
    expect(msg).toBe(
      'sources[0] ("bbc"): timezone: must be an IANA time zone name such as America/New_York or Europe/Paris',
    );
    // A city name alone is not a zone name; an empty or non-string one is refused too.
    expect(errorOf([{ ...good, timezone: "New York" }])).toContain('sources[0] ("bbc"): timezone:');
    expect(errorOf([{ ...good, timezone: "" }])).toContain('sources[0] ("bbc"): timezone:');
    expect(errorOf([{ ...good, timezone: -5 }])).toContain('sources[0] ("bbc"): timezone:');
  });
});
