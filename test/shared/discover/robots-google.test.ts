/**
 * google/robotstxt's robots_test.cc, run against our matcher (robots-txt.ts) with Google's contract
 * (the caller passes the URL's path and query, percent-encoded), and against the crawler's entry point
 * (parseRobots(...).isAllowed(url)), which takes a User-Agent header and a URL as we fetch it.
 */
import { describe, expect, it } from "vitest";
import { parseRobots } from "../../../shared/discover/robots";
import { isValidProductToken, RobotsTxt } from "../../../shared/discover/robots-txt";
import { GOOGLE_CASES, GOOGLE_VALID_AGENTS, type GoogleCase } from "./robots-google-cases";

/** robots.cc's GetPathParamsQuery for the URLs the suite uses: drop scheme, host and fragment. */
function pathOf(url: string): string {
  const rest = url.replace(/^[a-z]+:\/\/[^/?#;]*/i, "").replace(/#.*/, "");
  return rest.startsWith("/") ? rest : `/${rest}`;
}

const describeCase = (c: GoogleCase) =>
  `${c.test} agent=${JSON.stringify(c.agent)} url=${c.url.slice(0, 80)}`;

describe("google/robotstxt matching cases", () => {
  it("the matcher agrees on every case (145 of 145; the 72 RFC 9309 ID_* cases among them)", () => {
    const disagree = GOOGLE_CASES.filter(
      (c) => RobotsTxt.parse(c.robots).isAllowed(pathOf(c.url), c.agent) !== c.allowed,
    ).map(describeCase);
    expect(disagree).toEqual([]);
    expect(GOOGLE_CASES).toHaveLength(145);
    expect(GOOGLE_CASES.filter((c) => c.rfc)).toHaveLength(72);
  });

  it("valid product tokens are letters, '-' and '_' only (ID_VerifyValidUserAgentsToObey)", () => {
    for (const [agent, valid] of GOOGLE_VALID_AGENTS) expect(isValidProductToken(agent), agent).toBe(valid);
  });

  it("the crawler's entry point differs only where its input is a User-Agent header and a URL as fetched", () => {
    const disagree = GOOGLE_CASES.filter((c) => {
      const origin = /^https?:\/\/[^/]+/.exec(c.url)?.[0] ?? "http://foo.bar";
      return parseRobots(`${origin}/robots.txt`, c.robots, c.agent).isAllowed(c.url) !== c.allowed;
    }).map(describeCase);
    expect(disagree).toEqual([
      // "" is not a URL of the file's origin, so not the file's to forbid (Google reads it as "/").
      'GoogleOnly_SystemTest agent="FooBot" url=',
      // A User-Agent header "Foo Bar" has the product token "Foo" (RFC 9110 §10.1.5); Google's API
      // takes a token, and "Foo Bar" is not one.
      'GoogleOnly_AcceptUserAgentUpToFirstSpace agent="Foo Bar" url=http://foo.bar/x/y',
      // RFC 9309 §2.2.2: non-ASCII is percent-encoded before comparison, and the request for
      // /foo/bar/ツ goes out as /foo/bar/%E3%83%84; Google leaves the encoding to its caller.
      'ID_Encoding agent="FooBot" url=http://foo.bar/foo/bar/ツ',
      'ID_Encoding agent="FooBot" url=http://foo.bar/foo/bar/ツ',
    ]);
  });
});
