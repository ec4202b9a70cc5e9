import { describe, expect, it } from "vitest";
import { isRedirect, RedirectTrail, vetUrl } from "../../../shared/fetch/redirects";

describe("vetUrl", () => {
  it("resolves against the base, drops the fragment, and names what it refuses", () => {
    expect(vetUrl("/b#x", "https://example.com/a", false)).toBe("https://example.com/b");
    expect(vetUrl("file:///etc/passwd", undefined, false)).toMatchObject({ reason: "bad_scheme" });
    expect(vetUrl("http://", undefined, false)).toMatchObject({ reason: "invalid_url" });
    expect(vetUrl("http://0x7f.1/", undefined, false)).toEqual({
      reason: "blocked_address",
      detail: expect.stringContaining("127.0.0.1"),
    });
    expect(vetUrl("http://127.0.0.1/", undefined, true)).toBe("http://127.0.0.1/");
    expect(vetUrl("http://169.254.169.254/", undefined, true)).toMatchObject({ reason: "blocked_address" });
  });
});

describe("RedirectTrail", () => {
  it("follows hops, refusing a loop, a missing Location and one hop past the limit", () => {
    const trail = new RedirectTrail("https://a.example/1", 2, false);
    expect(isRedirect(301) && isRedirect(308) && !isRedirect(300) && !isRedirect(304)).toBe(true);
    expect(trail.follow(302, undefined)).toMatchObject({ reason: "network_error" });
    expect(trail.follow(302, "/2")).toBeNull();
    expect(trail.current).toBe("https://a.example/2");
    expect(trail.follow(301, "/1")).toMatchObject({ reason: "redirect_loop" });
    expect(trail.follow(301, "/3")).toBeNull();
    expect(trail.follow(301, "/4")).toMatchObject({ reason: "too_many_redirects" });
    expect(trail.hops).toEqual(["https://a.example/2", "https://a.example/3"]);
    expect(trail.current).toBe("https://a.example/3");
  });
});
