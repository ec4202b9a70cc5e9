/**
 * The demo web on its own (no crawl): the same clock serves the same bytes, the hosts answer over
 * real HTTP with their own templates and announcements, and nothing is published after the clock.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildNewsWeb } from "../../../infra/local/demo-web/news-web";
import { OUTLETS, WIRE } from "../../../infra/local/demo-web/outlets";
import { type DemoWeb, startDemoWeb } from "../../../infra/local/demo-web/server";

const anchor = new Date("2026-12-02T00:00:00Z");
const origins = new Map([WIRE, ...OUTLETS].map((o) => [o.id, `http://127.0.0.${o.octet}:8080`]));

describe("demo web", () => {
  let web: DemoWeb;
  beforeAll(async () => {
    web = await startDemoWeb({ anchor });
  });
  afterAll(async () => web?.close());

  it("is generated from its seed and clock: two builds serve identical documents", () => {
    const a = buildNewsWeb(origins, anchor);
    const b = buildNewsWeb(origins, anchor);
    const flat = (w: ReturnType<typeof buildNewsWeb>) =>
      [...w.routes].flatMap(([id, m]) =>
        [...m].map(([p, r]) => [id, p, r.status, r.type, Buffer.from(r.body).toString("base64")]),
      );
    expect(flat(a)).toEqual(flat(b));
    expect(a.syndicated.map((s) => s.urls.length)).toEqual([10, 7, 5, 4, 3]);
    const later = buildNewsWeb(origins, new Date(anchor.getTime() + 86_400_000));
    expect(flat(later)).not.toEqual(flat(a));
  });

  it("serves a wire service and nine outlets on their own hosts, each announcing its articles its own way", async () => {
    expect(web.outlets).toHaveLength(10);
    expect(new Set(web.outlets.map((o) => new URL(o.origin).hostname)).size).toBe(10);
    const get = async (url: string) => {
      const r = await fetch(url);
      return {
        status: r.status,
        type: r.headers.get("content-type") ?? "",
        body: Buffer.from(await r.arrayBuffer()),
      };
    };
    const herald = web.outlets.find((o) => o.id === "northgate-herald")!;
    expect((await get(`${herald.origin}/robots.txt`)).body.toString()).toContain(
      `Sitemap: ${herald.origin}/sitemap.xml.gz`,
    );
    const gz = await get(`${herald.origin}/sitemap.xml.gz`);
    expect(gunzipSync(gz.body).toString()).toMatch(/^<\?xml[\s\S]*<urlset[\s\S]*<lastmod>/);
    const wire = web.outlets[0]!;
    expect((await get(`${wire.origin}/news-sitemap.xml`)).body.toString()).toContain(
      "<news:publication_date>",
    );
    const lakeshore = web.outlets.find((o) => o.id === "lakeshore-post")!;
    expect((await get(`${lakeshore.origin}/atom.xml`)).body.toString()).toContain(
      '<feed xmlns="http://www.w3.org/2005/Atom">',
    );
    const gazette = web.outlets.find((o) => o.id === "riverside-gazette")!;
    expect((await get(`${gazette.origin}/feed.xml`)).body.toString()).toContain(
      "?utm_source=rss&amp;utm_medium=feed",
    );
    // The same wire story, as two outlets template it.
    const [first, second] = web.syndicated[0]!.urls.slice(1, 3);
    const pages = await Promise.all([get(first!), get(second!)]);
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    const markup = pages.map((p) =>
      p.body
        .toString()
        .replace(/<p>[^<]*<\/p>/g, "")
        .slice(0, 400),
    );
    expect(markup[0]).not.toEqual(markup[1]);
  });

  it("publishes nothing after its clock, and its broken pages fail the way they should", async () => {
    for (const s of web.sources.sources) {
      const feedsAndMaps = [...(s.feeds as string[]), ...(s.sitemaps as string[])];
      for (const url of feedsAndMaps) {
        const text = await (await fetch(url)).text();
        for (const [, d] of text.matchAll(/<(?:pubDate|published|lastmod|news:publication_date)>([^<]+)</g))
          expect(Date.parse(d!)).toBeLessThanOrEqual(anchor.getTime());
      }
    }
    const observer = web.outlets.find((o) => o.id === "meadowbrook-observer")!.origin;
    expect((await fetch(`${observer}/news/story-that-was-removed`)).status).toBe(404);
    expect((await fetch(`${observer}/news/withdrawn-report`)).status).toBe(410);
    expect((await fetch(`${observer}/files/annual-report.pdf`)).headers.get("content-type")).toBe(
      "application/pdf",
    );
    expect(web.failures).toEqual({
      http_404: 1,
      http_410: 1,
      not_html: 1,
      thin_content: 1,
      robots_disallowed: 1,
    });
  });
});
