/**
 * One WARC file into articles: every HTML response record goes through the fetcher's own post-GET path
 * (extraction, canonical URL, raw sample, Articles, dedup queue) with `collected_at` = WARC-Date; every
 * other record is counted. Resumable: a checkpoint names the next record to read, written only after
 * everything before it was handed on durably.
 */

import { type FetchOutcome, type PageDeps, storeFetchedPage } from "../crawl/fetch-article";
import type { Frontier } from "../crawl/ports";
import { type ExtractInput, extractArticle } from "../extract/article";
import type { FetchSuccess } from "../fetch/http";
import type { Extraction, FetchMessage } from "../records";
import { InvalidUrlError } from "../url/canonical-url";
import { countArticle, countError, countSkipped, emptySummary, type ImportSummary } from "./import-summary";
import type { PageSource, SourceLookup } from "./page-source";
import type { PageJob, PreparedPage } from "./prepare-page";
import { type ArchivedPage, readWarc, type WarcEntry } from "./warc-pages";

export interface WarcCheckpoint {
  /** Byte offset of the next record to read, as warcio reported it. */
  readonly offset: number;
  /**
   * That record's WARC-Record-ID. A resumed read seeks to `offset` and goes on from there only if it
   * finds this record; otherwise (a whole-file gzip, whose offsets are member boundaries) it reads the
   * file from its start and passes over `records_done` records.
   */
  readonly record_id: string | null;
  /** Records of the file already accounted for in `summary`. */
  readonly records_done: number;
  readonly done: boolean;
  /** This file's counts so far. */
  readonly summary: ImportSummary;
}

export interface ImportDeps {
  /** The fetcher's stores; `now` is replaced by each record's WARC-Date. */
  readonly page: Omit<PageDeps, "now" | "frontier">;
  readonly sources: SourceLookup;
  /** Decoded page bytes past this are skipped as too_large (the fetcher's cap). */
  readonly maxBytes: number;
  /** Makes everything handed on so far durable before a checkpoint (locally: drain the dedup queue). */
  readonly flush?: () => Promise<void>;
  readonly saveCheckpoint?: (checkpoint: WarcCheckpoint) => Promise<void>;
  /** Records between checkpoints. */
  readonly checkpointEvery?: number;
  /** After each record is accounted for, with the file's counts so far. */
  readonly onEntry?: (entry: WarcEntry, summary: ImportSummary) => void;
  /** Checked before each record: true stops the file at a checkpoint (Lambda's time is running out). */
  readonly shouldStop?: () => boolean;
  /** Prepares pages (decode, extract, fingerprint) ahead of storing them (locally, a pool of worker
   * threads); without it each page is prepared as it is stored. */
  readonly prepareAhead?: PrepareAhead;
}

/** Pages prepared elsewhere while earlier records are stored; at most `inFlight` records wait. */
export interface PrepareAhead {
  readonly inFlight: number;
  prepare(job: PageJob): Promise<PreparedPage>;
}

type Settled = { ok: true; prepared: PreparedPage } | { ok: false; error: Error };

/** The bytes of a file from a byte offset on. */
export type OpenAt = (offset: number) => AsyncIterable<Uint8Array>;

const DEFAULT_CHECKPOINT_EVERY = 500;

/** An archived page has no frontier item: the crawl's "seen?" filter stays the crawl's own. */
const NO_FRONTIER: Frontier = {
  claim: async () => "seen",
  get: async () => null,
  markFetched: async () => {},
  markFailed: async () => 1,
  markSkipped: async () => {},
};

/** The page as a fetch's result; its text decoded only if read (a page prepared ahead needs it only
 * for a raw sample). */
function asFetched(page: ArchivedPage): FetchSuccess {
  return {
    ok: true,
    url: page.url,
    finalUrl: page.url,
    status: page.status,
    notModified: false,
    headers: page.headers,
    contentType: page.contentType,
    bytes: page.bytes,
    get text() {
      return page.text;
    },
    get charset() {
      return page.charset;
    },
    redirects: [],
  };
}

/** The extraction of a page the archive cut: its body is only the start of the page's. */
function cutBody(extraction: Extraction): Extraction {
  const fields = extraction.truncated ?? [];
  return fields.includes("body") ? extraction : { ...extraction, truncated: [...fields, "body"] };
}

/** The page as a worker prepares it: what storeFetchedPage hands the extractor, but its bytes. */
function pageJob(page: ArchivedPage, source: PageSource, deps: ImportDeps): PageJob {
  return {
    bytes: page.bytes,
    contentType: page.contentType,
    input: {
      url: page.url,
      headers: page.headers,
      now: page.collectedAt,
      languageHint: source.language ?? null,
      timeZone: source.settings.timezone ?? null,
    },
    // storeFetchedPage's partners: the deployment's, then the source's.
    sample: {
      rate: deps.page.sampleRate,
      partners: [...(deps.page.partners ?? []), ...(source.settings.partners ?? [])],
    },
  };
}

function prepareAhead(entry: WarcEntry, deps: ImportDeps): Promise<Settled> | undefined {
  if (entry.kind !== "page" || !deps.prepareAhead) return undefined;
  const job = pageJob(entry.page, deps.sources.sourceOf(entry.page.url), deps);
  return deps.prepareAhead.prepare(job).then(
    (prepared) => ({ ok: true, prepared }),
    (error: Error) => ({ ok: false, error }),
  );
}

/** What the worker computed besides the extraction, handed to storeFetchedPage in place of its own
 * work; each is used only for what it was computed for (that body, that article). */
