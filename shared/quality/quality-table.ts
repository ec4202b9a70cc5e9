/** The per-publisher quality table `storytrail quality` prints: the latest day against the history. */
import { median } from "../stats/median";
import type { DailyQuality } from "./publisher-stats";
import type { QualityFinding } from "./quality-run";

export interface SourceQuality {
  readonly source_id: string;
  readonly history: readonly DailyQuality[];
  readonly findings: readonly QualityFinding[];
}

const HEADER = [
  "source",
  "day",
  "articles",
  "median words",
  "dated",
  "baseline words",
  "baseline dated",
  "finding",
];

/** Rows, one per source: its newest day, the median of the days before, and that day's findings. */
function qualityRows(sources: readonly SourceQuality[]): string[][] {
  return sources.map(({ source_id, history, findings }) => {
    const latest = history.at(-1);
    const before = history.slice(0, -1);
    const today = findings.filter((f) => f.day === latest?.day);
    return [
      source_id,
      latest?.day ?? "-",
      latest ? String(latest.articles) : "-",
      latest ? String(Math.round(latest.median_words)) : "-",
      latest ? `${Math.round(latest.valid_date_share * 100)} %` : "-",
      before.length ? String(Math.round(median(before.map((h) => h.median_words)))) : "-",
      before.length ? `${Math.round(median(before.map((h) => h.valid_date_share)) * 100)} %` : "-",
      today.length ? today.map((f) => `DROP ${f.metric}`).join(", ") : "ok",
    ];
  });
}

/** A plain text table (columns padded), then each finding's evidence. */
export function renderQualityTable(sources: readonly SourceQuality[]): string {
  const rows = [HEADER, ...qualityRows(sources)];
  const widths = HEADER.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join("  ")
      .trimEnd(),
  );
  for (const { findings, history } of sources) {
    for (const f of findings.filter((x) => x.day === history.at(-1)?.day)) {
      lines.push(
        "",
        `${f.source_id} ${f.metric} on ${f.day}: ${f.today} (baseline ${f.baseline})`,
        ...f.sample_urls.map((u) => `  sample ${u}`),
        ...f.raw_keys.map((k) => `  raw    ${k}`),
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
