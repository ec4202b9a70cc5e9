import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../shared/fetch/http";
import { type NewsServer, send, startNewsServer } from "../../support/news-server";

const UA = "storytrail-test/0.1 (+https://example.org/crawler)";
let site: NewsServer;
let client: HttpClient;

beforeAll(async () => {
  site = await startNewsServer({
    "/latin1": send(
      "text/html; charset=iso-8859-1",
      Buffer.from("<html><body>caf\xe9</body></html>", "latin1"),
    ),
    "/meta-charset": send(
      "text/html",
      Buffer.concat([
        Buffer.from('<html><head><meta charset="windows-1251"></head><body>'),
        Buffer.from([0xcf, 0xf0, 0xe8]),
        Buffer.from("</body></html>"),
      ]),
    ),
    "/bom": send(
      "text/html; charset=iso-8859-1",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<html>é</html>")]),
    ),
    "/no-type": (_req, res) => {
      res.writeHead(200);
      res.end("<!doctype html><html><body>untyped</body></html>");
    },
    "/chain/0": send("text/html", "<html>end of chain</html>"),
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [
        `/chain/${n}`,
        (_req: unknown, res: import("node:http").ServerResponse) => {
          res.writeHead(301, { location: `/chain/${n - 1}` });
          res.end();
        },
      ]),
    ),
    "/status/410": send("text/html", "gone", {}, 410),
    "/status/429": send("text/html", "slow down", { "retry-after": "60" }, 429),
    "/status/503": send("text/html", "down", {}, 503),
    "/status/403": send("text/html", "no", {}, 403),
    "/brotli": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "br" });
      res.end(zlib.brotliCompressSync("<html>brotli</html>"));
    },
    "/deflate-raw": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "deflate" });
      res.end(zlib.deflateRawSync("<html>raw deflate</html>"));
    },
    "/bad-gzip": send("text/html", "definitely not gzip", { "content-encoding": "gzip" }),
    "/gzip-then-br": send("text/html", zlib.brotliCompressSync(zlib.gzipSync("<html>two codings</html>")), {
      "content-encoding": "gzip, br",
    }),
    "/three-gzips": send("text/html", zlib.gzipSync(zlib.gzipSync(zlib.gzipSync("<html>3</html>"))), {
      "content-encoding": "gzip,gzip,gzip",
    }),
    // 21,000 stacked codings in a 63 KB header: one decoder each cost ~420 MB and 2.7 s before the cap.
    "/br-times-21000": send("text/html", zlib.brotliCompressSync("<html>x</html>"), {
      "content-encoding": Array(21_000).fill("br").join(","),
    }),
    // Past the 64 KiB header cap (Node's own default is 16 KiB).
    "/huge-headers": send("text/html", "<html>x</html>", { "x-filler": "a".repeat(70 * 1024) }),
    "/big-headers": send("text/html", "<html>cookies</html>", { "set-cookie": "a".repeat(40 * 1024) }),
    // 16 MiB of zeros in each coding the client decodes, and as a gzip file (sitemap.xml.gz): the 5 MiB cap holds.
    "/brotli-bomb": send("text/html", zlib.brotliCompressSync(Buffer.alloc(16 << 20)), {
      "content-encoding": "br",
    }),
    "/deflate-bomb": send("text/html", zlib.deflateSync(Buffer.alloc(16 << 20)), {
      "content-encoding": "deflate",
    }),
    "/gzip-file-bomb": send("application/x-gzip", zlib.gzipSync(Buffer.alloc(16 << 20))),
    "/declared-too-large": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-length": String(6 << 20) });
      res.end();
    },
    "/compress": send("text/html", "whatever", { "content-encoding": "compress" }),
  });
  client = new HttpClient({ userAgent: UA, allowPrivateAddresses: true });
});

afterAll(async () => {
  await client.close();
  await site.close();
});

