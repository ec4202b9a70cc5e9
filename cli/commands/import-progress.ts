/**
 * Progress of a long `storytrail import` on stderr: a bar on a terminal (records, articles, MB/s, and
 * the time left from the bytes read of the files' total size), or with --json one JSON line a minute
 * (stdout keeps the one summary object).
 */
import { SingleBar } from "cli-progress";

/** Between two JSON progress lines. */
const JSON_EVERY_MS = 60_000;

export type ProgressMode = "bar" | "json" | "none";

export class ImportProgress {
  private readonly bar: SingleBar | null;
  private readonly started: number;
  private records = 0;
  private articles = 0;
  private bytes = 0;
  private lastJson: number;

  constructor(
    private readonly totalBytes: number,
    private readonly mode: ProgressMode,
    private readonly write: (s: string) => void = (s) => process.stderr.write(s),
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.lastJson = this.started;
    this.bar =
      mode === "bar"
        ? new SingleBar({
            stream: process.stderr,
            format:
              "import {bar} {percentage}% | {records} records, {articles} articles | {mbps} MB/s | ETA {eta_formatted}",
            etaBuffer: 200,
          })
        : null;
    this.bar?.start(totalBytes, 0, { records: 0, articles: 0, mbps: "0.0" });
  }

  private mbPerSecond(): number {
    const seconds = (this.now() - this.started) / 1000;
    return seconds > 0 ? this.bytes / 1e6 / seconds : 0;
  }

  /** After each record: the bytes of the files read so far and the articles stored so far. */
  update(bytes: number, articles: number): void {
    this.records++;
    this.bytes = Math.min(bytes, this.totalBytes);
    this.articles = articles;
    if (this.bar && this.records % 16 === 0)
      this.bar.update(this.bytes, {
        records: this.records,
        articles,
        mbps: this.mbPerSecond().toFixed(1),
      });
    if (this.mode === "json" && this.now() - this.lastJson >= JSON_EVERY_MS) {
      this.lastJson = this.now();
      this.write(`${JSON.stringify(this.snapshot())}\n`);
    }
  }

  snapshot() {
    const mbps = this.mbPerSecond();
    const left = this.totalBytes - this.bytes;
    return {
      progress: {
        records: this.records,
        articles: this.articles,
        bytes_read: this.bytes,
        bytes_total: this.totalBytes,
        mb_per_s: Number(mbps.toFixed(2)),
        eta_s: mbps > 0 ? Math.round(left / 1e6 / mbps) : null,
      },
    };
  }

  /** A line that does not break the bar. */
  log(s: string): void {
    this.write(`${this.bar ? "\n" : ""}${s}\n`);
  }

  stop(): void {
    if (this.bar) {
      this.bar.update(this.bytes, { records: this.records, articles: this.articles });
      this.bar.stop();
    }
  }
}
