/**
 * google/robotstxt's matching tests (robots_test.cc, every EXPECT that calls IsUserAgentAllowed),
 * ported as data: the robots.txt, the agent (a product token, as Google's API takes it), the URL,
 * the expected answer. `rfc` marks the ID_* tests (RFC 9309 behaviour); GoogleOnly_* tests are
 * Google's extensions. Source: https://github.com/google/robotstxt/blob/master/robots_test.cc
 */

export interface GoogleCase {
  readonly test: string;
  readonly rfc: boolean;
  readonly robots: string;
  readonly agent: string;
  readonly url: string;
  readonly allowed: boolean;
}

type Expect = readonly [agent: string, url: string, allowed: boolean];

const cases: GoogleCase[] = [];
function port(test: string, robots: string, expects: readonly Expect[]): void {
  for (const [agent, url, allowed] of expects) {
    cases.push({ test, rfc: test.startsWith("ID_"), robots, agent, url, allowed });
  }
}

const fooDisallowAll = "user-agent: FooBot\ndisallow: /\n";
port("GoogleOnly_SystemTest", "", [
  ["FooBot", "", true],
  ["", "", true],
]);
port("GoogleOnly_SystemTest", fooDisallowAll, [
  ["", "", true],
  ["FooBot", "", false],
]);

port("ID_LineSyntax_Line", fooDisallowAll, [["FooBot", "http://foo.bar/x/y", false]]);
port("ID_LineSyntax_Line", "foo: FooBot\nbar: /\n", [["FooBot", "http://foo.bar/x/y", true]]);
port("ID_LineSyntax_Line", "user-agent FooBot\ndisallow /\n", [["FooBot", "http://foo.bar/x/y", false]]);

port(
  "ID_LineSyntax_Groups",
  "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n",
  [
    ["FooBot", "http://foo.bar/x/b", true],
    ["FooBot", "http://foo.bar/z/d", true],
    ["FooBot", "http://foo.bar/y/c", false],
    ["BarBot", "http://foo.bar/y/c", true],
    ["BarBot", "http://foo.bar/w/a", true],
    ["BarBot", "http://foo.bar/z/d", false],
    ["BazBot", "http://foo.bar/z/d", true],
    ["FooBot", "http://foo.bar/foo/bar/", false],
    ["BarBot", "http://foo.bar/foo/bar/", false],
    ["BazBot", "http://foo.bar/foo/bar/", false],
  ],
);

port(
  "ID_LineSyntax_Groups_OtherRules",
  "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
  [
    ["FooBot", "http://foo.bar/", false],
    ["BarBot", "http://foo.bar/", false],
  ],
);
port(
  "ID_LineSyntax_Groups_OtherRules",
  "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
  [
    ["FooBot", "http://foo.bar/", false],
    ["BarBot", "http://foo.bar/", false],
  ],
);

for (const robots of [
  "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
  "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
  "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
]) {
  port("ID_REPLineNamesCaseInsensitive", robots, [
    ["FooBot", "http://foo.bar/x/y", true],
    ["FooBot", "http://foo.bar/a/b", false],
  ]);
}

for (const robots of [
  "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n",
  "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n",
  "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n",
]) {
  port("ID_UserAgentValueCaseInsensitive", robots, [
    ["Foo", "http://foo.bar/x/y", true],
    ["Foo", "http://foo.bar/a/b", false],
    ["foo", "http://foo.bar/x/y", true],
    ["foo", "http://foo.bar/a/b", false],
  ]);
}

port(
  "GoogleOnly_AcceptUserAgentUpToFirstSpace",
  "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
  [
    ["Foo", "http://foo.bar/x/y", true],
    ["Foo Bar", "http://foo.bar/x/y", false],
  ],
);

port("ID_GlobalGroups_Secondary", "", [["FooBot", "http://foo.bar/x/y", true]]);
port("ID_GlobalGroups_Secondary", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", [
  ["FooBot", "http://foo.bar/x/y", false],
  ["BarBot", "http://foo.bar/x/y", true],
]);
port(
  "ID_GlobalGroups_Secondary",
  "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
  [["QuxBot", "http://foo.bar/x/y", true]],
);

