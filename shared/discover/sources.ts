/**
 * The sources file: which publications to crawl and where their feeds and sitemaps are. Validated with
 * zod; every error names the source (index and id) and the field.
 */
import * as z from "zod/mini";
import "../config/zod-messages";
import { MAX_CRAWL_DELAY_MS } from "../fetch/crawl-delay";
import type { FetchMessage } from "../records";
import { parseCadence } from "./cadence";

export interface Source {
  id: string;
  publication: string;
  homepage: string;
  feeds: string[];
  sitemaps: string[];
  /** EventBridge Scheduler expression, e.g. "rate(1 hour)" or "cron(0 6 * * ? *)"; default: the daily run. */
  schedule?: string;
  /** BCP 47 language hint, e.g. "en" or "pt-BR". */
  language?: string;
  /** Minimum gap between two requests to this source's hosts: in discovery (default 500 ms) and in
   * fetch, where it raises (never lowers) the deployment's STORYTRAIL_MIN_HOST_DELAY_MS. */
  min_delay_ms?: number;
  /** Hosts or registrable domains whose rel=canonical this source's pages may point to (syndication),
   * besides the deployment's STORYTRAIL_CANONICAL_PARTNERS. */
  partners?: string[];
  /** Other hosts or registrable domains whose URLs this source's sitemaps and feeds may list (host-scope.ts). */
  allowed_hosts?: string[];
  /** The source's IANA time zone, e.g. "America/New_York": an article's published_day is the day of its
   * published_at there (shared/extract/local-day.ts); absent, the day the page states. */
  timezone?: string;
}

export class SourcesError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.length === 1 ? issues[0] : `${issues.length} problems in sources:\n${issues.join("\n")}`);
    this.name = "SourcesError";
  }
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

const httpUrl = z.string().check(z.trim(), z.refine(isHttpUrl, "Invalid URL"));

const hostName = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.regex(/^(?:[a-z0-9-]+\.)+[a-z0-9-]+$/, "must be a host name such as partner-news.com"),
  );

/** The dispatcher must be able to tell when the cadence is due (cadence.ts); the shape is checked apart. */
function readableCadence(schedule: string): boolean {
  if (!SCHEDULE.test(schedule)) return true;
  try {
    parseCadence(schedule);
    return true;
  } catch {
    return false;
  }
}

/** Whether the runtime's time zone data knows the name (Intl throws a RangeError on an unknown zone). */
function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}

const SCHEDULE =
  /^(?:rate\(\s*[1-9]\d*\s+(?:minute|minutes|hour|hours|day|days)\s*\)|cron\(\s*\S+(?:\s+\S+){5}\s*\))$/;

const sourceSchema = z.pipe(
  // Accept the singular spellings ("feed": "…", "sitemap": [...]) people write by hand.
  z.transform((v: unknown) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const [one, many] of [
      ["feed", "feeds"],
      ["sitemap", "sitemaps"],
    ] as const) {
      if (one in o && !(many in o)) {
        o[many] = Array.isArray(o[one]) ? o[one] : [o[one]];
        delete o[one];
      }
    }
    return o;
  }),
  z.strictObject({
    id: z
      .string()
      .check(
        z.regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
          "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
        ),
      ),
    publication: z.string().check(z.trim(), z.minLength(1, "must not be empty")),
    homepage: httpUrl,
    feeds: z._default(z.array(httpUrl), []),
    sitemaps: z._default(z.array(httpUrl), []),
    schedule: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.regex(SCHEDULE, "must be rate(N unit) or a 6-field cron(…) expression"),
          z.refine(
            readableCadence,
            "cron(…) fields may use numbers, names, *, ?, lists, ranges and steps (not L, W or #), in range",
          ),
        ),
    ),
    language: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, "must be a BCP 47 tag such as en or pt-BR"),
        ),
    ),
    // At most the Crawl-delay cap: the source's minimum now paces its fetches too, and a fetch page's
    // share of its Lambda's time holds 30 s of waiting (crawl-delay.ts); a longer gap would time it out.
    min_delay_ms: z.optional(z.int().check(z.gte(0), z.lte(MAX_CRAWL_DELAY_MS))),
    partners: z.optional(z.array(hostName)),
    allowed_hosts: z.optional(z.array(hostName)),
    timezone: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.refine(knownTimeZone, "must be an IANA time zone name such as America/New_York or Europe/Paris"),
        ),
    ),
  }),
);

/** The settings of a source that fetch applies, as its fetch messages carry them (only those it sets). */
export type SourceFetchSettings = Pick<FetchMessage, "min_delay_ms" | "partners" | "timezone">;

export function sourceFetchSettings(
  source: Pick<Source, "min_delay_ms" | "partners" | "timezone">,
): SourceFetchSettings {
  return {
    ...(source.min_delay_ms === undefined ? {} : { min_delay_ms: source.min_delay_ms }),
    ...(source.partners?.length ? { partners: source.partners } : {}),
    ...(source.timezone ? { timezone: source.timezone } : {}),
  };
}

/** The whole file; parseSources gives better messages than parsing with this directly. */
export const sourcesFileSchema = z.union([
  z.object({ sources: z.array(sourceSchema) }),
  z.array(sourceSchema),
]);

const fileShape = z.union([z.object({ sources: z.array(z.unknown()) }), z.array(z.unknown())]);

function pathText(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out;
}

/** Validates a parsed sources file (`{ sources: [...] }` or a bare array). Throws SourcesError listing every problem. */
export function parseSources(json: unknown): Source[] {
  const file = fileShape.safeParse(json);
  if (!file.success)
    throw new SourcesError(['sources file: expected { "sources": [...] } or an array of sources']);
  const list = Array.isArray(file.data) ? file.data : file.data.sources;
  const issues: string[] = [];
  const sources: Source[] = [];
  const ids = new Map<string, number>();
  list.forEach((raw, i) => {
    const rawId = raw && typeof raw === "object" && "id" in raw ? (raw as { id: unknown }).id : undefined;
    const label = `sources[${i}]${typeof rawId === "string" ? ` (${JSON.stringify(rawId)})` : ""}`;
    if (typeof rawId === "string") {
      const prev = ids.get(rawId);
      if (prev !== undefined) issues.push(`${label}: id: duplicate of sources[${prev}]`);
      else ids.set(rawId, i);
    }
    const parsed = sourceSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const where = pathText(issue.path);
        let message = issue.message;
        if (issue.code === "unrecognized_keys") message = `unknown field(s) ${issue.keys.join(", ")}`;
        if (issue.code === "invalid_type" && issue.input === undefined) message = "is required";
        issues.push(`${label}: ${where ? `${where}: ` : ""}${message}`);
      }
      return;
    }
    sources.push(parsed.data);
  });
  if (issues.length) throw new SourcesError(issues);
  return sources;
}
