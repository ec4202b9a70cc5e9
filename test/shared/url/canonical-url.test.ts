import { describe, expect, it } from "vitest";
import {
  articleIdFor,
  canonicalUrl,
  hostOf,
  InvalidUrlError,
  resolveCanonical,
} from "../../../shared/url/canonical-url";
import { isTrackingParam } from "../../../shared/url/tracking-params";

describe("canonicalUrl", () => {
  it("canonicalises the seed example", () => {
    expect(
      canonicalUrl("https://www.Example-News.com/business/rates-hold/amp/?utm_source=x&id=5&fbclid=abc"),
    ).toBe("https://example-news.com/business/rates-hold?id=5");
  });

  const table: [string, string][] = [
    // scheme, host, www, port
    ["HTTPS://WWW.EXAMPLE.COM/Path", "https://example.com/Path"],
    ["http://example.com:80/a", "http://example.com/a"],
    ["https://example.com:443/a", "https://example.com/a"],
    ["https://example.com:8443/a", "https://example.com:8443/a"],
    ["http://example.com:443/a", "http://example.com:443/a"],
    ["https://example.com./a", "https://example.com/a"],
    ["https://www.com/a", "https://www.com/a"],
    ["https://www2.example.com/a", "https://www2.example.com/a"],
    ["https://user:pass@example.com/a", "https://example.com/a"],
    // IDN
    ["https://Bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"],
    ["https://www.xn--bcher-kva.example/", "https://xn--bcher-kva.example/"],
    // fragment, trailing slash, dot segments
    ["https://example.com/a/b/#section", "https://example.com/a/b"],
    ["https://example.com/", "https://example.com/"],
    ["https://example.com", "https://example.com/"],
    ["https://example.com/a/./b/../c/", "https://example.com/a/c"],
    ["https://example.com/a///", "https://example.com/a"],
    // AMP and print variants
    ["https://example.com/news/story/amp", "https://example.com/news/story"],
    ["https://example.com/news/story/AMP/", "https://example.com/news/story"],
    ["https://example.com/news/story/print", "https://example.com/news/story"],
    ["https://example.com/news/story.amp.html", "https://example.com/news/story.html"],
    ["https://example.com/news/story?outputType=amp", "https://example.com/news/story"],
    ["https://example.com/news/story?outputType=print&page=2", "https://example.com/news/story?page=2"],
    ["https://example.com/news/story?amp", "https://example.com/news/story"],
    ["https://example.com/news/story?amp=1", "https://example.com/news/story"],
    ["https://example.com/news/story?amp=no", "https://example.com/news/story?amp=no"],
    ["https://example.com/amp", "https://example.com/"],
    ["https://example.com/amplifier", "https://example.com/amplifier"],
    [
      "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/news/story/amp",
      "https://example.com/news/story",
    ],
    ["https://example-com.cdn.ampproject.org/c/example.com/news/story", "http://example.com/news/story"],
    [
      "https://example-com.cdn.ampproject.org/v/s/example.com/a?amp_js_v=0.1&usqp=mq331AQ",
      "https://example.com/a",
    ],
    ["https://www.google.com/amp/s/www.example.com/a/amp", "https://example.com/a"],
    // tracking parameters and query order
    ["https://example.com/a?utm_campaign=x&UTM_MEDIUM=y&b=2&a=1", "https://example.com/a?a=1&b=2"],
    [
      "https://example.com/a?gclid=1&mc_cid=2&mc_eid=3&ref=tw&cmpid=rss&CMP=share_btn",
      "https://example.com/a",
    ],
    ["https://example.com/a?ocid=msn&ito=792&xtor=RSS-1&ns_mchannel=social&_ga=1.2", "https://example.com/a"],
    ["https://example.com/a?id=5&id=5", "https://example.com/a?id=5"],
    ["https://example.com/a?b=2&a=2&a=1", "https://example.com/a?a=1&a=2&b=2"],
    ["https://example.com/a?", "https://example.com/a"],
    ["https://example.com/a?&&x=1&", "https://example.com/a?x=1"],
    ["https://example.com/search?q=a+b", "https://example.com/search?q=a+b"],
    ["https://example.com/search?reference=1", "https://example.com/search?reference=1"],
    // percent-encoding
    ["https://example.com/%7euser/%41bc", "https://example.com/~user/Abc"],
    ["https://example.com/a%2fb", "https://example.com/a%2Fb"],
    ["https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9"],
    ["https://example.com/café", "https://example.com/caf%C3%A9"],
    ["https://example.com/a?q=%7e%2f", "https://example.com/a?q=~/"],
    // query equivalence: one spelling per form-decoded name and value; & = + stay escaped
    ["https://example.com/search?q=a%20b", "https://example.com/search?q=a+b"],
    ["https://example.com/search?q=a b", "https://example.com/search?q=a+b"],
    ["https://example.com/search?q=%41%62c", "https://example.com/search?q=Abc"],
    ["https://example.com/search?q=1%2B1%3D2%26more", "https://example.com/search?q=1%2B1%3D2%26more"],
    ["https://example.com/search?q=%7C|%5b%5D%7B", "https://example.com/search?q=||[]%7B"],
    ["https://example.com/search?url=http%3A%2F%2Fx.org%2F", "https://example.com/search?url=http://x.org/"],
    ["https://example.com/search?q=100%&p=%zz", "https://example.com/search?p=%25zz&q=100%25"],
    ["https://example.com/search?%71=1", "https://example.com/search?q=1"],
    ["https://example.com/a?utm%5Fsource=x&%61mp=1&a=1", "https://example.com/a?a=1"],
    ["https://example.com/a?q=a%20b&q=a+b", "https://example.com/a?q=a+b"],
    ["https://example.com/a?b&a=", "https://example.com/a?a=&b"],
    // path: escapes of pchar decoded, others upper-cased; %2F and a lone % stay escaped
    ["https://example.com/a%3Ab%40c%2Bd%21", "https://example.com/a:b@c+d!"],
    ["https://example.com/AC%2fDC+rocks%3f/", "https://example.com/AC%2FDC+rocks%3F"],
    ["https://example.com/50%/x", "https://example.com/50%25/x"],
    ["  https://example.com/padded  ", "https://example.com/padded"],
    // IP hosts stay as they are (after WHATWG normalisation)
    ["http://2130706433/x", "http://127.0.0.1/x"],
    ["http://[::1]:8080/x/", "http://[::1]:8080/x"],
  ];
  for (const [input, expected] of table) {
    it(`${input} → ${expected}`, () => {
      expect(canonicalUrl(input)).toBe(expected);
    });
  }

  it("resolves relative URLs against a base", () => {
    expect(canonicalUrl("../b/?utm_source=x", "https://www.example.com/a/c/d")).toBe(
      "https://example.com/a/b",
    );
    expect(canonicalUrl("//cdn.example.com/x", "https://example.com/")).toBe("https://cdn.example.com/x");
  });

  for (const bad of [
    "",
    "   ",
    "not a url",
    "ftp://example.com/x",
    "javascript:alert(1)",
    "mailto:a@b.c",
    "data:,x",
    "/relative",
  ]) {
    it(`throws InvalidUrlError for ${JSON.stringify(bad)}`, () => {
      expect(() => canonicalUrl(bad)).toThrow(InvalidUrlError);
    });
  }
});

