import { describe, expect, it } from "vitest";
import { monthlyBill } from "../../bench/cost-over-time";
import { chooseTableClasses, lifecycleDesign, todaysDesign } from "../../bench/lifecycle-designs";
import { costSettings } from "../support/cost-fixtures";
import { lifecycleInputs, lifecycleObservation } from "../support/lifecycle-fixtures";

const observed = lifecycleObservation();

describe("the designs compared", () => {
  it("today: every table backed up and Standard, only Buckets expiring, Sources and Hosts not growing", () => {
    const d = todaysDesign(observed, 90);
    expect(Object.values(d.tables).every((t) => t.pitr && t.tableClass === "STANDARD")).toBe(true);
    expect(d.tables.buckets!.retention).toEqual({ kind: "window", days: 90 });
    expect(d.tables.articles!.retention).toEqual({ kind: "forever" });
    expect(d.tables.sources!.retention).toEqual({ kind: "fixed" });
    expect(d.archive).toBeUndefined();
  });

  it("the lifecycle: each window an input, the hot window counted from the archive's day, PITR as the topology declares it", () => {
    const d = lifecycleDesign(observed, lifecycleInputs({ frontierWindowDays: 45, hotWindowDays: 14 }));
    expect(d.tables.frontier!.retention).toEqual({ kind: "window", days: 45 });
    expect(d.tables.articles!.retention).toEqual({ kind: "window", days: 15 });
    expect(d.tables.clusters!.retention).toEqual({ kind: "window", days: 15 });
    // A summary stays while a fingerprint may point at it: the LSH retention (90 here) + the archive's day.
    expect(d.clusterSummaries).toEqual({ kind: "window", days: 91 });
    expect(d.tables.fingerprints!.retention).toEqual({ kind: "window", days: 90 });
    expect(
      Object.entries(d.tables)
        .filter(([, t]) => t.pitr)
        .map(([name]) => name)
        .sort(),
    ).toEqual(["articles", "clusters", "fingerprints", "frontier", "sources"]);
    const withBackups = lifecycleDesign(
      observed,
      lifecycleInputs({ pitr: { sources: true, articles: true } }),
    );
    expect(withBackups.tables.articles!.pitr).toBe(true);
  });

  it("refuses a table it gives no retention, rather than pricing it as free", () => {
    const tables = { ...observed.tables, newtable: { rru: 0, wru: 1, storedBytes: 100 } };
    expect(() => lifecycleDesign({ ...observed, tables }, lifecycleInputs())).toThrow(/newtable/);
    const d = todaysDesign(observed, 90);
    expect(() => monthlyBill({ ...observed, tables }, costSettings(), d, 1, 1000)).toThrow(/newtable/);
  });
});

describe("the table class, chosen by the numbers", () => {
  const choose = (o = observed) =>
    chooseTableClasses(lifecycleDesign(o, lifecycleInputs()), (d) =>
      monthlyBill(o, costSettings(), d, 12, 5_000_000),
    );

  it("picks Standard-IA where the storage it saves beats its 25 % request premium, and says by how much", () => {
    // Fingerprints: 1.8 KB kept 90 days, 3 request units an article.
    const storageHeavy = lifecycleObservation({
      tables: { ...observed.tables, fingerprints: { rru: 0, wru: 1, storedBytes: 20_000 } },
    });
    const fp = choose(storageHeavy).find((c) => c.table === "fingerprints")!;
    expect(fp.storageSaved).toBeGreaterThan(fp.requestPremium);
    expect(fp.chosen).toBe("STANDARD_INFREQUENT_ACCESS");
    expect(fp.iaUsd).toBeLessThan(fp.standardUsd);
    expect(fp.standardUsd - fp.iaUsd).toBeCloseTo(fp.storageSaved - fp.requestPremium);
  });

  it("keeps Standard where requests dominate", () => {
    const requestHeavy = lifecycleObservation({
      tables: { ...observed.tables, buckets: { rru: 40, wru: 40, storedBytes: 100 } },
    });
    const buckets = choose(requestHeavy).find((c) => c.table === "buckets")!;
    expect(buckets.requestPremium).toBeGreaterThan(buckets.storageSaved);
    expect(buckets.chosen).toBe("STANDARD");
  });
});