describe("HttpClient: ordinary fetches", () => {
  it("fetches HTML and sends the User-Agent and Accept-Encoding", async () => {
    const r = await client.fetch(site.url("/article"), { accept: "html" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.status).toBe(200);
    expect(r.text).toContain("<p>Hello</p>");
    expect(r.charset).toBe("utf-8");
    expect(r.redirects).toEqual([]);
    expect(site.lastHeaders.get("/article")?.["user-agent"]).toBe(UA);
    expect(site.lastHeaders.get("/article")?.["accept-encoding"]).toContain("gzip");
  });

  it("decodes charsets from the header, <meta charset> and the BOM", async () => {
    const latin = await client.fetch(site.url("/latin1"), { accept: "html" });
    expect(latin.ok && latin.text).toContain("café");
    expect(latin.ok && latin.charset).toBe("windows-1252");
    const meta = await client.fetch(site.url("/meta-charset"), { accept: "html" });
    expect(meta.ok && meta.text).toContain("При");
    const bom = await client.fetch(site.url("/bom"), { accept: "html" });
    expect(bom.ok && bom.charset).toBe("utf-8");
    expect(bom.ok && bom.text).toBe("<html>é</html>");
  });

  it("decompresses gzip, brotli and raw deflate content encodings", async () => {
    const rss = await client.fetch(site.url("/feeds/rss.xml"), { accept: "feed" });
    expect(rss.ok && rss.text).toContain("<rss");
    const br = await client.fetch(site.url("/brotli"), { accept: "html" });
    expect(br.ok && br.text).toBe("<html>brotli</html>");
    const raw = await client.fetch(site.url("/deflate-raw"), { accept: "html" });
    expect(raw.ok && raw.text).toBe("<html>raw deflate</html>");
  });

  it("decodes two stacked content encodings, in the order they were applied", async () => {
    const r = await client.fetch(site.url("/gzip-then-br"), { accept: "html" });
    expect(r.ok && r.text).toBe("<html>two codings</html>");
  });

  it("takes response headers up to 64 KiB (news sites' cookies outgrow Node's 16 KiB)", async () => {
    const r = await client.fetch(site.url("/big-headers"), { accept: "html" });
    expect(r.ok && r.text).toBe("<html>cookies</html>");
  });

  it("inflates gzip files served as application/x-gzip or octet-stream", async () => {
    const idx = await client.fetch(site.url("/sitemap_index.xml.gz"), { accept: "feed" });
    expect(idx.ok && idx.text).toContain("<sitemapindex");
    const arch = await client.fetch(site.url("/sitemaps/archive.xml.gz"), { accept: "feed" });
    expect(arch.ok && arch.text).toContain("<urlset");
  });

  it("accepts an untyped body that looks like HTML", async () => {
    const r = await client.fetch(site.url("/no-type"), { accept: "html" });
    expect(r.ok && r.text).toContain("untyped");
  });

  it("makes conditional requests and reports 304 as notModified", async () => {
    const first = await client.fetch(site.url("/conditional"), { accept: "html" });
    expect(first.ok && first.headers.etag).toBe('"v1"');
    const byEtag = await client.fetch(site.url("/conditional"), { accept: "html", etag: '"v1"' });
    expect(byEtag).toMatchObject({ ok: true, status: 304, notModified: true, text: "" });
    const byDate = await client.fetch(site.url("/conditional"), {
      accept: "html",
      lastModified: "Tue, 01 Dec 2026 00:00:00 GMT",
    });
    expect(byDate).toMatchObject({ ok: true, notModified: true });
  });

  it("follows up to 5 redirects and records each hop", async () => {
    const r = await client.fetch(site.url("/chain/5"), { accept: "html" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.redirects).toHaveLength(5);
    expect(r.finalUrl).toBe(site.url("/chain/0"));
    expect(r.url).toBe(site.url("/chain/5"));
  });
});

describe("HttpClient: failures carry a failureReason", () => {
  const cases: [string, string, string, object?][] = [
    ["missing page", "/nope", "http_404"],
    ["gone", "/status/410", "http_410"],
    ["rate limited", "/status/429", "http_429"],
    ["forbidden", "/status/403", "http_4xx"],
    ["server error", "/status/503", "http_5xx"],
    ["redirect loop", "/hostile/redirect-loop-a", "redirect_loop"],
    ["six redirects", "/chain/6", "too_many_redirects"],
    ["redirect to cloud metadata", "/hostile/redirect-metadata", "blocked_address"],
    ["redirect to file:", "/hostile/redirect-file", "bad_scheme"],
    ["image content type", "/hostile/image", "not_html"],
    ["plain text for a page", "/hostile/plain-text", "not_html"],
    ["endless body", "/hostile/endless", "too_large", { maxBytes: 256 * 1024 }],
    ["gzip bomb (64 MiB of spaces)", "/hostile/gzip-bomb", "too_large"],
    ["corrupt gzip", "/bad-gzip", "decode_error"],
    ["brotli bomb (16 MiB of zeros)", "/brotli-bomb", "too_large"],
    ["deflate bomb (16 MiB of zeros)", "/deflate-bomb", "too_large"],
    ["Content-Length past the cap, before any body byte", "/declared-too-large", "too_large"],
    ["three stacked Content-Encodings", "/three-gzips", "bad_encoding"],
    ["21,000 stacked Content-Encodings", "/br-times-21000", "bad_encoding"],
    ["an unsupported Content-Encoding", "/compress", "bad_encoding"],
    ["70 KiB of response headers", "/huge-headers", "too_large"],
    ["slow drip", "/hostile/slow-drip", "timeout", { totalTimeoutMs: 300 }],
    ["no response headers", "/hostile/slow-headers", "timeout", { headersTimeoutMs: 200 }],
  ];
  for (const [name, path, reason, limits] of cases) {
    it(`${name} → ${reason}`, async () => {
      const r = await client.fetch(site.url(path), { accept: "html", ...(limits ? { limits } : {}) });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.reason).toBe(reason);
      expect(r.detail.length).toBeGreaterThan(0);
      expect(r.url).toBe(site.url(path));
    });
  }

  it("a feed fetch refuses a PDF but a page fetch of a feed type is not_html too", async () => {
    const pdf = await client.fetch(site.url("/hostile/pdf-as-feed"), { accept: "feed" });
    expect(pdf).toMatchObject({ ok: false, reason: "not_html" });
    const rssAsPage = await client.fetch(site.url("/feeds/atom.xml"), { accept: "html" });
    expect(rssAsPage).toMatchObject({ ok: false, reason: "not_html" });
    const rssAsAny = await client.fetch(site.url("/feeds/atom.xml"), { accept: "any" });
    expect(rssAsAny.ok).toBe(true);
  });

  it("a gzip file that inflates past the cap is too_large (sitemap.xml.gz bomb)", async () => {
    const r = await client.fetch(site.url("/gzip-file-bomb"), { accept: "feed" });
    expect(r).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("a feed served as text/html is sniffed: RSS accepted, an HTML page refused", async () => {
    site.route(
      "/rss-as-html",
      send("text/html; charset=utf-8", '<?xml version="1.0"?><rss version="2.0"><channel/></rss>'),
    );
    const rss = await client.fetch(site.url("/rss-as-html"), { accept: "feed" });
    expect(rss.ok && rss.text).toContain("<rss");
    const page = await client.fetch(site.url("/article"), { accept: "feed" });
    expect(page).toMatchObject({ ok: false, reason: "not_html" });
  });

  it("a truncating fetch keeps the first maxBytes of an endless body", async () => {
    const r = await client.fetch(site.url("/hostile/endless"), {
      accept: "html",
      truncate: true,
      limits: { maxBytes: 100_000 },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.truncated).toBe(true);
    expect(r.bytes.byteLength).toBe(100_000);
  });

  it("a body that stops arriving → timeout after bodyTimeoutMs", async () => {
    site.route("/stalled-body", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><body>the first part, then nothing");
    });
    const r = await client.fetch(site.url("/stalled-body"), {
      accept: "html",
      limits: { bodyTimeoutMs: 200 },
    });
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("reuses a kept-alive connection for the next request and the next redirect hop", async () => {
    const ports: number[] = [];
    site.route("/which-socket", (req, res) => {
      ports.push(req.socket.remotePort ?? -1);
      send("text/html", "<html>ok</html>")(req, res, site);
    });
    site.route("/to-which-socket", (req, res) => {
      ports.push(req.socket.remotePort ?? -1);
      res.writeHead(302, { location: "/which-socket" });
      res.end("moved");
    });
    for (const path of ["/which-socket", "/to-which-socket", "/which-socket"]) {
      expect((await client.fetch(site.url(path), { accept: "html" })).ok).toBe(true);
    }
    expect(ports).toHaveLength(4);
    expect(new Set(ports).size).toBe(1);
  });

  it("rejects non-http schemes and garbage without a request", async () => {
    expect(await client.fetch("ftp://example.com/x", { accept: "html" })).toMatchObject({
      reason: "bad_scheme",
    });
    expect(await client.fetch("javascript:alert(1)", { accept: "html" })).toMatchObject({
      reason: "bad_scheme",
    });
    expect(await client.fetch("not a url", { accept: "html" })).toMatchObject({ reason: "invalid_url" });
  });

  it("reports an unresolvable host as network_error", async () => {
    const r = await client.fetch("http://does-not-exist.invalid/", {
      accept: "html",
      limits: { totalTimeoutMs: 5_000 },
    });
    expect(r).toMatchObject({ ok: false, reason: "network_error" });
  });
});

describe("HttpClient: SSRF guard without allowPrivateAddresses", () => {
  const strict = new HttpClient({ userAgent: UA });
  afterAll(() => strict.close());

  it("refuses loopback in every literal form, and by name", async () => {
    const port = new URL(site.base).port;
    const before = site.hits.get("/article") ?? 0;
    const forms = [
      "127.0.0.1",
      "2130706433",
      "0177.0.0.1",
      "127.1",
      "0x7f.0.0.1",
      "0x7f000001",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "localhost",
    ];
    for (const host of forms) {
      const r = await strict.fetch(`http://${host}:${port}/article`, { accept: "html" });
      expect(r, host).toMatchObject({ ok: false, reason: "blocked_address" });
    }
    expect(site.hits.get("/article") ?? 0).toBe(before); // no request reached the server
  });

  it("refuses private, link-local, metadata, CGNAT, unique-local, multicast and unspecified addresses", async () => {
    for (const host of [
      "10.0.0.1",
      "192.168.1.1",
      "172.16.5.4",
      "169.254.169.254",
      "100.64.0.1",
      "[fd00:ec2::254]",
      "[fe80::1]",
      "224.0.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "[::]",
    ]) {
      const r = await strict.fetch(`http://${host}/`, { accept: "html" });
      expect(r, host).toMatchObject({ ok: false, reason: "blocked_address" });
    }
  });

  it("the allow-private client still refuses metadata and link-local, also after a redirect", async () => {
    expect(await client.fetch("http://169.254.169.254/latest/meta-data/", { accept: "html" })).toMatchObject({
      reason: "blocked_address",
    });
    const viaRedirect = await strict.fetch(site.url("/hostile/redirect-decimal-loopback"), {
      accept: "html",
    });
    expect(viaRedirect).toMatchObject({ ok: false, reason: "blocked_address" });
  });
});