describe("resolveCanonical", () => {
  const page = "https://www.example.com/news/story-123?utm_source=fb";
  it("uses the page's canonical on the same registrable domain", () => {
    expect(resolveCanonical(page, "https://example.com/news/story")).toBe("https://example.com/news/story");
    expect(resolveCanonical(page, "https://edition.example.com/story/amp")).toBe(
      "https://edition.example.com/story",
    );
    expect(resolveCanonical("https://a.example.co.uk/x", "https://b.example.co.uk/y")).toBe(
      "https://b.example.co.uk/y",
    );
  });
  it("resolves a relative canonical against the page", () => {
    expect(resolveCanonical(page, "/news/story")).toBe("https://example.com/news/story");
  });
  it("ignores a canonical on another site unless it is a partner", () => {
    expect(resolveCanonical(page, "https://other-news.com/story")).toBe("https://example.com/news/story-123");
    expect(
      resolveCanonical(page, "https://www.wire-service.com/story", { partners: ["wire-service.com"] }),
    ).toBe("https://wire-service.com/story");
    expect(
      resolveCanonical(page, "https://feeds.wire-service.com/story", { partners: ["wire-service.com"] }),
    ).toBe("https://feeds.wire-service.com/story");
  });
  it("treats different private-suffix sites as different sites", () => {
    expect(resolveCanonical("https://alice.github.io/post", "https://mallory.github.io/post")).toBe(
      "https://alice.github.io/post",
    );
    expect(resolveCanonical("https://co.uk.example.co.uk/a", "https://evil.co.uk/a")).toBe(
      "https://co.uk.example.co.uk/a",
    );
  });
  it("ignores a homepage canonical on an article page, and junk canonicals", () => {
    expect(resolveCanonical(page, "https://www.example.com/")).toBe("https://example.com/news/story-123");
    expect(resolveCanonical("https://example.com/", "https://www.example.com/")).toBe("https://example.com/");
    expect(resolveCanonical(page, "javascript:void(0)")).toBe("https://example.com/news/story-123");
    expect(resolveCanonical(page, "   ")).toBe("https://example.com/news/story-123");
    expect(resolveCanonical(page, null)).toBe("https://example.com/news/story-123");
  });
  it("throws InvalidUrlError when the page URL itself is invalid", () => {
    expect(() => resolveCanonical("ftp://x/y", "https://x/y")).toThrow(InvalidUrlError);
  });
});

