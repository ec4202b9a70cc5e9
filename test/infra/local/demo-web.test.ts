/**
 * The demo web on its own (no crawl): the same clock serves the same bytes, the hosts answer over
 * real HTTP with their own templates and announcements, nothing is published after the clock, and
 * over days it publishes new stories, develops some, revises pages at their URLs and lists each day
 * within its listings' windows.
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
    // A day's content is the seed's and the day's: the same whichever day the web started on.
    const fromEarlier = buildNewsWeb(origins, anchor, { firstDay: "2026-11-28" });
    expect(fromEarlier.syndicated.filter((s) => s.day === "2026-12-02").map((s) => s.headline)).toEqual(
      a.syndicated.map((s) => s.headline),
    );
  });

  it("publishes new stories every day, develops one over three days and revises the day before's pages", async () => {
    const days = ["2026-12-02", "2026-12-03", "2026-12-04"];
    const webs = days.map((_, i) =>
      buildNewsWeb(origins, new Date(anchor.getTime() + i * 86_400_000), { firstDay: days[0]! }),
    );
    const last = webs[2]!;
    expect(last.days).toEqual({ first: "2026-12-02", last: "2026-12-04" });
    // New headlines every day.
    const headlines = days.map(
      (d) => new Set(last.syndicated.filter((s) => s.day === d).map((s) => s.headline)),
    );
    expect(days.map((d) => last.syndicated.filter((s) => s.day === d).length)).toEqual([5, 5, 5]);
    expect([...headlines[1]!].some((h) => headlines[0]!.has(h))).toBe(false);
    expect([...headlines[2]!].some((h) => headlines[1]!.has(h))).toBe(false);
    // The first day's developing story: followed up at new URLs on both later days, updated at its URL the next.
    const [dev] = last.developing;
    expect(dev).toMatchObject({ day: "2026-12-02" });
    expect(dev!.followUps.map((f) => f.day)).toEqual(["2026-12-03", "2026-12-04"]);
    expect(dev!.updates).toEqual([{ url: dev!.urls[0], day: "2026-12-03" }]);
    expect(dev!.followUps.every((f) => !dev!.urls.includes(f.url))).toBe(true);
    const wire = last.routes.get("continental-wire")!;
    const page = (url: string) => String(wire.get(new URL(url).pathname)!.body);
    const words = (html: string) => new Set(html.match(/<p>[^<]*<\/p>/g));
    const original = words(page(dev!.urls[0]!));
    const followUp = words(page(dev!.followUps[0]!.url));
    expect([...original].filter((p) => !followUp.has(p))).toEqual(
      [...original].filter((p) => p.startsWith("<p>Update:")),
    );
    // Each later day revises five of the day before's pages (one of each kind) and updates the developing story.
    expect(last.revisions.map((r) => `${r.day} ${r.kind}`)).toEqual(
      ["2026-12-03", "2026-12-04"].flatMap((d) =>
        ["headline", "paragraph", "correction", "figure", "republish", "update"].map((k) => `${d} ${k}`),
      ),
    );
    const before = webs[0]!;
    for (const r of last.revisions.filter((x) => x.day === "2026-12-03")) {
      const id = [WIRE, ...OUTLETS].find((o) => r.url.includes(`127.0.0.${o.octet}:`))!.id;
      const path = new URL(r.url).pathname;
      const [was, now] = [before, webs[1]!].map((w) => String(w.routes.get(id)!.get(path)!.body));
      const text = (html: string) => (html.match(/<p>[^<]*<\/p>|<h1[^>]*>[^<]*<\/h1>/g) ?? []).join("\n");
      if (r.kind === "republish") expect(text(now!)).toBe(text(was!));
      else expect(text(now!)).not.toBe(text(was!));
      if (r.kind === "figure") expect(r.change).toMatch(/^\d+ percent → \d+ percent$|^\d+ → \d+$/);
      if (r.kind === "headline") expect(now).toContain(`>${r.change}</h1>`);
      if (r.kind === "correction") expect(r.change).toMatch(/^Correction: /);
      // The publisher's own update markup, and the new lastmod, on every revised page.
      expect(now).toMatch(/dateModified|article:modified_time|class="updated"/);
      expect(was).not.toMatch(/dateModified|article:modified_time|class="updated"/);
      // Its lastmod: after the day before's crawl (its clock), by this day's.
      expect(Date.parse(r.at)).toBeGreaterThan(anchor.getTime());
      expect(Date.parse(r.at)).toBeLessThanOrEqual(anchor.getTime() + 86_400_000);
    }
    // Listings by their windows: news sitemaps three days, feeds two, plain sitemaps the week; old pages answer.
    const fifth = buildNewsWeb(origins, new Date(anchor.getTime() + 4 * 86_400_000), { firstDay: days[0]! });
    const wireMaps = fifth.routes.get("continental-wire")!;
    const listed = (path: string) =>
      String(wireMaps.get(path)!.body).match(/\/wire\/\d{4}\/\d\d\/\d\d\//g) ?? [];
    const dayOf = (p: string) => p.slice(6, 16).replace(/\//g, "-");
    const wirePublished = fifth.syndicated.filter((s) => s.day === "2026-12-02").map((s) => s.urls[0]!);
    expect(new Set(listed("/sitemap.xml").map(dayOf)).has(dayOf(new URL(wirePublished[0]!).pathname))).toBe(
      true,
    );
    expect(listed("/news-sitemap.xml").every((p) => dayOf(p) >= "2026-12-03")).toBe(true);
    expect(wireMaps.get(new URL(wirePublished[0]!).pathname)?.status).toBe(200);
    const atomFeed = String(fifth.routes.get("lakeshore-post")!.get("/atom.xml")!.body);
    const lakeshoreOld = fifth.syndicated.find(
      (s) => s.day === "2026-12-02" && s.urls.some((u) => u.includes(".13:")),
    );
    expect(atomFeed).not.toContain(lakeshoreOld!.urls.find((u) => u.includes(".13:")));
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
