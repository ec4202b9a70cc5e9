/**
 * Canonicalisation cases ported as data from two peers' public test suites, with their expected outputs
 * as written there (default options unless `test` names one):
 * - scrapy/w3lib tests/test_url.py: CanonicalizeUrlTest (canonicalize_url) and test_safe_url_idna;
 * - sindresorhus/normalize-url test.js.
 * `ours` is given where our output differs, with the reason: `policy` when the difference is one of our
 * standing rules rather than what the case checks (we drop www., fragments, credentials, default ports
 * and trailing slashes, keep the sole `/` of an empty path, take absolute URLs only), `differs` when we
 * deliberately treat what the case checks another way.
 */

export interface PeerCase {
  peer: "w3lib" | "normalize-url";
  test: string;
  input: string;
  /** The peer's expected output; null when it throws. */
  expected: string | null;
  /** Our output where it is not `expected`; null when we refuse the input. */
  ours?: string | null;
  policy?: string;
  differs?: string;
  /** Base for a scheme-relative input. */
  base?: string;
}

const WWW = "we drop www.";
const SLASH = "we keep the sole / of an empty path (the WHATWG serialisation)";
const SCHEME =
  "we take absolute URLs only (discovery resolves links against their page first); http:// added";
const FRAGMENT = "we drop fragments";
const TRAILING = "we drop a trailing slash";
const DOUBLE_SLASH = "we keep // inside a path: the server decides what it means (w3lib keeps it too)";
const HTTP_ONLY = "only http(s) URLs are articles";

const w3 = (test: string, input: string, expected: string, more: Partial<PeerCase> = {}): PeerCase => ({
  peer: "w3lib",
  test,
  input,
  expected,
  ...more,
});
const nu = (
  test: string,
  input: string,
  expected: string | null,
  more: Partial<PeerCase> = {},
): PeerCase => ({
  peer: "normalize-url",
  test,
  input,
  expected,
  ...more,
});
/** A normalize-url case whose input has no scheme: we are given it with http://. */
const nuBare = (test: string, input: string, expected: string, ours: string, policy = SCHEME): PeerCase =>
  nu(test, `http://${input}`, expected, { ours, policy: `${policy}; ${SLASH}` });