describe("articleIdFor and hostOf", () => {
  it("articleIdFor is the first 32 hex chars of sha256", () => {
    const id = articleIdFor("https://example-news.com/business/rates-hold?id=5");
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).toBe(articleIdFor("https://example-news.com/business/rates-hold?id=5"));
    expect(id).not.toBe(articleIdFor("https://example-news.com/business/rates-hold?id=6"));
    // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(articleIdFor("abc")).toBe("ba7816bf8f01cfea414140de5dae2223");
  });
  it("hostOf gives the lower-case host without www. and port", () => {
    expect(hostOf("https://WWW.Example.COM:8443/a?b")).toBe("example.com");
    expect(hostOf("https://news.example.com/")).toBe("news.example.com");
    expect(hostOf("https://Bücher.example/")).toBe("xn--bcher-kva.example");
    expect(() => hostOf("nope")).toThrow(InvalidUrlError);
  });
});

describe("tracking parameter list", () => {
  it("matches names and prefixes case-insensitively, and leaves content parameters alone", () => {
    for (const p of [
      "utm_source",
      "UTM_Content",
      "fbclid",
      "gclid",
      "mc_cid",
      "mc_xyz",
      "ref",
      "cmpid",
      "WT.mc_id",
    ]) {
      expect(isTrackingParam(p), p).toBe(true);
    }
    for (const p of ["id", "page", "q", "p", "article", "reference", "refresh", "v", "year"]) {
      expect(isTrackingParam(p), p).toBe(false);
    }
  });
});

describe("canonicalUrl and parameter names that are Object.prototype keys", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty=2"])(
    "keeps ?%s and is idempotent",
    (q) => {
      const once = canonicalUrl(`http://a.example?${q}`);
      expect(once).toBe(`http://a.example/?${q}`);
      expect(canonicalUrl(once)).toBe(once);
    },
  );
});
