/**
 * A robots.txt file parsed and matched as RFC 9309 specifies and google/robotstxt (robots.cc) does it,
 * since publishers test their files against Google: product tokens matched case-insensitively against
 * the letters, `-` and `_` a user-agent line starts with (`User-Agent: FOO BAR` names `foo`); groups
 * for one agent merged; `*` only when no group names us; the longest matching pattern wins and Allow
 * wins a tie; `*` and a final `$` in patterns; non-ASCII and `%xx` case normalised in patterns. The
 * typos Google accepts are accepted too (`useragent`, `user agent`, `dissallow`, `dissalow`,
 * `disalow`, `diasllow`, `disallaw`, `site-map`, a missing colon), so paths the owner meant to block
 * stay blocked. Crawl-delay is not Google's (it ignores it); we read it from the groups that apply.
 */

/** RFC 9309 §2.5: parsers must read at least 500 KiB; Google reads that much and ignores the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** robots.cc keeps 2083 × 8 − 1 bytes of a line (eight of the longest URL browsers accept). */
const MAX_LINE_CHARS = 2083 * 8 - 1;

interface Pattern {
  /** The literal runs between `*`s. */
  readonly pieces: readonly string[];
  /** Ends in `$`: the last piece must end the path. */
  readonly anchored: boolean;
}

export interface Rule extends Pattern {
  readonly allow: boolean;
  /** The pattern's length as written (after escaping): the longest match wins. */
  readonly priority: number;
}

interface Group {
  /** Product tokens named by the group's user-agent lines, lower-cased. */
  readonly agents: Set<string>;
  global: boolean;
  readonly rules: Rule[];
  /** `allow pattern` of the rules, so a file repeating one line holds one rule. */
  readonly seen: Set<string>;
  readonly crawlDelays: number[];
}

function addRule(group: Group, allow: boolean, pattern: string): void {
  const key = `${allow ? "A" : "D"}${pattern}`;
  if (group.seen.has(key)) return;
  group.seen.add(key);
  const { pieces, anchored } = compile(pattern);
  group.rules.push({ allow, priority: pattern.length, pieces, anchored });
}

type Key = "user-agent" | "allow" | "disallow" | "sitemap" | "crawl-delay";

const KEY_SPELLINGS: readonly (readonly [Key, readonly string[]])[] = [
  ["user-agent", ["user-agent", "useragent", "user agent"]],
  ["allow", ["allow"]],
  ["disallow", ["disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"]],
  ["sitemap", ["sitemap", "site-map"]],
  ["crawl-delay", ["crawl-delay", "crawldelay", "crawl delay"]],
];

/** As robots.cc: a key is known when it starts with one of the spellings (so `Disallowed:` counts). */
function keyOf(raw: string): Key | null {
  const k = raw.toLowerCase();
  for (const [key, spellings] of KEY_SPELLINGS) if (spellings.some((s) => k.startsWith(s))) return key;
  return null;
}

