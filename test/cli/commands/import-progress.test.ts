import { describe, expect, it } from "vitest";
import { ImportProgress } from "../../../cli/commands/import-progress";

describe("ImportProgress --json", () => {
  it("writes one JSON line a minute with records, articles, MB/s and the time left from the bytes read", () => {
    let t = Date.parse("2026-07-01T09:00:00Z");
    const lines: string[] = [];
    const p = new ImportProgress(
      100e6,
      "json",
      (s) => lines.push(s),
      () => t,
    );
    for (let i = 1; i <= 120; i++) {
      t += 1_000; // a record a second, half a MB each
      p.update(i * 0.5e6, Math.floor(i / 2));
    }
    p.stop();
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        progress: {
          records: 60,
          articles: 30,
          bytes_read: 30e6,
          bytes_total: 100e6,
          mb_per_s: 0.5,
          eta_s: 140,
        },
      },
      {
        progress: {
          records: 120,
          articles: 60,
          bytes_read: 60e6,
          bytes_total: 100e6,
          mb_per_s: 0.5,
          eta_s: 80,
        },
      },
    ]);
  });
});