port("ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", [
  ["FooBot", "http://foo.bar/x/y", false],
]);
port("ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", [
  ["FooBot", "http://foo.bar/x/y", true],
]);

const page = "http://foo.bar/x/page.html";
port("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", [
  ["FooBot", page, false],
]);
port("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", [
  ["FooBot", page, true],
  ["FooBot", "http://foo.bar/x/", false],
]);
port("ID_LongestMatch", "user-agent: FooBot\ndisallow: \nallow: \n", [["FooBot", page, true]]);
port("ID_LongestMatch", "user-agent: FooBot\ndisallow: /\nallow: /\n", [["FooBot", page, true]]);
port("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", [
  ["FooBot", "http://foo.bar/x", false],
  ["FooBot", "http://foo.bar/x/", true],
]);
port("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", [
  ["FooBot", page, true],
]);
port("ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", [
  ["FooBot", "http://foo.bar/page.html", false],
  ["FooBot", "http://foo.bar/page", true],
]);
port("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", [
  ["FooBot", page, true],
  ["FooBot", "http://foo.bar/x/y.html", false],
]);
port("ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", [
  ["FooBot", "http://foo.bar/x/page", true],
  ["FooBot", "http://foo.bar/y/page", false],
]);

port("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", [
  ["FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true],
]);
port("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", [
  ["FooBot", "http://foo.bar/foo/bar/%E3%83%84", true],
  ["FooBot", "http://foo.bar/foo/bar/ツ", false],
]);
port("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", [
  ["FooBot", "http://foo.bar/foo/bar/%E3%83%84", true],
  ["FooBot", "http://foo.bar/foo/bar/ツ", false],
]);
port("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", [
  ["FooBot", "http://foo.bar/foo/bar/baz", false],
  ["FooBot", "http://foo.bar/foo/bar/%62%61%7A", true],
]);

port("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", [
  ["FooBot", "http://foo.bar/foo/bar/quz", false],
  ["FooBot", "http://foo.bar/foo/quz", true],
  ["FooBot", "http://foo.bar/foo//quz", true],
  ["FooBot", "http://foo.bar/foo/bax/quz", true],
]);
port("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", [
  ["FooBot", "http://foo.bar/foo/bar", false],
  ["FooBot", "http://foo.bar/foo/bar/qux", true],
  ["FooBot", "http://foo.bar/foo/bar/", true],
  ["FooBot", "http://foo.bar/foo/bar/baz", true],
]);
port("ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", [
  ["FooBot", "http://foo.bar/foo/bar", true],
  ["FooBot", "http://foo.bar/foo/quz", false],
]);

port("GoogleOnly_IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", [
  ["foobot", "http://foo.com/allowed-slash/", true],
  ["foobot", "http://foo.com/allowed-slash/index.htm", false],
  ["foobot", "http://foo.com/allowed-slash/index.html", true],
  ["foobot", "http://foo.com/anyother-url", false],
]);

// GoogleOnly_LineTooLong: lines are cut after 2083 × 8 − 1 bytes.
{
  const maxLineLen = 2083 * 8;
  // As the C++ test builds them: "/x/" padded until the rule line (key + path + "\n") is one byte
  // over the cap, so the stored line ends in the "/" of the trailing "/qux".
  const grow = (prefix: string, fill: string, keyLen: number) => {
    const length = maxLineLen - prefix.length - keyLen + 1;
    return prefix + fill.repeat(length - prefix.length);
  };
  const longline = grow("/x/", "a", "disallow: ".length);
  port("GoogleOnly_LineTooLong", `user-agent: FooBot\ndisallow: ${longline}/qux\n`, [
    ["FooBot", "http://foo.bar/fux", true],
    ["FooBot", `http://foo.bar${longline}/fux`, false],
  ]);
  const a = grow("/x/", "a", "allow: ".length);
  const b = grow("/x/", "b", "allow: ".length);
  port("GoogleOnly_LineTooLong", `user-agent: FooBot\ndisallow: /\nallow: ${a}/qux\nallow: ${b}/qux\n`, [
    ["FooBot", "http://foo.bar/", false],
    ["FooBot", `http://foo.bar${a}/qux`, true],
    ["FooBot", `http://foo.bar${b}/fux`, true],
  ]);
}

const doc = "GoogleOnly_DocumentationChecks";
const fishLike = (asp: string): Expect[] => [
  ["FooBot", "http://foo.bar/bar", false],
  ["FooBot", "http://foo.bar/fish", true],
  ["FooBot", "http://foo.bar/fish.html", true],
  ["FooBot", "http://foo.bar/fish/salmon.html", true],
  ["FooBot", "http://foo.bar/fishheads", true],
  ["FooBot", "http://foo.bar/fishheads/yummy.html", true],
  ["FooBot", "http://foo.bar/fish.html?id=anything", true],
  ["FooBot", `http://foo.bar/${asp}`, false],
  ["FooBot", "http://foo.bar/catfish", false],
  ["FooBot", "http://foo.bar/?id=fish", false],
];
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /fish\n", fishLike("Fish.asp"));
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /fish*\n", fishLike("Fish.bar"));
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /fish/\n", [
  ["FooBot", "http://foo.bar/bar", false],
  ["FooBot", "http://foo.bar/fish/", true],
  ["FooBot", "http://foo.bar/fish/salmon", true],
  ["FooBot", "http://foo.bar/fish/?salmon", true],
  ["FooBot", "http://foo.bar/fish/salmon.html", true],
  ["FooBot", "http://foo.bar/fish/?id=anything", true],
  ["FooBot", "http://foo.bar/fish", false],
  ["FooBot", "http://foo.bar/fish.html", false],
  ["FooBot", "http://foo.bar/Fish/Salmon.html", false],
]);
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /*.php\n", [
  ["FooBot", "http://foo.bar/bar", false],
  ["FooBot", "http://foo.bar/filename.php", true],
  ["FooBot", "http://foo.bar/folder/filename.php", true],
  ["FooBot", "http://foo.bar/folder/filename.php?parameters", true],
  ["FooBot", "http://foo.bar//folder/any.php.file.html", true],
  ["FooBot", "http://foo.bar/filename.php/", true],
  ["FooBot", "http://foo.bar/index?f=filename.php/", true],
  ["FooBot", "http://foo.bar/php/", false],
  ["FooBot", "http://foo.bar/index?php", false],
  ["FooBot", "http://foo.bar/windows.PHP", false],
]);
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n", [
  ["FooBot", "http://foo.bar/bar", false],
  ["FooBot", "http://foo.bar/filename.php", true],
  ["FooBot", "http://foo.bar/folder/filename.php", true],
  ["FooBot", "http://foo.bar/filename.php?parameters", false],
  ["FooBot", "http://foo.bar/filename.php/", false],
  ["FooBot", "http://foo.bar/filename.php5", false],
  ["FooBot", "http://foo.bar/php/", false],
  ["FooBot", "http://foo.bar/filename?php", false],
  ["FooBot", "http://foo.bar/aaaphpaaa", false],
  ["FooBot", "http://foo.bar//windows.PHP", false],
]);
port(doc, "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n", [
  ["FooBot", "http://foo.bar/bar", false],
  ["FooBot", "http://foo.bar/fish.php", true],
  ["FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true],
  ["FooBot", "http://foo.bar/Fish.PHP", false],
]);
port(doc, "user-agent: FooBot\nallow: /p\ndisallow: /\n", [["FooBot", "http://example.com/page", true]]);
port(doc, "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", [
  ["FooBot", "http://example.com/folder/page", true],
]);
port(doc, "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", [
  ["FooBot", "http://example.com/page.htm", false],
]);
port(doc, "user-agent: FooBot\nallow: /$\ndisallow: /\n", [
  ["FooBot", "http://example.com/", true],
  ["FooBot", "http://example.com/page.html", false],
]);

export const GOOGLE_CASES: readonly GoogleCase[] = cases;

/** ID_VerifyValidUserAgentsToObey (and the first line of GoogleOnly_AcceptUserAgentUpToFirstSpace). */
export const GOOGLE_VALID_AGENTS: readonly (readonly [agent: string, valid: boolean])[] = [
  ["Foobot", true],
  ["Foobot-Bar", true],
  ["Foo_Bar", true],
  ["", false],
  ["", false],
  ["ツ", false],
  ["Foobot*", false],
  [" Foobot ", false],
  ["Foobot/2.1", false],
  ["Foobot Bar", false],
  ["Foobot Bar", false],
];