function preparedParts(prepared: PreparedPage): Pick<PageDeps, "fingerprint" | "bodyGzip" | "rawSampleGzip"> {
  return {
    fingerprint: () => prepared.fingerprint,
    bodyGzip: (body) => (body === prepared.extraction.body ? prepared.bodyGzip : null),
    rawSampleGzip: (articleId) =>
      prepared.rawSample?.article_id === articleId ? prepared.rawSample.gzip : null,
  };
}

async function storePage(
  file: string,
  entry: WarcEntry & { kind: "page" },
  deps: ImportDeps,
  ahead: Settled | undefined,
): Promise<FetchOutcome> {
  const { page } = entry;
  const source = deps.sources.sourceOf(page.url);
  const msg: FetchMessage = {
    url: page.url,
    source_id: source.source_id,
    publication: source.publication,
    discovered_from: `${file}#${entry.offset}`,
    run_id: "backfill",
    language_hint: source.language,
    ...source.settings,
  };
  const extract = (input: ExtractInput): Extraction => {
    if (!ahead) return (deps.page.extract ?? extractArticle)(input);
    if (!ahead.ok) throw ahead.error;
    return ahead.prepared.extraction;
  };
  const pageDeps: PageDeps = {
    ...deps.page,
    frontier: NO_FRONTIER,
    now: () => page.collectedAt,
    extract: page.truncated ? (input) => cutBody(extract(input)) : extract,
    ...(ahead?.ok ? preparedParts(ahead.prepared) : {}),
  };
  return storeFetchedPage(msg, asFetched(page), pageDeps, async (reason, detail) => ({
    kind: "failed",
    reason,
    detail,
  }));
}

async function account(
  file: string,
  entry: WarcEntry,
  deps: ImportDeps,
  summary: ImportSummary,
  ahead: Settled | undefined,
): Promise<void> {
  if (entry.kind === "skipped") return countSkipped(summary, entry.reason);
  if (entry.kind === "error")
    return countError(summary, { file, offset: entry.offset, detail: entry.detail });
  try {
    const outcome = await storePage(file, entry, deps, ahead);
    if (outcome.kind === "failed") countSkipped(summary, outcome.reason);
    else countArticle(summary, entry.page.truncated !== null);
  } catch (err) {
    // A URL no canonical form accepts is the record's fault; anything else (a store down) stops the
    // file before its checkpoint moves, so a rerun retries the record.
    if (!(err instanceof InvalidUrlError)) throw err;
    countError(summary, { file, offset: entry.offset, detail: `${entry.page.url}: ${err.message}` });
  }
}

/** The file's entries from the checkpoint on: by seeking when the record there is the one expected. */
async function resumeAt(
  resume: WarcCheckpoint | null,
  open: OpenAt,
  maxBytes: number,
): Promise<AsyncIterable<WarcEntry>> {
  const done = resume?.records_done ?? 0;
  if (resume?.record_id && resume.offset > 0) {
    const seeked = readWarc(open(resume.offset), { maxBytes, baseOffset: resume.offset, baseOrdinal: done });
    const first = await seeked.next();
    if (!first.done && first.value.recordId === resume.record_id) {
      return (async function* () {
        yield first.value;
        yield* seeked;
      })();
    }
    await seeked.return(undefined);
  }
  return readWarc(open(0), { maxBytes, baseOrdinal: done, skipRecords: done });
}

export async function importWarc(
  file: string,
  open: OpenAt,
  start: WarcCheckpoint | null,
  deps: ImportDeps,
): Promise<WarcCheckpoint> {
  const summary = structuredClone(start?.summary ?? { ...emptySummary(), files: 1 });
  const entries = await resumeAt(start && !start.done ? start : null, open, deps.maxBytes);
  const every = deps.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
  let since = 0;
  // Records read and (their pages) extracting, stored in file order: a checkpoint names the first
  // record not yet stored, and the stories are those of a one-by-one import whatever the pool's size.
  const waiting: { entry: WarcEntry; ahead: Promise<Settled> | undefined }[] = [];
  const capacity = deps.prepareAhead?.inFlight ?? 1;
  /** Stores the first record waiting; returns the checkpoint it stopped at when told to stop. */
  const storeNext = async (): Promise<WarcCheckpoint | null> => {
    const { entry, ahead } = waiting.shift()!;
    const stop = deps.shouldStop?.() ?? false;
    if (since >= every || stop) {
      await deps.flush?.();
      const checkpoint: WarcCheckpoint = {
        offset: entry.offset,
        record_id: entry.recordId,
        records_done: entry.ordinal - 1,
        done: false,
        summary,
      };
      await deps.saveCheckpoint?.(checkpoint);
      since = 0;
      if (stop) return checkpoint;
    }
    await account(file, entry, deps, summary, await ahead);
    deps.onEntry?.(entry, summary);
    since++;
    return null;
  };
  for await (const entry of entries) {
    waiting.push({ entry, ahead: prepareAhead(entry, deps) });
    // Back-pressure: the file is read no further than `capacity` records ahead of the store.
    while (waiting.length >= capacity) {
      const stopped = await storeNext();
      if (stopped) return stopped;
    }
  }
  while (waiting.length > 0) {
    const stopped = await storeNext();
    if (stopped) return stopped;
  }
  await deps.flush?.();
  const done: WarcCheckpoint = {
    offset: 0,
    record_id: null,
    records_done: summary.records,
    done: true,
    summary,
  };
  await deps.saveCheckpoint?.(done);
  return done;
}
