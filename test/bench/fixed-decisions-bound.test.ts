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

describe("the least cost under issue 26's decisions", () => {
  const lines = fixedDecisionsBound(observed, settings);
  const line = (start: string) => lines.find((l) => l.item.startsWith(start))!;

  it("is the floor with the page wait at 128 MB (no host delay), plus each decision's least", () => {
    const floor = designFloor(observed, settings);
    const floorWait = floor.find((l) => l.item.startsWith("fetch waiting"))!;
    // A daily burst's batch of 10 fetches 5 pages in 2 rounds of 3 hosts: 2 × 300 ms billed per 5 pages.
    expect(line("fetch waiting for the page only").quantity).toBeCloseTo(1e6 * 0.12 * (128 / 1024));
    expect(line("fetch waiting for the page only").quantity).toBeCloseTo(
      floorWait.quantity * (128 / (settings.memoryMb.fetch ?? 0)),
    );
    // The lease taken and freed around each request.
    expect(line("Hosts").quantity).toBe(2e6);
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
