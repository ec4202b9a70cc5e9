/**
 * Where a fetch may go: every URL it starts at or is redirected to is parsed and vetted here (scheme,
 * IP literals against the address guard); names are vetted on their resolved address by the guarded
 * lookup each hop dials through. The trail refuses loops and too many hops.
 */
import { blockedRange, parseIpLiteral } from "./address-guard";
import type { Refusal } from "./fetch-errors";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
  return REDIRECTS.has(status);
}

/** Parses and vets a URL (or redirect target); IP literals are checked here so the failure names them. */
export function vetUrl(raw: string, base: string | undefined, allowPrivate: boolean): string | Refusal {
  let u: URL;
  try {
    u = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
  } catch {
    return { reason: "invalid_url", detail: `not a URL: ${raw.slice(0, 200)}` };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    return { reason: "bad_scheme", detail: `scheme ${u.protocol} is not http(s)` };
  }
  if (!u.hostname) return { reason: "invalid_url", detail: "no host" };
  const literal = parseIpLiteral(u.hostname);
  if (literal) {
    const why = blockedRange(literal.toString(), allowPrivate);
    if (why) return { reason: "blocked_address", detail: `${u.hostname} is ${why}` };
  }
  u.hash = "";
  return u.href;
}

/** The hops of one fetch: `current` is the URL to request next, `hops` the redirect targets so far. */
export class RedirectTrail {
  readonly hops: string[] = [];
  private readonly visited: Set<string>;

  constructor(
    public current: string,
    private readonly maxRedirects: number,
    private readonly allowPrivate: boolean,
  ) {
    this.visited = new Set([current]);
  }

  /** Moves to the redirect's target, or says why not (then `current` stays the URL that redirected). */
  follow(status: number, location: string | undefined): Refusal | null {
    if (!location) return { reason: "network_error", detail: `HTTP ${status} without Location` };
    const next = vetUrl(location, this.current, this.allowPrivate);
    if (typeof next !== "string") return { ...next, detail: `redirect to ${location}: ${next.detail}` };
    if (this.visited.has(next)) return { reason: "redirect_loop", detail: `redirect back to ${next}` };
    if (this.hops.length >= this.maxRedirects) {
      return { reason: "too_many_redirects", detail: `more than ${this.maxRedirects} redirects` };
    }
    this.visited.add(next);
    this.hops.push(next);
    this.current = next;
    return null;
  }
}
