/**
 * Dedup of an existing dataset (JSONL, one article a line) with the dedup Lambda's clustering code over
 * the in-memory index: `storytrail dedup`, the dedup eval and the bench run it. Lines are streamed;
 * memory holds the index and, per id, the line that brought it and a hash of its text.
 *
 * Nothing is dropped silently: a line that is not an article is reported with its line number and the
 * JSON or schema problem; an id seen before is reported with both line numbers. The first line of an
 * id is kept (keep-first, not an error): a dataset assembled from several exports often repeats a
 * record, one bad line should not cost a 200,000-article run, and the first copy is the one every
 * later tool (and the output order) already refers to. A repeat with a different text is worth a
 * look, so the report says whether the texts differ.
 */
import { createHash } from "node:crypto";
import * as z from "zod/mini";
import { jsonErrorPosition } from "../config/json-error-position";
import { addArticle } from "./clusterer";
import type { DedupArticle, DedupStore } from "./dedup-store";
import { computeFingerprint, type Fingerprint } from "./fingerprint";
import { FingerprintViews } from "./fingerprint-views";
import { MemoryDedupStore } from "./memory-dedup-store";
import { Shingler } from "./shingles";
import "../config/zod-messages";

const inputLine = z.object({
  id: z.pipe(
    z.union([z.string().check(z.minLength(1, "must not be empty")), z.number()]),
    z.transform(String),
  ),
  text: z.optional(z.string()),
  body: z.optional(z.string()),
  title: z.optional(z.nullable(z.string())),
  ts: z.optional(z.nullable(z.string())),
  published_at: z.optional(z.nullable(z.string())),
  publication: z.optional(z.nullable(z.string())),
  url: z.optional(z.nullable(z.string())),
});
type DedupInputLine = z.input<typeof inputLine>;

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Why a line is not an article: JSON syntax (with the column) or the schema (field and problem). */
class InputLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputLineError";
  }
}

function parseLine(line: string): DedupInputLine & { id: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    const at = jsonErrorPosition(line);
    const message = err instanceof Error ? err.message : String(err);
    throw new InputLineError(`not JSON${at ? ` at column ${at.column}` : ""}: ${message.slice(0, 120)}`);
  }
  const parsed = inputLine.safeParse(json);
  if (!parsed.success) {
    const record = json && typeof json === "object" ? (json as Record<PropertyKey, unknown>) : {};
    const problems = parsed.error.issues.map((i) => {
      const field = i.path.length ? `${i.path.join(".")}: ` : "";
      const missing = i.path.length === 1 && record[i.path[0]!] === undefined;
      return `${field}${missing ? "is required" : i.message}`;
    });
    throw new InputLineError(`not an article: ${problems.join("; ")}`);
  }
  return parsed.data;
}

const textOf = (raw: DedupInputLine) => raw.text ?? raw.body ?? "";

/** Maps one input record and its fingerprint to what the clusterer takes. */
function toDedupArticle(
  raw: DedupInputLine & { id: string },
  collectedAt: string,
  fingerprint: Fingerprint,
): DedupArticle {
  return {
    article_id: raw.id,
    url: raw.url ?? `urn:storytrail:article:${encodeURIComponent(raw.id)}`,
    publication: raw.publication ?? "unknown",
    // The outlet's id in a crawl; a dataset without one names outlets by publication.
    source_id: raw.publication ?? "unknown",
    headline: raw.title ?? null,
    published_at: isoOrNull(raw.published_at ?? raw.ts),
    collected_at: collectedAt,
    fingerprint,
  };
}

export interface DuplicateLine {
  readonly id: string;
  readonly line: number;
  /** The line whose record was kept. */
  readonly firstLine: number;
  /** Whether the repeat's title and text differ from the kept record's. */
  readonly differs: boolean;
}

/** A store runDedup can list the final clusters of: the in-memory one, or one on disk. */
export interface RunStore extends DedupStore {
  assignments(): Iterable<{ article_id: string; cluster_id: string }>;
}

export interface DedupRunResult {
  store: RunStore;
  /** Ids in input order with their final cluster ids. */
  assignments: { id: string; cluster_id: string }[];
  skipped: number;
  duplicates: number;
}

export interface DedupRunOptions {
  /** Called after each line is read (for progress). */
  readonly onLine?: (line: string) => void;
  /** A line that is not an article: its number and why. */
  readonly onSkip?: (lineNo: number, reason: string) => void;
  /** A repeated id: the repeat is ignored, the first record kept. */
  readonly onDuplicate?: (d: DuplicateLine) => void;
  /** Where the clusterer's state lives (default: in memory). A store on disk that already holds
   * articles of this input resumes the run: an article it finished is not fingerprinted again. */
  readonly store?: RunStore;
  /** Makes the store's writes durable; called every `commitEvery` articles and at the end. */
  readonly commit?: () => Promise<void>;
  readonly commitEvery?: number;
  /** Computes fingerprints ahead, elsewhere (a pool of worker threads), while this thread clusters
   * the articles before; without it each is computed here as its article is clustered. */
  readonly fingerprintAhead?: FingerprintAhead;
}

