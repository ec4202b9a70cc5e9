/**
 * The quality table of an import's store. No daily quality run visits an archive, so the table is made
 * when it is read: the daily use case (runQuality) runs for each day the archive's pages were collected
 * (their WARC-Date, UTC), oldest first, on an in-memory QualityStore, as if the run had been there each
 * of those days: the same figures, drops and evidence as a crawl's.
 */
import type { DailyQuality, QualitySample } from "./publisher-stats";
import { type QualityFinding, type QualityStore, runQuality } from "./quality-run";
import type { SourceQuality } from "./quality-table";

interface ArchivedSample extends QualitySample {
  /** Epoch ms. */
  readonly collected: number;
  readonly url: string;
  readonly raw_key: string | null;
}

const DAY_MS = 86_400_000;

/** An Articles item (as the store keeps it) as a quality sample; null for an item without a date. */
function sampleOf(item: Record<string, unknown>): ArchivedSample | null {
  const collected = typeof item.collected_at === "string" ? Date.parse(item.collected_at) : Number.NaN;
  if (Number.isNaN(collected)) return null;
  return {
    article_id: String(item.article_id),
    source_id: String(item.source_id),
    word_count: Number(item.word_count ?? 0),
    published_at: typeof item.published_at === "string" ? item.published_at : null,
    collected,
    url: String(item.url ?? ""),
    raw_key: typeof item.raw_key === "string" ? item.raw_key : null,
  };
}

/** The archive's articles by UTC day of collection, and the state runQuality keeps between days. */
class ArchiveDays implements QualityStore {
  readonly histories = new Map<string, DailyQuality[]>();
  readonly findings = new Map<string, QualityFinding[]>();
  private readonly byId = new Map<string, ArchivedSample>();

  /** `byDay`: keyed by the day's first instant (epoch ms). */
  constructor(private readonly byDay: ReadonlyMap<number, readonly ArchivedSample[]>) {
    for (const samples of byDay.values()) for (const s of samples) this.byId.set(s.article_id, s);
  }

  /** The window shifted by 1 ms, (since, until]: archiveQuality judges each day at its last
   * millisecond, so that the day runQuality names it by is the day its pages were collected. */
  async *samples(since: Date, until: Date): AsyncGenerator<QualitySample> {
    const [from, to] = [since.getTime() + 1, until.getTime() + 1];
    for (let day = from - (from % DAY_MS); day < to; day += DAY_MS)
      for (const s of this.byDay.get(day) ?? []) if (s.collected >= from && s.collected < to) yield s;
  }

  async *sourceIds(): AsyncGenerator<string> {
    yield* this.histories.keys();
  }

  async history(sourceId: string): Promise<DailyQuality[]> {
    return this.histories.get(sourceId) ?? [];
  }

  async saveHistory(sourceId: string, history: readonly DailyQuality[]): Promise<void> {
    this.histories.set(sourceId, [...history]);
  }

  async evidence(articleIds: readonly string[]): Promise<{ url: string; raw_key: string | null }[]> {
    return articleIds.flatMap((id) => {
      const s = this.byId.get(id);
      return s ? [{ url: s.url, raw_key: s.raw_key }] : [];
    });
  }

  async saveFindings(sourceId: string, findings: readonly QualityFinding[]): Promise<void> {
    this.findings.set(sourceId, [...(this.findings.get(sourceId) ?? []), ...findings]);
  }
}

/** Every source's quality history and findings over the archive's days, sorted by source. */
export async function archiveQuality(
  articleItems: AsyncIterable<Record<string, unknown>>,
): Promise<SourceQuality[]> {
  const byDay = new Map<number, ArchivedSample[]>();
  for await (const item of articleItems) {
    const s = sampleOf(item);
    if (!s) continue;
    const day = s.collected - (s.collected % DAY_MS);
    const list = byDay.get(day);
    if (list) list.push(s);
    else byDay.set(day, [s]);
  }
  const days = new ArchiveDays(byDay);
  // Each day is judged at its end, against the days before it.
  for (const day of [...byDay.keys()].sort((a, b) => a - b))
    await runQuality(days, new Date(day + DAY_MS - 1));
  return [...days.histories.keys()].sort().map((source_id) => ({
    source_id,
    history: days.histories.get(source_id) ?? [],
    findings: days.findings.get(source_id) ?? [],
  }));
}
