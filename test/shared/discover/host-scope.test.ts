import { describe, expect, it } from "vitest";
import { HostScope, OffScopeTally } from "../../../shared/discover/host-scope";

describe("HostScope", () => {
  const bbc = new HostScope("https://www.bbc.co.uk/news", ["partner.example"]);

  it("sitemaps: the sitemap's own host (www. and port aside) or the homepage's", () => {
    const sm = "https://www.bbc.co.uk/sitemaps/news.xml";
    expect(bbc.inSitemap("https://bbc.co.uk/news/a", sm)).toBe(true);
    expect(bbc.inSitemap("https://www.bbc.co.uk:443/news/a", sm)).toBe(true);
    expect(bbc.inSitemap("https://news.bbc.co.uk/a", sm)).toBe(false); // another host of the same site
    expect(bbc.inSitemap("https://www.bbc.co.uk/a", "https://sitemaps.cdn.example/bbc.xml")).toBe(true);
    expect(bbc.inSitemap("https://sitemaps.cdn.example/page", "https://sitemaps.cdn.example/bbc.xml")).toBe(
      true,
    );
    expect(bbc.inSitemap("http://169.254.169.254/latest/", sm)).toBe(false);
    expect(bbc.inSitemap("https://evil.example/a", sm)).toBe(false);
  });

  it("allowed_hosts: the host, its subdomains", () => {
    const sm = "https://www.bbc.co.uk/sitemap.xml";
    expect(bbc.inSitemap("https://partner.example/a", sm)).toBe(true);
    expect(bbc.inSitemap("https://www.partner.example/a", sm)).toBe(true);
    expect(bbc.inSitemap("https://news.partner.example/a", sm)).toBe(true);
    expect(bbc.inSitemap("https://notpartner.example/a", sm)).toBe(false);
  });

  it("feeds: the feed's or the homepage's registrable domain", () => {
    const feed = "https://feeds.bbci.co.uk/news/rss.xml";
    expect(bbc.inFeed("https://www.bbc.co.uk/news/a", feed)).toBe(true); // homepage's domain
    expect(bbc.inFeed("https://news.bbc.co.uk/a", feed)).toBe(true);
    expect(bbc.inFeed("https://www.bbci.co.uk/a", feed)).toBe(true); // feed's domain
    expect(bbc.inFeed("https://partner.example/a", feed)).toBe(true);
    expect(bbc.inFeed("https://bbc.co.uk.evil.example/a", feed)).toBe(false);
    expect(bbc.inFeed("http://10.0.0.1/admin", feed)).toBe(false);
  });

  it("private suffixes count as registrable domains (one blogspot blog is not another)", () => {
    const blog = new HostScope("https://alice.blogspot.com/");
    expect(
      blog.inFeed("https://alice.blogspot.com/2026/a.html", "https://alice.blogspot.com/feeds/posts"),
    ).toBe(true);
    expect(blog.inFeed("https://mallory.blogspot.com/x", "https://alice.blogspot.com/feeds/posts")).toBe(
      false,
    );
  });
});

describe("OffScopeTally", () => {
  it("one line per document naming at most five hosts", () => {
    const t = new OffScopeTally();
    expect(t.detail("sitemap")).toBeNull();
    for (let i = 0; i < 8; i++) t.add(`https://h${i}.example/x`);
    expect(t.detail("feed")).toBe(
      "8 entries not on the feed's or the homepage's registrable domain and not in allowed_hosts dropped (h0.example, h1.example, h2.example, h3.example, h4.example)",
    );
  });
});