/** Fingerprints computed elsewhere, a batch of texts at a time; at most `inFlight` batches wait. */
export interface FingerprintAhead {
  readonly inFlight: number;
  fingerprints(texts: readonly { text: string; title: string | null }[]): Promise<Fingerprint[]>;
}

/**
 * Texts sent for their fingerprints at once. One at a time, the main thread spent ~24 µs posting each
 * (the worker, faster than the clustering, had gone to sleep and was woken every time) and as much
 * receiving each reply (`storytrail dedup`, 100,000 articles, node --cpu-prof: 2.4 s of the main
 * thread's ~19 s).
 */
const FINGERPRINT_BATCH = 32;

const contentHash = (r: DedupInputLine) =>
  createHash("sha256")
    .update(JSON.stringify([r.title ?? null, r.text ?? r.body ?? ""]))
    .digest("base64url")
    .slice(0, 16);

/** Clusters a stream of JSONL lines. */
export async function runDedup(
  lines: AsyncIterable<string> | Iterable<string>,
  options: DedupRunOptions = {},
): Promise<DedupRunResult> {
  const store = options.store ?? new MemoryDedupStore();
  // Each commit writes every LMDB page its articles touched, and an article's LSH buckets fall on
  // random pages: the fewer commits, the fewer times a page is written (200,000 synthetic articles:
  // the main thread's CPU 39.0 s at 2,000, 35.7 s at 10,000; peak RSS 723 → 780 MB).
  const commitEvery = options.commitEvery ?? 10_000;
  let sinceCommit = 0;
  const collectedAt = new Date().toISOString();
  const firstSeen = new Map<string, { line: number; hash: string }>();
  const order: string[] = [];
  let skipped = 0;
  let duplicates = 0;
  let lineNo = 0;
  const fixedClock = () => collectedAt;
  // The store keeps every fingerprint: each is decoded once for the whole run.
  const views = new FingerprintViews();
  const shingler = new Shingler();
  // Articles read, their fingerprints computing, clustered in input order: the clusters are those of a
  // one-by-one run whatever the pool's size.
  type Waiting = { raw: DedupInputLine & { id: string }; ahead?: Promise<Fingerprint> };
  const waiting: Waiting[] = [];
  const pool = options.fingerprintAhead;
  const capacity = pool ? pool.inFlight * FINGERPRINT_BATCH : 1;
  // Articles read whose texts have not been sent for fingerprints yet.
  let unsent: Waiting[] = [];
  const sendUnsent = (): void => {
    if (!pool || unsent.length === 0) return;
    const batch = pool.fingerprints(unsent.map((w) => ({ text: textOf(w.raw), title: w.raw.title ?? null })));
    unsent.forEach((w, i) => {
      w.ahead = batch.then((fps) => fps[i]!);
      // Awaited in turn below; until then a failed one (a worker died) is not an unhandled rejection.
      w.ahead.catch(() => {});
    });
    unsent = [];
  };
  const clusterNext = async (): Promise<void> => {
    sendUnsent();
    const { raw, ahead } = waiting.shift()!;
    const fingerprint = ahead ? await ahead : computeFingerprint(textOf(raw), raw.title, shingler);
    await addArticle(store, toDedupArticle(raw, collectedAt, fingerprint), { now: fixedClock, views });
    if (options.commit && ++sinceCommit >= commitEvery) {
      await options.commit();
      sinceCommit = 0;
    }
  };
  for await (const line of lines) {
    lineNo++;
    options.onLine?.(line);
    if (line.trim() === "") continue;
    let raw: DedupInputLine & { id: string };
    try {
      raw = parseLine(line);
    } catch (e) {
      skipped++;
      options.onSkip?.(lineNo, e instanceof Error ? e.message : String(e));
      continue;
    }
    const hash = contentHash(raw);
    const first = firstSeen.get(raw.id);
    if (first) {
      duplicates++;
      options.onDuplicate?.({
        id: raw.id,
        line: lineNo,
        firstLine: first.line,
        differs: first.hash !== hash,
      });
      continue;
    }
    firstSeen.set(raw.id, { line: lineNo, hash });
    order.push(raw.id);
    if (options.store && (await store.storyStates?.getStory(raw.id))?.done) continue;
    const item: Waiting = { raw };
    waiting.push(item);
    if (pool) {
      unsent.push(item);
      if (unsent.length >= FINGERPRINT_BATCH) sendUnsent();
    }
    // Back-pressure: the input is read no further than `capacity` articles ahead of the clusterer.
    while (waiting.length >= capacity) await clusterNext();
  }
  while (waiting.length > 0) await clusterNext();
  await options.commit?.();
  const final = new Map<string, string>();
  for (const a of store.assignments()) final.set(a.article_id, a.cluster_id);
  return {
    store,
    assignments: order.map((id) => ({ id, cluster_id: final.get(id)! })),
    skipped,
    duplicates,
  };
}
