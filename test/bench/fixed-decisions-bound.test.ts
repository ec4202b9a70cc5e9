import { describe, expect, it } from "vitest";
import { designFloor, totalUsd } from "../../bench/cost-model";
import { FINGERPRINT_SIGNATURE_BYTES, fixedDecisionsBound } from "../../bench/fixed-decisions-bound";
import { PRICES } from "../../bench/prices";
import { computeFingerprint } from "../../shared/dedup/fingerprint";
import { costSettings, observation } from "../support/cost-fixtures";

const observed = observation({
  functions: {
    fetch: { invocationsPerArticle: 0.1, cpuMs: 100, ioMs: 200, appLogBytes: 3000 },
    dedup: { invocationsPerArticle: 0.1, cpuMs: 200, ioMs: 300, appLogBytes: 3000 },
  },
});
const settings = costSettings({ memoryMb: { fetch: 197, dedup: 512 } });

describe("the least cost under issue 15's fixed decisions", () => {
  const lines = fixedDecisionsBound(observed, settings);
  const line = (start: string) => lines.find((l) => l.item.startsWith(start))!;

  it("is the floor with the page wait replaced by latency + host delay at 128 MB, plus each decision's least", () => {
    const floor = designFloor(observed, settings);
    const floorWait = floor.find((l) => l.item.startsWith("fetch waiting"))!;
    // A daily burst's page waits the delay from the last request's end, then the publisher.
    expect(line("fetch waiting for the page and the host delay").quantity).toBeCloseTo(
      1e6 * 1.3 * (128 / 1024),
    );
    // One reservation per host's chain of 10 pages and a write as each ends: 1.1 per page.
    expect(line("Hosts").quantity).toBeCloseTo(1.1e6);
    expect(line("Frontier").quantity).toBe(1e6);
    expect(line("the fingerprint").quantity).toBe(1e6);
    // 20 ms of dedup CPU an article (200 ms a batch of 10) at a full vCPU.
    expect(line("dedup's CPU").quantity).toBeCloseTo(1e6 * 0.02 * (1769 / 1024));
    expect(line("LSH items' storage").usd).toBeCloseTo(
      ((8 * 140 * 1e6) / 2 ** 30) * PRICES.dynamoStoragePerGbMonth,
    );
    const added = lines.filter((l) => !floor.some((f) => f.item === l.item));
    expect(totalUsd(lines)).toBeCloseTo(totalUsd(floor) - floorWait.usd + totalUsd(added));
    expect(totalUsd(lines)).toBeGreaterThan(totalUsd(floor));
  });

  it("counts the fingerprint's signatures as a real fingerprint carries them: always full", () => {
    for (const text of [
      "Council votes. ".repeat(20),
      "A longer story about the city council and its budget. ".repeat(60),
    ]) {
      const fp = computeFingerprint(text);
      const signatures = Buffer.from(fp.sig, "base64").length + Buffer.from(fp.lede, "base64").length;
      expect(signatures).toBe(FINGERPRINT_SIGNATURE_BYTES);
    }
  });
});