export const PEER_CASES: readonly PeerCase[] = [
  // --- w3lib canonicalize_url ---
  w3("test_canonicalize_url", "http://www.example.com/", "http://www.example.com/", {
    ours: "http://example.com/",
    policy: WWW,
  }),
  w3("test_append_missing_path", "http://www.example.com", "http://www.example.com/", {
    ours: "http://example.com/",
    policy: WWW,
  }),
  w3("test_typical_usage", "http://www.example.com/do?a=1&b=2&c=3", "http://www.example.com/do?a=1&b=2&c=3", {
    ours: "http://example.com/do?a=1&b=2&c=3",
    policy: WWW,
  }),
  w3("test_typical_usage", "http://www.example.com/do?c=1&b=2&a=3", "http://www.example.com/do?a=3&b=2&c=1", {
    ours: "http://example.com/do?a=3&b=2&c=1",
    policy: WWW,
  }),
  w3("test_typical_usage", "http://www.example.com/do?&a=1", "http://www.example.com/do?a=1", {
    ours: "http://example.com/do?a=1",
    policy: WWW,
  }),
  w3(
    "test_port_number",
    "http://www.example.com:8888/do?a=1&b=2&c=3",
    "http://www.example.com:8888/do?a=1&b=2&c=3",
    {
      ours: "http://example.com:8888/do?a=1&b=2&c=3",
      policy: WWW,
    },
  ),
  w3("test_port_number", "http://www.example.com:/do?a=1&b=2&c=3", "http://www.example.com/do?a=1&b=2&c=3", {
    ours: "http://example.com/do?a=1&b=2&c=3",
    policy: WWW,
  }),
  w3(
    "test_sorting",
    "http://www.example.com/do?c=3&b=5&b=2&a=50",
    "http://www.example.com/do?a=50&b=2&b=5&c=3",
    {
      ours: "http://example.com/do?a=50&b=2&b=5&c=3",
      policy: WWW,
    },
  ),
  w3("test_keep_blank_values", "http://www.example.com/do?b=&a=2", "http://www.example.com/do?a=2&b=", {
    ours: "http://example.com/do?a=2&b=",
    policy: WWW,
  }),
  w3("test_keep_blank_values", "http://www.example.com/do?b=&c&a=2", "http://www.example.com/do?a=2&b=&c=", {
    ours: "http://example.com/do?a=2&b=&c",
    differs: "a bare key stays bare: some sites route on it (index.php?/path), normalize-url keeps it too",
  }),
  w3("test_keep_blank_values", "http://www.example.com/do?1750,4", "http://www.example.com/do?1750%2C4=", {
    ours: "http://example.com/do?1750,4",
    differs: "a bare key stays bare; `,` is written raw in a query, as the WHATWG parser leaves it",
  }),
  w3("test_spaces", "http://www.example.com/do?q=a space&a=1", "http://www.example.com/do?a=1&q=a+space", {
    ours: "http://example.com/do?a=1&q=a+space",
    policy: WWW,
  }),
  w3("test_spaces", "http://www.example.com/do?q=a+space&a=1", "http://www.example.com/do?a=1&q=a+space", {
    ours: "http://example.com/do?a=1&q=a+space",
    policy: WWW,
  }),
  w3("test_spaces", "http://www.example.com/do?q=a%20space&a=1", "http://www.example.com/do?a=1&q=a+space", {
    ours: "http://example.com/do?a=1&q=a+space",
    policy: WWW,
  }),
  w3(
    "test_canonicalize_url_unicode_path",
    "http://www.example.com/résumé",
    "http://www.example.com/r%C3%A9sum%C3%A9",
    {
      ours: "http://example.com/r%C3%A9sum%C3%A9",
      policy: WWW,
    },
  ),
  w3(
    "test_canonicalize_url_unicode_query_string",
    "http://www.example.com/résumé?q=résumé",
    "http://www.example.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9",
    { ours: "http://example.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9", policy: WWW },
  ),
  w3(
    "test_normalize_percent_encoding_in_paths",
    "http://www.example.com/r%c3%a9sum%c3%a9",
    "http://www.example.com/r%C3%A9sum%C3%A9",
    { ours: "http://example.com/r%C3%A9sum%C3%A9", policy: WWW },
  ),
  w3(
    "test_normalize_percent_encoding_in_paths",
    "http://www.example.com/a%a3do",
    "http://www.example.com/a%A3do",
    {
      ours: "http://example.com/a%A3do",
      policy: WWW,
    },
  ),
  w3(
    "test_normalize_percent_encoding_in_paths",
    "http://www.example.com/a%a3do?q=r%c3%a9sum%c3%a9",
    "http://www.example.com/a%A3do?q=r%C3%A9sum%C3%A9",
    { ours: "http://example.com/a%A3do?q=r%C3%A9sum%C3%A9", policy: WWW },
  ),
  w3(
    "test_normalize_percent_encoding_in_paths",
    "http://www.example.com/a%a3do?q=r%e9sum%e9",
    "http://www.example.com/a%A3do?q=r%E9sum%E9",
    { ours: "http://example.com/a%A3do?q=r%E9sum%E9", policy: WWW },
  ),
  w3(
    "test_normalize_percent_encoding_in_query_arguments",
    "http://www.example.com/do?k=b%a3",
    "http://www.example.com/do?k=b%A3",
    {
      ours: "http://example.com/do?k=b%A3",
      policy: WWW,
    },
  ),
  w3(
    "test_normalize_percent_encoding_in_query_arguments",
    "http://www.example.com/do?k=r%c3%a9sum%c3%a9",
    "http://www.example.com/do?k=r%C3%A9sum%C3%A9",
    { ours: "http://example.com/do?k=r%C3%A9sum%C3%A9", policy: WWW },
  ),
  w3(
    "test_non_ascii_percent_encoding_in_paths",
    "http://www.example.com/a do?a=1",
    "http://www.example.com/a%20do?a=1",
    {
      ours: "http://example.com/a%20do?a=1",
      policy: WWW,
    },
  ),
  w3(
    "test_non_ascii_percent_encoding_in_paths",
    "http://www.example.com/a %20do?a=1",
    "http://www.example.com/a%20%20do?a=1",
    {
      ours: "http://example.com/a%20%20do?a=1",
      policy: WWW,
    },
  ),
  w3(
    "test_non_ascii_percent_encoding_in_paths",
    "http://www.example.com/a do£.html?a=1",
    "http://www.example.com/a%20do%C2%A3.html?a=1",
    { ours: "http://example.com/a%20do%C2%A3.html?a=1", policy: WWW },
  ),
  w3(
    "test_non_ascii_percent_encoding_in_query_arguments",
    "http://www.example.com/do?price=£500&a=5&z=3",
    "http://www.example.com/do?a=5&price=%C2%A3500&z=3",
    { ours: "http://example.com/do?a=5&price=%C2%A3500&z=3", policy: WWW },
  ),
  w3(
    "test_non_ascii_percent_encoding_in_query_arguments",
    "http://www.example.com/do?price(£)=500&a=1",
    "http://www.example.com/do?a=1&price%28%C2%A3%29=500",
    {
      ours: "http://example.com/do?a=1&price(%C2%A3)=500",
      differs: "( and ) are written raw in a query, as the WHATWG parser leaves them (normalize-url too)",
    },
  ),
  w3(
    "test_urls_with_auth_and_ports",
    "http://user:pass@www.example.com:81/do?now=1",
    "http://user:pass@www.example.com:81/do?now=1",
    {
      ours: "http://example.com:81/do?now=1",
      policy: `we drop credentials; ${WWW}`,
    },
  ),
  w3(
    "test_remove_fragments",
    "http://user:pass@www.example.com/do?a=1#frag",
    "http://user:pass@www.example.com/do?a=1",
    {
      ours: "http://example.com/do?a=1",
      policy: `we drop credentials; ${WWW}`,
    },
  ),
  w3(
    "test_dont_convert_safe_characters",
    "http://www.simplybedrooms.com/White-Bedroom-Furniture/Bedroom-Mirror:-Josephine-Cheval-Mirror.html",
    "http://www.simplybedrooms.com/White-Bedroom-Furniture/Bedroom-Mirror:-Josephine-Cheval-Mirror.html",
    {
      ours: "http://simplybedrooms.com/White-Bedroom-Furniture/Bedroom-Mirror:-Josephine-Cheval-Mirror.html",
      policy: WWW,
    },
  ),
  w3(
    "test_safe_characters_unicode",
    "http://www.example.com/caf%E9-con-leche.htm",
    "http://www.example.com/caf%E9-con-leche.htm",
    {
      ours: "http://example.com/caf%E9-con-leche.htm",
      policy: WWW,
    },
  ),
  w3(
    "test_canonicalize_urlparsed",
    "http://www.example.com/caf%e9-con-leche.htm",
    "http://www.example.com/caf%E9-con-leche.htm",
    {
      ours: "http://example.com/caf%E9-con-leche.htm",
      policy: WWW,
    },
  ),
  w3("test_domains_are_case_insensitive", "http://www.EXAMPLE.com/", "http://www.example.com/", {
    ours: "http://example.com/",
    policy: WWW,
  }),
  w3(
    "test_canonicalize_idns",
    "http://www.bücher.de?q=bücher",
    "http://www.xn--bcher-kva.de/?q=b%C3%BCcher",
    {
      ours: "http://xn--bcher-kva.de/?q=b%C3%BCcher",
      policy: WWW,
    },
  ),
  w3(
    "test_canonicalize_idns",
    "http://はじめよう.みんな/?query=サ&maxResults=5",
    "http://xn--p8j9a0d9c9a.xn--q9jyb4c/?maxResults=5&query=%E3%82%B5",
  ),
  w3(
    "test_quoted_slash_and_question_sign",
    "http://foo.com/AC%2FDC+rocks%3f/?yeah=1",
    "http://foo.com/AC%2FDC+rocks%3F/?yeah=1",
    {
      ours: "http://foo.com/AC%2FDC+rocks%3F?yeah=1",
      policy: TRAILING,
    },
  ),
  w3("test_quoted_slash_and_question_sign", "http://foo.com/AC%2FDC/", "http://foo.com/AC%2FDC/", {
    ours: "http://foo.com/AC%2FDC",
    policy: TRAILING,
  }),
  w3(
    "test_canonicalize_url_idna_exceptions",
    "http://.example.com/résumé?q=résumé",
    "http://.example.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9",
  ),
  w3(
    "test_canonicalize_url_idna_exceptions",
    `http://www.${"example".repeat(11)}.com/résumé?q=résumé`,
    `http://www.${"example".repeat(11)}.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9`,
    { ours: `http://${"example".repeat(11)}.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9`, policy: WWW },
  ),
  w3(
    "test_preserve_nonfragment_hash",
    "http://www.example.com/path/to/%23/foo/bar",
    "http://www.example.com/path/to/%23/foo/bar",
    {
      ours: "http://example.com/path/to/%23/foo/bar",
      policy: WWW,
    },
  ),
  w3(
    "test_preserve_nonfragment_hash",
    "http://www.example.com/path/to/%23/foo/bar#frag",
    "http://www.example.com/path/to/%23/foo/bar",
    {
      ours: "http://example.com/path/to/%23/foo/bar",
      policy: WWW,
    },
  ),
  w3(
    "test_preserve_nonfragment_hash",
    "http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2Fpath%2Fto%2F%23%2Fbar%2Ffoo",
    "http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2Fpath%2Fto%2F%23%2Fbar%2Ffoo",
    {
      ours: "http://example.com/path/to/%23/foo/bar?url=http://www.example.com/path/to/%23/bar/foo",
      differs:
        ": and / are written raw in a query value, as normalize-url writes them (the same bytes when decoded)",
    },
  ),
  w3(
    "test_preserve_nonfragment_hash",
    "http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2F%2Fpath%2Fto%2F%23%2Fbar%2Ffoo#frag",
    "http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2F%2Fpath%2Fto%2F%23%2Fbar%2Ffoo",
    {
      ours: "http://example.com/path/to/%23/foo/bar?url=http://www.example.com//path/to/%23/bar/foo",
      differs:
        ": and / are written raw in a query value, as normalize-url writes them (the same bytes when decoded)",
    },
  ),
  // --- w3lib safe_url_string: IDN hosts (not canonicalize_url, but the host rule is the same) ---
  ...(
    [
      [
        "http://www.färgbolaget.nu/färgbolaget",
        "http://www.xn--frgbolaget-q5a.nu/f%C3%A4rgbolaget",
        "http://xn--frgbolaget-q5a.nu/f%C3%A4rgbolaget",
        WWW,
      ],
      [
        "http://www.räksmörgås.se/?räksmörgås=yes",
        "http://www.xn--rksmrgs-5wao1o.se/?r%C3%A4ksm%C3%B6rg%C3%A5s=yes",
        "http://xn--rksmrgs-5wao1o.se/?r%C3%A4ksm%C3%B6rg%C3%A5s=yes",
        WWW,
      ],
      [
        "http://www.brændendekærlighed.com/brændende/kærlighed",
        "http://www.xn--brndendekrlighed-vobh.com/br%C3%A6ndende/k%C3%A6rlighed",
        "http://xn--brndendekrlighed-vobh.com/br%C3%A6ndende/k%C3%A6rlighed",
        WWW,
      ],
      [
        "http://www.예비교사.com",
        "http://www.xn--9d0bm53a3xbzui.com",
        "http://xn--9d0bm53a3xbzui.com/",
        `${WWW}; ${SLASH}`,
      ],
      [
        "http://理容ナカムラ.com",
        "http://xn--lck1c3crb1723bpq4a.com",
        "http://xn--lck1c3crb1723bpq4a.com/",
        SLASH,
      ],
      ["http://あーるいん.com", "http://xn--l8je6s7a45b.com", "http://xn--l8je6s7a45b.com/", SLASH],
      [
        "http://www.bücher.de/?q=bücher",
        "http://www.xn--bcher-kva.de/?q=b%C3%BCcher",
        "http://xn--bcher-kva.de/?q=b%C3%BCcher",
        WWW,
      ],
      [
        "http://はじめよう.みんな/?query=サ&maxResults=5",
        "http://xn--p8j9a0d9c9a.xn--q9jyb4c/?query=%E3%82%B5&maxResults=5",
        "http://xn--p8j9a0d9c9a.xn--q9jyb4c/?maxResults=5&query=%E3%82%B5",
        "we sort the query (safe_url_string does not; canonicalize_url does)",
      ],
      ["http://кто.рф/", "http://xn--j1ail.xn--p1ai/"],
      ["http://кто.рф/index.php?domain=Что", "http://xn--j1ail.xn--p1ai/index.php?domain=%D0%A7%D1%82%D0%BE"],
      ["http://내도메인.한국/", "http://xn--220b31d95hq8o.xn--3e0b707e/"],
      ["http://맨체스터시티축구단.한국/", "http://xn--2e0b17htvgtvj9haj53ccob62ni8d.xn--3e0b707e/"],
      ["http://nic.شبكة", "http://nic.xn--ngbc5azd", "http://nic.xn--ngbc5azd/", SLASH],
      [
        "https://www.贷款.在线",
        "https://www.xn--0kwr83e.xn--3ds443g",
        "https://xn--0kwr83e.xn--3ds443g/",
        `${WWW}; ${SLASH}`,
      ],
      [
        "https://www2.xn--0kwr83e.在线",
        "https://www2.xn--0kwr83e.xn--3ds443g",
        "https://www2.xn--0kwr83e.xn--3ds443g/",
        SLASH,
      ],
      [
        "https://www3.贷款.xn--3ds443g",
        "https://www3.xn--0kwr83e.xn--3ds443g",
        "https://www3.xn--0kwr83e.xn--3ds443g/",
        SLASH,
      ],
      [
        "http://新华网.中国:80",
        "http://xn--xkrr14bows.xn--fiqs8s:80",
        "http://xn--xkrr14bows.xn--fiqs8s/",
        `we drop a default port; ${SLASH}`,
      ],
    ] as const
  ).map(([input, expected, ours, policy]) =>
    w3("test_safe_url_idna", input, expected, ours ? { ours, policy } : {}),
  ),

  // --- normalize-url ---
  nuBare("main", "sindresorhus.com", "http://sindresorhus.com", "http://sindresorhus.com/"),
  nuBare("main", "sindresorhus.com ", "http://sindresorhus.com", "http://sindresorhus.com/"),
  nuBare("main", "sindresorhus.com.", "http://sindresorhus.com", "http://sindresorhus.com/"),
  nuBare("main", "SindreSorhus.com", "http://sindresorhus.com", "http://sindresorhus.com/"),
  nu("main", "HTTP://sindresorhus.com", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nu("main", "//sindresorhus.com", "http://sindresorhus.com", {
    base: "http://example.org/",
    ours: "http://sindresorhus.com/",
    policy: `a scheme-relative URL is resolved against its page; ${SLASH}`,
  }),
  nu("main", "http://sindresorhus.com", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nu("main", "http://sindresorhus.com:80", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nu("main", "https://sindresorhus.com:443", "https://sindresorhus.com", {
    ours: "https://sindresorhus.com/",
    policy: SLASH,
  }),
  nu("main", "http://www.sindresorhus.com", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nuBare("main", "www.com", "http://www.com", "http://www.com/"),
  nu("main", "http://www.www.sindresorhus.com", "http://www.www.sindresorhus.com", {
    ours: "http://www.www.sindresorhus.com/",
    policy: SLASH,
  }),
  nuBare("main", "www.sindresorhus.com", "http://sindresorhus.com", "http://sindresorhus.com/"),
  nu("main", "http://sindresorhus.com/foo/", "http://sindresorhus.com/foo"),
  nu("main", "http://sindresorhus.com/?foo=bar baz", "http://sindresorhus.com/?foo=bar+baz", {
    policy: SCHEME,
  }),
  nu("main", "https://foo.com/https://bar.com", "https://foo.com/https://bar.com"),
  nu("main", "https://foo.com/https://bar.com/foo//bar", "https://foo.com/https://bar.com/foo/bar", {
    ours: "https://foo.com/https://bar.com/foo//bar",
    differs: DOUBLE_SLASH,
  }),
  nu("main", "https://foo.com/http://bar.com", "https://foo.com/http://bar.com"),
  nu("main", "https://foo.com/http://bar.com/foo//bar", "https://foo.com/http://bar.com/foo/bar", {
    ours: "https://foo.com/http://bar.com/foo//bar",
    differs: DOUBLE_SLASH,
  }),
  nu("main", "http://sindresorhus.com/%7Efoo/", "http://sindresorhus.com/~foo"),
  nu("main", "https://foo.com/%FAIL%/07/94/ca/55.jpg", "https://foo.com/%FAIL%/07/94/ca/55.jpg", {
    ours: "https://foo.com/%FAIL%25/07/94/ca/55.jpg",
    differs:
      "a % that starts no escape is escaped (%FA is one): kept raw, %%37 would canonicalise to %7, then to t",
  }),
  nu("main", "http://sindresorhus.com/?", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nuBare("main", "êxample.com", "http://xn--xample-hva.com", "http://xn--xample-hva.com/"),
  nu("main", "http://sindresorhus.com/?b=bar&a=foo", "http://sindresorhus.com/?a=foo&b=bar"),
  nu("main", 'http://sindresorhus.com/?foo=bar*|<>:"', "http://sindresorhus.com/?foo=bar*|%3C%3E:%22"),
  nu("main", "http://sindresorhus.com:5000", "http://sindresorhus.com:5000", {
    ours: "http://sindresorhus.com:5000/",
    policy: SLASH,
  }),
  nu("main", "http://sindresorhus.com/foo#bar", "http://sindresorhus.com/foo#bar", {
    ours: "http://sindresorhus.com/foo",
    policy: FRAGMENT,
  }),
  nu("main", "http://sindresorhus.com/foo/bar/../baz", "http://sindresorhus.com/foo/baz"),
  nu("main", "http://sindresorhus.com/foo/bar/./baz", "http://sindresorhus.com/foo/bar/baz"),
  nu(
    "main",
    "https://i.vimeocdn.com/filter/overlay?src0=https://i.vimeocdn.com/video/598160082_1280x720.jpg&src1=https://f.vimeocdn.com/images_v6/share/play_icon_overlay.png",
    "https://i.vimeocdn.com/filter/overlay?src0=https://i.vimeocdn.com/video/598160082_1280x720.jpg&src1=https://f.vimeocdn.com/images_v6/share/play_icon_overlay.png",
  ),
  nuBare("main", "sindresorhus.com:123", "http://sindresorhus.com:123", "http://sindresorhus.com:123/"),
  nu("stripAuthentication option", "http://user:password@www.sindresorhus.com", "http://sindresorhus.com", {
    ours: "http://sindresorhus.com/",
    policy: SLASH,
  }),
  nu(
    "stripAuthentication option",
    "https://user:password@www.sindresorhus.com/@user",
    "https://sindresorhus.com/@user",
  ),
  nu("stripAuthentication option", "http://user:password@www.êxample.com", "http://xn--xample-hva.com", {
    ours: "http://xn--xample-hva.com/",
    policy: SLASH,
  }),
  nu("stripTextFragment option", "http://sindresorhus.com/about#", "http://sindresorhus.com/about"),
  nu(
    "stripTextFragment option",
    "http://sindresorhus.com/about#:~:text=hello",
    "http://sindresorhus.com/about",
  ),
  nu("stripTextFragment option", "http://sindresorhus.com/about#main", "http://sindresorhus.com/about#main", {
    ours: "http://sindresorhus.com/about",
    policy: FRAGMENT,
  }),
  nu("stripWWW option", "http://www.vue.amsterdam", "http://vue.amsterdam", {
    ours: "http://vue.amsterdam/",
    policy: SLASH,
  }),
  nu("stripWWW option", "http://www.sorhus.xx--bck1b9a5dre4c", "http://sorhus.xx--bck1b9a5dre4c", {
    ours: "http://sorhus.xx--bck1b9a5dre4c/",
    policy: SLASH,
  }),
  nu("stripWWW option", `http://www.sorhus.${"a".repeat(64)}`, `http://www.sorhus.${"a".repeat(64)}`, {
    ours: `http://sorhus.${"a".repeat(64)}/`,
    differs: "www. is dropped whatever the TLD; we do not judge TLDs (the host was resolved to be fetched)",
  }),
  nuBare(
    "stripWWW option",
    "www.unix.stackexchange.com",
    "http://unix.stackexchange.com",
    "http://unix.stackexchange.com/",
  ),
  nu("stripWWW option", "https://www.unix.stackexchange.com", "https://unix.stackexchange.com", {
    ours: "https://unix.stackexchange.com/",
    policy: SLASH,
  }),
  nuBare("stripWWW option", "www.api.example.com", "http://api.example.com", "http://api.example.com/"),
  nu("stripWWW option", "https://www.com", "https://www.com", { ours: "https://www.com/", policy: SLASH }),
  nuBare("stripWWW option", "www.www.com", "http://www.www.com", "http://www.www.com/"),
  nuBare(
    "stripWWW option",
    "www.www.example.com",
    "http://www.www.example.com",
    "http://www.www.example.com/",
  ),
  nu(
    "removeQueryParameters option",
    "http://www.sindresorhus.com?foo=bar&utm_medium=test",
    "http://sindresorhus.com/?foo=bar",
    {
      policy: SCHEME,
    },
  ),
  nu("removeTrailingSlash option", "http://sindresorhus.com/redirect/", "http://sindresorhus.com/redirect"),
  nu("removeTrailingSlash option", "http://sindresorhus.com/#/", "http://sindresorhus.com/#/", {
    ours: "http://sindresorhus.com/",
    policy: FRAGMENT,
  }),
  nu(
    "removeTrailingSlash option",
    "http://sindresorhus.com/?unicorns=true",
    "http://sindresorhus.com/?unicorns=true",
  ),
  nu(
    "removeDirectoryIndex option",
    "http://sindresorhus.com/index.html",
    "http://sindresorhus.com/index.html",
  ),
  nu(
    "sortQueryParameters option",
    "http://sindresorhus.com/?b=Y&c=X&a=Z&d=W",
    "http://sindresorhus.com/?a=Z&b=Y&c=X&d=W",
  ),
  nu(
    "sortQueryParameters option",
    "http://sindresorhus.com/?a=Z&d=W&b=Y&c=X",
    "http://sindresorhus.com/?a=Z&b=Y&c=X&d=W",
  ),
  nu("sortQueryParameters option", "http://sindresorhus.com/?a=/path", "http://sindresorhus.com/?a=/path"),
  nu("invalid urls", "http://", null),
  nu("invalid urls", "/", null),
  nu("invalid urls", "/relative/path/", null),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com////foo/bar",
    "http://sindresorhus.com/foo/bar",
    {
      ours: "http://sindresorhus.com////foo/bar",
      differs: DOUBLE_SLASH,
    },
  ),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com:5000///foo",
    "http://sindresorhus.com:5000/foo",
    {
      ours: "http://sindresorhus.com:5000///foo",
      differs: DOUBLE_SLASH,
    },
  ),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com/s3://sindresorhus.com",
    "http://sindresorhus.com/s3://sindresorhus.com",
  ),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com/git://sindresorhus.com",
    "http://sindresorhus.com/git://sindresorhus.com",
  ),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com/a2-.+://sindresorhus.com",
    "http://sindresorhus.com/a2-.+://sindresorhus.com",
  ),
  nu(
    "remove duplicate pathname slashes",
    "http://sindresorhus.com/a://sindresorhus.com//foo",
    "http://sindresorhus.com/a:/sindresorhus.com/foo",
    {
      ours: "http://sindresorhus.com/a://sindresorhus.com//foo",
      differs: DOUBLE_SLASH,
    },
  ),
  nu("data URL", "data:,foo", "data:,foo", { ours: null, differs: HTTP_ONLY }),
  nu("prevents homograph attack", "https://ebаy.com", "https://xn--eby-7cd.com", {
    ours: "https://xn--eby-7cd.com/",
    policy: SLASH,
  }),
  nu("ignore custom schemes", "tel:004346382763", "tel:004346382763", { ours: null, differs: HTTP_ONLY }),
  nu("ignore custom schemes", "mailto:office@foo.com", "mailto:office@foo.com", {
    ours: null,
    differs: HTTP_ONLY,
  }),
  nu("ignore custom schemes", "foo:bar", "foo:bar", { ours: null, differs: HTTP_ONLY }),
  nu(
    "encoded backslashes do not get decoded",
    "https://foo.com/some%5Bthing%5Celse/that-is%40great@coding",
    "https://foo.com/some[thing%5Celse/that-is%40great@coding",
    {
      ours: "https://foo.com/some[thing%5Celse/that-is@great@coding",
      differs: "in a path %40 is written @, a pchar, as w3lib writes it",
    },
  ),
  nu(
    "encoded backslashes do not get decoded",
    "https://foo.com/something%5Celse/great",
    "https://foo.com/something%5Celse/great",
  ),
  nu(
    "encoded backslashes do not get decoded",
    "https://foo.com/something\\else/great",
    "https://foo.com/something/else/great",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?/Some/Route/To/Path/12345",
    "https://example.com/index.php?/Some/Route/To/Path/12345",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?/path/",
    "https://example.com/index.php?/path",
    {
      ours: "https://example.com/index.php?/path/",
      differs: "a query is never trimmed: its trailing slash may matter to the script that reads it",
    },
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?b=2&/path/to/resource&a=1",
    "https://example.com/index.php?/path/to/resource&a=1&b=2",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?/path&param=value",
    "https://example.com/index.php?/path&param=value",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?key=",
    "https://example.com/index.php?key=",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?key=&another=",
    "https://example.com/index.php?another=&key=",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?key",
    "https://example.com/index.php?key",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?a&b&c",
    "https://example.com/index.php?a&b&c",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?/path&/longpath",
    "https://example.com/index.php?/longpath&/path",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?key&anotherkey",
    "https://example.com/index.php?anotherkey&key",
  ),
  nu(
    "path-like query strings without equals signs are preserved",
    "https://example.com/index.php?/api&/api/v1/users",
    "https://example.com/index.php?/api&/api/v1/users",
  ),
];
