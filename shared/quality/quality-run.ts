/**
 * The daily quality use case: per source, the day's figures against its own bounded history, and for
 * every sudden drop a finding that names its evidence (before and after figures, sample URLs, and the
 * raw-sample keys to re-extract from), so a template change can be fixed the morning it happens.
 */
import {
  appendHistory,
  type DailyQuality,
  detectDrops,
  type QualityDrop,
  type QualitySample,
  summarise,
} from "./publisher-stats";

/** What the use case reads and writes; shared/aws/quality-store.ts implements it on DynamoDB. */
export interface QualityStore {
  /** The articles collected in [since, until). */
  samples(since: Date, until: Date): AsyncIterable<QualitySample>;
  /** Every source with state, so a source that stopped yielding articles is judged too. */
  sourceIds(): AsyncIterable<string>;
  history(sourceId: string): Promise<DailyQuality[]>;
  saveHistory(sourceId: string, history: readonly DailyQuality[]): Promise<void>;
  /** URL and raw-sample key of stored articles (missing ones are left out). */
  evidence(articleIds: readonly string[]): Promise<{ url: string; raw_key: string | null }[]>;
  saveFindings(sourceId: string, findings: readonly QualityFinding[]): Promise<void>;
}

export interface QualityFinding extends QualityDrop {
  readonly day: string;
  /** Up to EVIDENCE_ARTICLES URLs of the day's articles that show the drop (shortest bodies, undated). */
  readonly sample_urls: string[];
  /** Their raw HTML samples in the raw bucket, for `storytrail reextract` (thin pages are always kept). */
  readonly raw_keys: string[];
}

export interface QualityReport {
  readonly day: string;
  readonly sources: Record<string, DailyQuality>;
  readonly findings: QualityFinding[];
}

/** Enough pages to see a pattern in; small enough to read in the log and keep on the source's item. */
const EVIDENCE_ARTICLES = 5;
const DAY_MS = 86_400_000;

export async function runQuality(store: QualityStore, at: Date): Promise<QualityReport> {
  const day = at.toISOString().slice(0, 10);
  const samples: QualitySample[] = [];
  for await (const s of store.samples(new Date(at.getTime() - DAY_MS), at)) samples.push(s);
  const today = summarise(samples, day);
  const ids = new Set(today.keys());
  for await (const id of store.sourceIds()) ids.add(id);

  const findings: QualityFinding[] = [];
  for (const id of [...ids].sort()) {
    const history = (await store.history(id)).filter((h) => h.day !== day);
    const figures = today.get(id);
    const drops = detectDrops(id, figures, history);
    if (drops.length > 0) {
      const own = samples.filter((s) => s.source_id === id);
      const found = await Promise.all(drops.map((d) => withEvidence(store, d, day, own)));
      await store.saveFindings(id, found);
      findings.push(...found);
    }
    if (figures) await store.saveHistory(id, appendHistory(history, figures));
  }
  return { day, sources: Object.fromEntries(today), findings };
}

/** The day's articles that show a drop best: the shortest bodies, or the undated ones. */
function witnesses(drop: QualityDrop, samples: readonly QualitySample[]): string[] {
  const chosen =
    drop.metric === "valid_date_share"
      ? samples.filter((s) => !s.published_at)
      : [...samples].sort((a, b) => a.word_count - b.word_count);
  return chosen.slice(0, EVIDENCE_ARTICLES).map((s) => s.article_id);
}

async function withEvidence(
  store: QualityStore,
  drop: QualityDrop,
  day: string,
  samples: readonly QualitySample[],
): Promise<QualityFinding> {
  const evidence = await store.evidence(witnesses(drop, samples));
  return {
    ...drop,
    day,
    sample_urls: evidence.map((e) => e.url),
    raw_keys: evidence.flatMap((e) => (e.raw_key ? [e.raw_key] : [])),
  };
}
