import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { PROSE_PARAGRAPH as para } from "../../support/article-html";

const NOW = new Date("2026-12-01T00:00:00Z");
const page = (head: string, body: string, url = "https://news.example.org/story") =>
  extractArticle({
    html: `<html><head>${head}</head><body><article><h1>Headline of the story</h1>${body}<p>${para}</p></article></body></html>`,
    url,
    now: NOW,
  });

describe("publication dates the page states in less common places", () => {
  it("reads a meta key that names itself a publication date by its ending", () => {
    const x = page(`<meta name="cms:publicationDate" content="2020-04-04T10:00:00+02:00">`, "");
    expect(x).toMatchObject({ published_day: "2020-04-04", published_at: "2020-04-04T08:00:00Z" });
  });

  it("ignores such a key when a modification key repeats its value (the record's last save)", () => {
    const x = page(
      `<meta name="cms:publicationDate" content="2020-09-08T17:33:18+02:00"><meta name="cms:modificationDate" content="2020-09-08T17:33:18+02:00">`,
      "<p>Sport, 4 April 2020</p>",
    );
    expect(x.published_day).not.toBe("2020-09-08");
  });

  it("reads hAtom's abbr.published title and data-utime epoch seconds, not an unmarked <abbr> list", () => {
    expect(
      page("", `<abbr class="published" title="2016-03-07T10:00:00+01:00">7 March</abbr>`).published_day,
    ).toBe("2016-03-07");
    expect(page("", `<abbr class="timestamp" data-utime="1457341200">Monday</abbr>`).published_day).toBe(
      "2016-03-07",
    );
    const list = page("", `<ul><li><abbr class="date" title="2018-09-11T10:57:27Z">x</abbr></li></ul>`);
    expect(list.published_day).toBeNull();
  });

  it("reads a day-first date in the URL slug", () => {
    expect(page("", "", "https://news.example.org/politics/story-19-10-2019.html").published_day).toBe(
      "2019-10-19",
    );
  });
});

describe("the publisher's local day of a UTC-stated instant", () => {
  const utc = `<meta property="article:published_time" content="2021-11-04T23:00:00Z">`;

  it("takes the neighbouring day the URL shows when a zone puts the instant on it", () => {
    const x = page(utc, "", "https://news.example.org/2021/11/05/story");
    expect(x).toMatchObject({ published_day: "2021-11-05", published_at: "2021-11-04T23:00:00Z" });
  });

  it("takes the neighbouring day the byline shows", () => {
    expect(page(utc, "<p>Published 5 November 2021</p>").published_day).toBe("2021-11-05");
  });

  it("keeps the UTC day when no zone reaches the shown day, or nothing is shown", () => {
    const noon = `<meta property="article:published_time" content="2021-11-04T08:00:00Z">`;
    expect(page(noon, "", "https://news.example.org/2021/11/05/story").published_day).toBe("2021-11-04");
    expect(page(utc, "").published_day).toBe("2021-11-04");
  });
});
