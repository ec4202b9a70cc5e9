/**
 * The two designs the bill over months compares (bench/cost-over-time.ts), each table's retention,
 * backups and class as an input, and the table class chosen by the numbers.
 */

import { tableNames, topology } from "../infra/topology";
import { DEFAULT_FRONTIER_RETENTION_DAYS, DEFAULT_HOT_DAYS } from "../shared/config/crawl-settings";
import type { Observed } from "./cost-model";
import type { ArchivePlan, BillLine, Design, Retention, TableClass, TablePolicy } from "./cost-over-time";

/** Today: no TTL but on Buckets (the LSH retention) and Hosts; PITR on every table (infra/topology-table.ts). */
export function todaysDesign(obs: Observed, lshRetentionDays: number): Design {
  const retention = (table: string): Retention =>
    table === "buckets"
      ? { kind: "window", days: lshRetentionDays }
      : table === "sources" || table === "hosts"
        ? { kind: "fixed" }
        : { kind: "forever" };
  return {
    label: "today's design",
    tables: Object.fromEntries(
      Object.keys(obs.tables).map((t) => [
        t,
        { retention: retention(t), pitr: true, tableClass: "STANDARD" },
      ]),
    ),
    clusterSummaries: { kind: "forever" },
  };
}

export interface LifecycleInputs {
  /** Articles and Clusters member/outlet items stay this long after their day is archived (issue 40: 30). */
  readonly hotWindowDays: number;
  /** A day is archived after it ends: its items are set to expire this many days after collection, plus the window. */
  readonly archiveLagDays: number;
  /** Fingerprints and Buckets: STORYTRAIL_LSH_RETENTION_DAYS. */
  readonly lshRetentionDays: number;
  /** Frontier items' TTL after their write (the retention engineer decides; an input). */
  readonly frontierWindowDays: number;
  /** PITR per table; a table not named has none. */
  readonly pitr: Readonly<Record<string, boolean>>;
  /** Class per table; a table not named is Standard. */
  readonly tableClass: Readonly<Record<string, TableClass>>;
  readonly archive: ArchivePlan;
}

/** Backups as the topology declares them (infra/topology-tables.ts: each table's reason): on for what
 * nothing rebuilds, off for Hosts and Buckets. */
export const DEFAULT_PITR: Readonly<Record<string, boolean>> = Object.fromEntries(
  tableNames.map((t) => [t, topology.tables[t].backup.pointInTimeRecovery]),
);

/** Table classes as the topology declares them (its comment gives the numbers that chose Standard). */
export const TOPOLOGY_TABLE_CLASSES: Readonly<Record<string, TableClass>> = Object.fromEntries(
  tableNames.map((t) => [t, topology.tables[t].tableClass]),
);

/** The lifecycle's defaults (the settings' and the topology's) but the archive (measured) and the classes. */
export function defaultLifecycleInputs(
  lshRetentionDays: number,
): Omit<LifecycleInputs, "archive" | "tableClass"> {
  return {
    hotWindowDays: DEFAULT_HOT_DAYS,
    archiveLagDays: 1,
    lshRetentionDays,
    frontierWindowDays: DEFAULT_FRONTIER_RETENTION_DAYS,
    pitr: DEFAULT_PITR,
  };
}

export function lifecycleDesign(obs: Observed, i: LifecycleInputs): Design {
  const hot: Retention = { kind: "window", days: i.hotWindowDays + i.archiveLagDays };
  const retention: Record<string, Retention> = {
    sources: { kind: "fixed" },
    hosts: { kind: "fixed" },
    frontier: { kind: "window", days: i.frontierWindowDays },
    articles: hot,
    clusters: hot,
    fingerprints: { kind: "window", days: i.lshRetentionDays },
    buckets: { kind: "window", days: i.lshRetentionDays },
  };
  const tables: Record<string, TablePolicy> = {};
  for (const t of Object.keys(obs.tables)) {
    const r = retention[t];
    if (!r)
      throw new Error(
        `the lifecycle gives the ${t} table no retention: add it in bench/lifecycle-designs.ts`,
      );
    tables[t] = { retention: r, pitr: i.pitr[t] ?? false, tableClass: i.tableClass[t] ?? "STANDARD" };
  }
  // A story's summary outlives its members by the LSH retention where that is longer: a fingerprint may still
  // point at it (shared/archive/, docs/archive.md).
  const summaries: Retention = {
    kind: "window",
    days: Math.max(i.hotWindowDays, i.lshRetentionDays) + i.archiveLagDays,
  };
  return { label: "lifecycle", tables, clusterSummaries: summaries, archive: i.archive };
}

export interface ClassChoice {
  readonly table: string;
  /** The month's bill with the table Standard, and with it Standard-IA (every other table unchanged). */
  readonly standardUsd: number;
  readonly iaUsd: number;
  /** Storage dollars Standard-IA saves, and what its dearer requests add. */
  readonly storageSaved: number;
  readonly requestPremium: number;
  readonly chosen: TableClass;
}

/** Each table's class by the month's bill (`monthBill`, e.g. monthlyBill at month 12): Standard-IA where its
 * storage saving beats its request premium. */
export function chooseTableClasses(design: Design, monthBill: (d: Design) => BillLine[]): ClassChoice[] {
  const bill = (d: Design) => {
    const lines = monthBill(d);
    const sum = (f: (l: (typeof lines)[number]) => boolean) => lines.filter(f).reduce((x, l) => x + l.usd, 0);
    return { total: sum(() => true), storage: sum((l) => l.category === "storage" && l.unit === "GB-month") };
  };
  return Object.keys(design.tables).map((table) => {
    const as = (tableClass: TableClass): Design => ({
      ...design,
      tables: { ...design.tables, [table]: { ...design.tables[table]!, tableClass } },
    });
    const std = bill(as("STANDARD"));
    const ia = bill(as("STANDARD_INFREQUENT_ACCESS"));
    const storageSaved = std.storage - ia.storage;
    return {
      table,
      standardUsd: std.total,
      iaUsd: ia.total,
      storageSaved,
      requestPremium: ia.total - std.total + storageSaved,
      chosen: ia.total < std.total ? "STANDARD_INFREQUENT_ACCESS" : "STANDARD",
    };
  });
}