/** `key: value`, or `key value` when the colon is missing and the line has exactly two words. */
function splitLine(line: string): [string, string] | null {
  const hash = line.indexOf("#");
  const text = (hash >= 0 ? line.slice(0, hash) : line).trim();
  let sep = text.indexOf(":");
  if (sep < 0) {
    const words = text.split(/[ \t]+/);
    if (words.length !== 2) return null;
    sep = words[0]!.length;
  }
  const key = text.slice(0, sep).trim();
  return key ? [key, text.slice(sep + 1).trim()] : null;
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/**
 * RFC 9309 §2.2.2: octets outside ASCII are percent-encoded before comparison; `%xx` escapes are
 * upper-cased (`%aa` → `%AA`). Nothing is decoded: `%62` stays distinct from `b`, as in robots.cc.
 */
export function escapePath(s: string): string {
  if (!/[%\u0080-\uffff]/.test(s)) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "%" && isHex(s[i + 1]) && isHex(s[i + 2])) {
      out += `%${s.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (c.charCodeAt(0) >= 0x80) {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp)))
        out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    } else {
      out += c;
    }
  }
  return out;
}

function compile(pattern: string): Pattern {
  const anchored = pattern.endsWith("$");
  return { pieces: (anchored ? pattern.slice(0, -1) : pattern).split("*"), anchored };
}

/**
 * Whether the pattern matches a prefix of `path` (all of it with a final `$`). `*` matches any run of
 * characters; greedy leftmost search for each literal piece is optimal because only the end can be
 * anchored, so the cost is a few indexOf calls, not the pattern × path table robots.cc builds.
 */
function matches(path: string, { pieces, anchored }: Pattern): boolean {
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i]!;
    if (piece === "") continue;
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  const tail = pieces[last]!;
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return path.indexOf(tail, pos) >= 0;
}

/** Whether `pattern` (a robots.txt path pattern, escaped) matches `path`. */
export function patternMatches(path: string, pattern: string): boolean {
  return matches(path, compile(pattern));
}

/** RFC 9309 §2.2.1: a product token is letters, `-` and `_` only. Any other token matches no group. */
export function isValidProductToken(token: string): boolean {
  return /^[A-Za-z_-]+$/.test(token);
}

/** The product token a user-agent line names: its leading letters, `-` and `_` (`Foo Bar` → `foo`). */
function groupAgent(value: string): string {
  return (/^[A-Za-z_-]*/.exec(value)?.[0] ?? "").toLowerCase();
}

/** The first `maxBytes` of `text` (UTF-8), ending at a line break when cut so no rule is half-read. */
function capText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  const cut = new TextDecoder().decode(bytes.subarray(0, maxBytes));
  return dropPartialLine(cut);
}

function dropPartialLine(text: string): string {
  const end = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
  return end < 0 ? "" : text.slice(0, end + 1);
}

export interface RobotsTxtOptions {
  /** The body was cut by the fetch (at ROBOTS_MAX_BYTES): its last line is incomplete and ignored. */
  readonly truncated?: boolean;
}

export class RobotsTxt {
  /** Sitemap: values as written, from anywhere in the file. */
  readonly sitemaps: readonly string[];
  private readonly groups: readonly Group[];

  private constructor(groups: Group[], sitemaps: string[]) {
    this.groups = groups;
    this.sitemaps = sitemaps;
  }

  static parse(body: string, opts: RobotsTxtOptions = {}): RobotsTxt {
    let text = capText(body, ROBOTS_MAX_BYTES);
    if (opts.truncated && text === body) text = dropPartialLine(text);
    if (text.startsWith("\uFEFF")) text = text.slice(1);
    const groups: Group[] = [];
    const sitemaps: string[] = [];
    let current: Group | null = null;
    // A group is its run of user-agent lines plus the rules after them; a user-agent line after a
    // rule opens the next group. Sitemap and unknown lines do not end a group (robots.cc).
    let sawRule = false;
    for (const rawLine of text.split(/\r\n|\r|\n/)) {
      const kv = splitLine(rawLine.length > MAX_LINE_CHARS ? rawLine.slice(0, MAX_LINE_CHARS) : rawLine);
      if (!kv) continue;
      const key = keyOf(kv[0]);
      const value = kv[1];
      if (key === "user-agent") {
        if (!current || sawRule) {
          current = { agents: new Set(), global: false, rules: [], seen: new Set(), crawlDelays: [] };
          groups.push(current);
          sawRule = false;
        }
        // robots.cc: `*` alone or followed by a space is the global group (`* # all` included).
        if (/^\*(\s|$)/.test(value)) current.global = true;
        else {
          const agent = groupAgent(value);
          if (agent) current.agents.add(agent);
        }
      } else if (key === "allow" || key === "disallow") {
        if (!current) continue; // rules before any user-agent line belong to no group
        sawRule = true;
        const pattern = escapePath(value);
        const allow = key === "allow";
        addRule(current, allow, pattern);
        // Google: allowing `/dir/index.htm(l)` allows `/dir/` too (the same page).
        const slash = pattern.lastIndexOf("/");
        if (allow && slash >= 0 && pattern.startsWith("/index.htm", slash)) {
          addRule(current, allow, `${pattern.slice(0, slash + 1)}$`);
        }
      } else if (key === "sitemap") {
        if (value) sitemaps.push(value);
      } else if (key === "crawl-delay" && current) {
        // A member of its group, as for the crawlers that read it: `User-agent: bingbot` +
        // `Crawl-delay: 10` is bingbot's group, not merged into the `User-agent: *` group after it.
        sawRule = true;
        const seconds = Number.parseFloat(value);
        if (seconds >= 0) current.crawlDelays.push(seconds);
      }
    }
    return new RobotsTxt(groups, sitemaps);
  }

  /** The groups that apply to `token`: every group naming it, else every `*` group, else none. */
  private groupsFor(token: string): Group[] {
    const t = token.toLowerCase();
    if (isValidProductToken(token)) {
      const named = this.groups.filter((g) => g.agents.has(t));
      if (named.length > 0) return named;
    }
    return this.groups.filter((g) => g.global);
  }

  /** The rules that apply to `token`, indexed for matching many paths. */
  rulesFor(token: string): RuleSet {
    return new RuleSet(this.groupsFor(token).flatMap((g) => g.rules));
  }

  /**
   * Whether `token` may fetch `path` (path and query, already percent-encoded as sent on the wire;
   * see escapePath). Rules of the groups naming `token` only, else those of `*`; none: allowed.
   */
  isAllowed(path: string, token: string): boolean {
    return this.rulesFor(token).allows(path);
  }

  /** The largest Crawl-delay (seconds) of the groups that apply to `token`, or null. Not clamped here. */
  crawlDelaySeconds(token: string): number | null {
    let delay: number | null = null;
    for (const g of this.groupsFor(token)) for (const d of g.crawlDelays) delay = Math.max(delay ?? d, d);
    return delay;
  }
}

/**
 * One agent's rules, indexed by the literal start of each pattern (the text before its first `*`):
 * a path is only tried against rules whose start it begins with, so a file of 20,000 plain rules
 * costs a path one look-up per distinct start length, not 20,000 comparisons.
 */
export class RuleSet {
  private readonly byStart = new Map<string, Rule[]>();
  /** Distinct start lengths, ascending. */
  private readonly lengths: number[];

  constructor(rules: readonly Rule[]) {
    for (const r of rules) {
      const start = r.pieces[0]!;
      const list = this.byStart.get(start);
      if (list) list.push(r);
      else this.byStart.set(start, [r]);
    }
    this.lengths = [...new Set([...this.byStart.keys()].map((k) => k.length))].sort((a, b) => a - b);
  }

  /** The longest matching rule decides; on a tie Allow wins; an empty pattern blocks nothing. */
  allows(path: string): boolean {
    let allow = -1;
    let disallow = -1;
    for (const len of this.lengths) {
      if (len > path.length) break;
      for (const r of this.byStart.get(path.slice(0, len)) ?? []) {
        if (r.priority <= (r.allow ? allow : disallow)) continue;
        if (!matches(path, r)) continue;
        if (r.allow) allow = r.priority;
        else disallow = r.priority;
      }
    }
    return !(disallow > 0 && disallow > allow);
  }
}
