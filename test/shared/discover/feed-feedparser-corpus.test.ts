/**
 * Feed entry links on feedparser's own test files (test/fixtures/feeds/feedparser, copied with their
 * NOTICE), and on UTF-16/UTF-32 feeds (test/fixtures/feeds/encodings, ours). The reference for a
 * feedparser file is what feedparser 6.0.10 finds in it (links.json, written by feedparser-links.py),
 * corrected by the file's own `Expect:` line where that names entry links (6.0.10 predates some of its
 * corpus; where it crashes, on 4 files, none has an entry link by its Expect line), less links that are not http(s) (feedparser uses any Atom id, urn:uuid: too; an entry link
 * here is a page to fetch). URLs compare as WHATWG URL parsing spells them (HTTP://www.EXAMPLE.org/ is
 * http://www.example.org/). The files are parsed as bytes, as discovery hands them over.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "feeds");
const CORPUS = path.join(FIXTURES, "feedparser");
const ENCODINGS = path.join(FIXTURES, "encodings");

function xmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".xml"))
    .sort();
}

/** The comment header, wherever the file's encoding puts it (read as bytes, decoded leniently). */
function header(bytes: Uint8Array, encoding: "latin1" | "utf16le" = "latin1"): string {
  return Buffer.from(bytes).subarray(0, 4096).toString(encoding);
}

function contentLocation(head: string): string | null {
  return /Header:\s*Content-Location:\s*(\S+)/.exec(head)?.[1] ?? null;
}

/** Entry links an `Expect:` line names: `entries[0]['link'] == entries[1]['link'] == 'x'`, `entries[0].link == 'x'`. */
function expectedLinks(head: string): Map<number, string> {
  const named = new Map<number, string>();
  const expect = /Expect:([^\n]*)/.exec(head)?.[1] ?? "";
  for (const chain of expect.matchAll(/((?:entries\[\d+\](?:\['link'\]|\.link)\s*==\s*)+)'([^']*)'/g)) {
    for (const at of chain[1]!.matchAll(/entries\[(\d+)\]/g)) named.set(Number(at[1]), chain[2]!);
  }
  return named;
}

function spelled(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function ourLinks(bytes: Uint8Array, feedUrl: string, location: string | null): string[] {
  try {
    return parseFeed(bytes, feedUrl, { contentLocation: location }).items.map((i) => spelled(i.url));
  } catch {
    return [];
  }
}

const feedparserLinks = JSON.parse(readFileSync(path.join(CORPUS, "links.json"), "utf8")) as Record<
  string,
  string[] | { error: string }
>;

/** Where we differ from feedparser on purpose (the rule, not the file, is what differs). */
const ON_PURPOSE: Record<string, string> = {
  "wellformed/base/http_entry_id_base_content_location.xml":
    "a relative Atom id is not an IRI (RFC 4287 §4.2.6): no link",
  "wellformed/base/http_entry_id_base_docuri.xml":
    "a relative Atom id is not an IRI (RFC 4287 §4.2.6): no link",
  "wellformed/node_precedence/atom10_id.xml":
    "an id of 'Correct Value' is no URL; feedparser resolves it into one",
};

interface Case {
  file: string;
  ours: string[];
  reference: string[];
}

const cases: Case[] = xmlFiles(CORPUS).map((file) => {
  const bytes = readFileSync(path.join(CORPUS, file));
  const head = header(bytes);
  const location = contentLocation(head);
  const recorded = feedparserLinks[file];
  const reference = Array.isArray(recorded) ? [...recorded] : [];
  for (const [i, link] of expectedLinks(head)) if (i <= reference.length) reference[i] = link;
  return {
    file,
    ours: ourLinks(bytes, `http://127.0.0.1:8097/tests/${file}`, location),
    reference: reference.filter((l) => /^https?:/i.test(l)).map(spelled),
  };
});

describe("feed entry links against feedparser's corpus", () => {
  it("every corpus file has feedparser's links recorded", () => {
    expect(Object.keys(feedparserLinks).sort()).toEqual(cases.map((c) => c.file));
  });

  it("agree on ≥ 90 % of the files, and on every file but the named differences", () => {
    const differ = cases.filter((c) => JSON.stringify(c.ours) !== JSON.stringify(c.reference));
    const agree = cases.length - differ.length;
    console.log(
      `feed entry links agreeing with feedparser: ${agree}/${cases.length} files` +
        differ
          .map(
            (c) => `\n  ${c.file}: ours ${JSON.stringify(c.ours)}, feedparser ${JSON.stringify(c.reference)}`,
          )
          .join(""),
    );
    expect(agree / cases.length).toBeGreaterThanOrEqual(0.9);
    expect(differ.map((c) => c.file)).toEqual(Object.keys(ON_PURPOSE).sort());
    for (const file of Object.keys(ON_PURPOSE)) expect(cases.find((c) => c.file === file)?.ours).toEqual([]);
  });

  it("resolves relative links against Content-Location, else the document URI; uses an absolute http(s) Atom id", () => {
    const byFile = Object.fromEntries(cases.map((c) => [c.file, c.ours]));
    expect(byFile["wellformed/base/http_entry_link_base_content_location.xml"]).toEqual([
      "http://example.com/relative/link",
    ]);
    expect(byFile["wellformed/base/http_entry_link_base_docuri.xml"]).toEqual([
      "http://127.0.0.1:8097/relative/link",
    ]);
    expect(byFile["wellformed/atom10/entry_id_map_guid.xml"]).toEqual(["http://example.com/"]);
    expect(byFile["wellformed/atom10/entry_id_no_link_enclosures.xml"]).toEqual([]); // urn:uuid:1
  });
});

describe("UTF-16 and UTF-32 feeds (XML 1.0 appendix F)", () => {
  for (const file of xmlFiles(ENCODINGS)) {
    it(file, () => {
      const bytes = readFileSync(path.join(ENCODINGS, file));
      const wide = file.startsWith("utf-32")
        ? // Every fourth byte of the ASCII header, from where the low byte sits.
          Buffer.from(
            [...bytes.subarray(0, 4096)].filter((_, i) => i % 4 === (file.startsWith("utf-32le") ? 0 : 3)),
          ).toString("latin1")
        : header(bytes.subarray(bytes[0] === 0 || bytes[0] === 0xfe ? 1 : 0), "utf16le");
      const link = expectedLinks(wide).get(0);
      expect(link).toMatch(/^http:\/\/example\.com\/utf-/);
      const feed = parseFeed(bytes, "http://127.0.0.1:8097/tests/encoding/x.xml");
      expect(feed.items.map((i) => i.url)).toEqual([link]);
      expect(feed.items[0]?.title).toBe("été 日本 📰");
    });
  }
});
