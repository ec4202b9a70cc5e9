/**
 * Feed entry links as feedparser finds them. data/feed-cases.json holds cases ported from feedparser's
 * own corpus (kurtmckee/feedparser tests/wellformed, tests/illformed) and the damage issue 14 names,
 * each with the links feedparser 6.0.10 found in it (data/feedparser-links.py). Differences we keep on
 * purpose are listed with their reason; the rest must agree, and overall agreement must stay ≥ 90 %.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";

interface FeedCase {
  name: string;
  source: string;
  url: string;
  text: string;
  feedparser_links: string[] | null;
  feedparser_error?: string;
}

const CASES: FeedCase[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "data", "feed-cases.json"), "utf8"),
) as FeedCase[];

/** Where feedparser 6.0.10 is not the reference: its own test file expects otherwise, or we differ on purpose. */
const EXPECTED_OTHERWISE: Record<string, { links: string[]; why: string }> = {
  "wellformed/atom10/entry_link_no_href_link_priority": {
    links: ["http://www.example.com/alternate", "http://www.example.com/alternate"],
    why: "the corpus file's own Expect line (6.0.10 predates the fix and takes the enclosure)",
  },
  "wellformed/atom10/entry_id_no_link_enclosures": {
    links: [],
    why: "its id (urn:uuid:1) is not an http(s) page to fetch: feedparser uses any id as the link",
  },
  "damage/feedburner_origlink": {
    links: ["http://example.com/real"],
    why: "feedburner:origLink is the publisher's URL; feedparser keeps the feedproxy redirect",
  },
};

function linksOf(c: FeedCase): string[] {
  try {
    return parseFeed(c.text, c.url).items.map((i) => i.url);
  } catch {
    return [];
  }
}

/** Links in common (as multisets), of all links either side found. */
function agreement(ours: string[], theirs: string[]): { agree: number; total: number } {
  const left = [...theirs];
  let agree = 0;
  for (const l of ours) {
    const at = left.indexOf(l);
    if (at >= 0) {
      agree++;
      left.splice(at, 1);
    }
  }
  return { agree, total: ours.length + left.length };
}

const comparable = CASES.filter((c) => c.feedparser_links !== null);

describe("feed entry links against feedparser", () => {
  for (const c of comparable) {
    const otherwise = EXPECTED_OTHERWISE[c.name];
    it(`${c.name}${otherwise ? ` (differs: ${otherwise.why})` : ""}`, () => {
      expect(linksOf(c)).toEqual(otherwise ? otherwise.links : c.feedparser_links);
    });
  }

  it("cases feedparser 6.0.10 crashes on still give their links without throwing", () => {
    const crashed = CASES.filter((c) => c.feedparser_links === null);
    expect(crashed.map((c) => c.name)).toEqual([
      "illformed/rss_item_nested_textinput",
      "illformed/rss_image_height_stray_end_tag",
      "illformed/charref_out_of_range",
    ]);
    expect(crashed.map((c) => linksOf(c))).toEqual([
      [], // the only <link> belongs to the item's textInput, not the item
      ["http://example.org/after-stray-tag"],
      ["http://example.com/charref"],
    ]);
  });

  it("≥ 90 % of the entry links feedparser finds agree", () => {
    let agree = 0;
    let total = 0;
    for (const c of comparable) {
      const r = agreement(linksOf(c), c.feedparser_links ?? []);
      agree += r.agree;
      total += r.total;
    }
    console.log(
      `feed entry links agreeing with feedparser 6.0.10: ${agree}/${total} over ${comparable.length} cases`,
    );
    expect(agree / total).toBeGreaterThanOrEqual(0.9);
  });
});
