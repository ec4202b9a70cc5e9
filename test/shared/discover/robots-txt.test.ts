import { describe, expect, it } from "vitest";
import { escapePath, patternMatches, ROBOTS_MAX_BYTES, RobotsTxt } from "../../../shared/discover/robots-txt";

const allowed = (robots: string, path: string, token = "storytrail") =>
  RobotsTxt.parse(robots).isAllowed(path, token);

describe("RobotsTxt: user-agent matching (RFC 9309 §2.2.1)", () => {
  it("matches a group line by its first word, case-insensitively (User-Agent: STORYTRAIL News)", () => {
    const robots = "User-agent: *\nAllow: /\n\nUser-Agent: STORYTRAIL News\nDisallow: /private\n";
    expect(allowed(robots, "/private/x")).toBe(false);
    expect(allowed(robots, "/private/x", "StoryTrail")).toBe(false);
    expect(allowed(robots, "/public")).toBe(true);
  });

  it("matches the letters a versioned group line starts with (User-agent: storytrail/0.1)", () => {
    expect(allowed("User-agent: storytrail/0.1\nDisallow: /\n", "/x")).toBe(false);
  });

  it("merges every group that names us and ignores * then", () => {
    const robots =
      "User-agent: storytrail\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: storytrail\nDisallow: /b\n";
    expect(allowed(robots, "/a/1")).toBe(false);
    expect(allowed(robots, "/b/1")).toBe(false);
    expect(allowed(robots, "/c/1")).toBe(true);
  });

  it("falls back to every * group, merged, when no group names us", () => {
    const robots =
      "User-agent: *\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /b\n";
    expect(allowed(robots, "/a")).toBe(false);
    expect(allowed(robots, "/b")).toBe(false);
    expect(allowed(robots, "/c")).toBe(true);
  });

  it("a token outside letters, '-' and '_' matches no named group, only *", () => {
    const robots = "User-agent: *\nDisallow: /\n\nUser-agent: bot\nAllow: /\n";
    expect(allowed(robots, "/x", "bot2")).toBe(false);
    expect(allowed(robots, "/x", "bot")).toBe(true);
  });
});

describe("RobotsTxt: typos Google accepts", () => {
  for (const key of ["useragent", "user agent", "User-Agents", "USERAGENT"]) {
    it(`'${key}:' opens a group`, () => {
      expect(allowed(`${key}: storytrail\nDisallow: /x\n`, "/x")).toBe(false);
    });
  }
  for (const key of ["disallaw", "dissallow", "dissalow", "disalow", "diasllow", "Disallowed"]) {
    it(`'${key}:' disallows`, () => {
      expect(allowed(`User-agent: *\n${key}: /x\n`, "/x/1")).toBe(false);
    });
  }

  it("a missing colon is read when the line has exactly two words", () => {
    expect(allowed("User-agent storytrail\nDisallow /x\n", "/x/1")).toBe(false);
    expect(allowed("User-agent\tstorytrail\nDisallow\t/x\n", "/x/1")).toBe(false);
    // Three words: not a rule (robots.cc refuses to guess).
    expect(allowed("User-agent: storytrail\nDisallow /x /y\n", "/x/1")).toBe(true);
  });

  it("reads Site-map: and Sitemap: lines anywhere, even outside groups", () => {
    const r = RobotsTxt.parse(
      "Site-map: https://a.example/1.xml\nUser-agent: *\nSITEMAP: https://a.example/2.xml\n",
    );
    expect(r.sitemaps).toEqual(["https://a.example/1.xml", "https://a.example/2.xml"]);
  });

  it("unknown lines neither open nor close a group; rules before any group are ignored", () => {
    const robots =
      "Disallow: /early\nUser-agent: storytrail\nNoindex: /x\nUser-agent: other\nDisallow: /late\n";
    expect(allowed(robots, "/early")).toBe(true);
    expect(allowed(robots, "/late")).toBe(false);
  });
});

describe("RobotsTxt: patterns (RFC 9309 §2.2.2, §2.2.3)", () => {
  it("longest match wins, Allow wins a tie, an empty Disallow blocks nothing", () => {
    expect(allowed("User-agent: *\nDisallow: /a\nAllow: /a/b\n", "/a/b/c")).toBe(true);
    expect(allowed("User-agent: *\nAllow: /a\nDisallow: /a/b\n", "/a/b/c")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /a\nAllow: /a\n", "/a")).toBe(true);
    expect(allowed("User-agent: *\nDisallow:\n", "/anything")).toBe(true);
  });

  it("* matches any run and a final $ anchors the end; $ elsewhere is literal", () => {
    expect(patternMatches("/a/b.pdf", "/*.pdf$")).toBe(true);
    expect(patternMatches("/a/b.pdf?x", "/*.pdf$")).toBe(false);
    expect(patternMatches("/a$b", "/a$b")).toBe(true);
    expect(patternMatches("/axbxc", "/a*b*c")).toBe(true);
    expect(patternMatches("/axcxb", "/a*b*c")).toBe(false);
    expect(patternMatches("/abcbc", "/a*bc$")).toBe(true);
    expect(patternMatches("/ab", "/a**b")).toBe(true);
    expect(patternMatches("/", "$")).toBe(false);
    expect(patternMatches("/x", "*$")).toBe(true);
  });

  it("percent-encodes non-ASCII and upper-cases %xx in patterns and paths, decoding nothing", () => {
    expect(escapePath("/café/%e2%82%ac")).toBe("/caf%C3%A9/%E2%82%AC");
    expect(escapePath("/😀")).toBe("/%F0%9F%98%80");
    expect(escapePath("/100%/x")).toBe("/100%/x");
    expect(allowed("User-agent: *\nDisallow: /café\n", escapePath("/caf%c3%a9"))).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /%7euser\n", "/%7Euser/x")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /%7Euser\n", "/~user/x")).toBe(true);
  });
});

describe("RobotsTxt: the file as served", () => {
  it("reads LF, CRLF, CR and mixed line ends, and skips a UTF-8 BOM (robots_test.cc ID_LinesNumbers…, ID_UTF8ByteOrderMark…)", () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const robots = [
        "\uFEFFUser-Agent: foo",
        "Allow: /some/path",
        "User-Agent: bar",
        "",
        "",
        "Disallow: /",
      ].join(eol);
      expect(allowed(robots, "/x", "bar"), JSON.stringify(eol)).toBe(false);
      expect(allowed(robots, "/x", "foo"), JSON.stringify(eol)).toBe(true);
    }
    expect(
      allowed("User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", "/x", "bar"),
    ).toBe(false);
  });

  it("reads the first 500 KiB and ignores the rest, without rejecting the file", () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(520);
    const r = RobotsTxt.parse(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`);
    expect(r.isAllowed("/early", "storytrail")).toBe(false);
    expect(r.isAllowed("/late", "storytrail")).toBe(true);
  });

  it("drops a rule cut in half by the cap, so a cut Allow cannot widen what is allowed", () => {
    const head = "User-agent: *\nDisallow: /\n";
    const pad = `# ${"x".repeat(ROBOTS_MAX_BYTES - head.length - 20)}\n`;
    const body = `${head}${pad}Allow: /public/only-this-page\n`;
    expect(new TextEncoder().encode(body).length).toBeGreaterThan(ROBOTS_MAX_BYTES);
    expect(RobotsTxt.parse(body).isAllowed("/private", "storytrail")).toBe(false);
    // The fetch already cut it (HttpClient truncate): the last, partial line is ignored as well.
    const cut = `${head}Allow: /pub`;
    expect(RobotsTxt.parse(cut, { truncated: true }).isAllowed("/public", "storytrail")).toBe(false);
    expect(RobotsTxt.parse(cut).isAllowed("/public", "storytrail")).toBe(true);
  });

  it("matches a 500 KiB file of wildcard rules against a long path without blowing up", () => {
    const rules = "Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n".repeat(9_000);
    const r = RobotsTxt.parse(`User-agent: *\n${rules}`);
    expect(r.isAllowed(`/${"a".repeat(2000)}`, "storytrail")).toBe(true);
  });
});

describe("RobotsTxt: Crawl-delay", () => {
  it("takes the largest Crawl-delay of the groups that apply, ignoring NaN and negative values", () => {
    const robots =
      "User-agent: storytrail\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 99\n\nUser-agent: storytrail\nCrawl-delay: 5\nCrawl-delay: NaN\nCrawl-delay: -3\n";
    expect(RobotsTxt.parse(robots).crawlDelaySeconds("storytrail")).toBe(5);
    expect(RobotsTxt.parse(robots).crawlDelaySeconds("other")).toBe(99);
  });

  it("a Crawl-delay belongs to its group: another crawler's delay is not ours", () => {
    const robots = "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /admin\n";
    expect(RobotsTxt.parse(robots).crawlDelaySeconds("storytrail")).toBeNull();
    expect(RobotsTxt.parse(robots).crawlDelaySeconds("bingbot")).toBe(10);
    expect(RobotsTxt.parse(robots).isAllowed("/admin", "bingbot")).toBe(true);
  });

  it("keeps huge values as written (the politeness rule clamps them)", () => {
    expect(RobotsTxt.parse("User-agent: *\nCrawl-delay: 1e9\n").crawlDelaySeconds("x")).toBe(1e9);
    expect(RobotsTxt.parse("User-agent: *\nCrawl-delay: 1e999\n").crawlDelaySeconds("x")).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(RobotsTxt.parse("User-agent: *\nCrawl-delay: soon\n").crawlDelaySeconds("x")).toBeNull();
  });
});
