/**
 * `npm run bench -- --only cost --months N`: the monthly bill of month 1 and month N at 5 M articles a
 * day, line by line, for today's design and the lifecycle (bench/cost-over-time.ts), with the archive's
 * measured Parquet bytes, each table's class chosen by the numbers, and the ratio issue 40 sets a target on.
 */
import type { ArchiveBytes } from "./archive-bytes";
import { PART_ROWS } from "./archive-bytes";
import type { Observed, Settings } from "./cost-model";
import {
  type BillLine,
  type BillSummary,
  type Category,
  DAYS_PER_MONTH,
  type Design,
  monthlyBill,
  type QueryLoad,
  summarize,
} from "./cost-over-time";
import {
  chooseTableClasses,
  defaultLifecycleInputs,
  type LifecycleInputs,
  lifecycleDesign,
  TOPOLOGY_TABLE_CLASSES,
  todaysDesign,
} from "./lifecycle-designs";
import { GB } from "./prices";
import { formatTable, sig } from "./table";

/** The design's rate (issue 40): 5 M articles a day, 152 M a month. */
const ARTICLES_PER_DAY = 5_000_000;
/** Issue 40's target: at month 12, storage plus backups at most this share of the month's processing. */
const KEEP_RATIO_TARGET = 0.25;
/** The query load priced: the docs' first queries (a week's stories by outlet count, an outlet's pickup
 * delays, a publisher's daily counts and quality), 100 a day, each over a week's partitions. */
const QUERY_LOAD: QueryLoad = { queriesPerDay: 100, daysPerQuery: 7, getsPerFile: 4 };
/** Archive function's size: one full vCPU, so Parquet encoding runs at the measured CPU time. */
const ARCHIVE_MEMORY_MB = 1769;
/** Assumed wait per article for the archive's reads: a BatchGetItem of 100 items takes ~20 ms. */
const ARCHIVE_IO_MS_PER_ARTICLE = 0.2;
/** @aws-sdk/lib-storage's default part size. */
const UPLOAD_PART_BYTES = 5 * 2 ** 20;

const usd = (n: number) =>
  `$${n.toLocaleString("en-US", { maximumFractionDigits: n < 10 ? 2 : 0, minimumFractionDigits: n < 10 ? 2 : 0 })}`;

function linesTable(first: readonly BillLine[], last: readonly BillLine[], months: number): string {
  const key = (l: BillLine) => `${l.category}|${l.service}|${l.item}`;
  const byKey = new Map(last.map((l) => [key(l), l]));
  const keys = [...new Set([...first.map(key), ...last.map(key)])];
  const firstByKey = new Map(first.map((l) => [key(l), l]));
  return formatTable(
    ["", "service", "item", "month 1", "unit", "USD", `month ${months}`, "USD "],
    keys.map((k) => {
      const a = firstByKey.get(k);
      const b = byKey.get(k);
      const l = (a ?? b)!;
      return [
        l.category,
        l.service,
        l.item,
        sig(a?.quantity ?? 0),
        l.unit,
        usd(a?.usd ?? 0),
        sig(b?.quantity ?? 0),
        usd(b?.usd ?? 0),
      ];
    }),
  );
}

export interface CostOverTime {
  readonly months: number;
  readonly archive: ArchiveBytes;
  readonly inputs: Omit<LifecycleInputs, "archive">;
  readonly bills: { label: string; first: BillSummary; last: BillSummary }[];
  readonly text: string;
}

export function costOverTimeReport(
  obs: Observed,
  s: Settings,
  archive: ArchiveBytes,
  months: number,
  lshRetentionDays: number,
): CostOverTime {
  const archivePlan = {
    bytes: archive,
    partRows: PART_ROWS,
    uploadPartBytes: UPLOAD_PART_BYTES,
    memoryMb: ARCHIVE_MEMORY_MB,
    ioMsPerArticle: ARCHIVE_IO_MS_PER_ARTICLE,
    runsPerDay: 2,
    query: QUERY_LOAD,
  };
  const base = defaultLifecycleInputs(lshRetentionDays);
  const allStandard = lifecycleDesign(obs, { ...base, tableClass: {}, archive: archivePlan });
  // The design priced is the one deployed: the topology's classes; the choices are printed beside it.
  const inputs = { ...base, tableClass: TOPOLOGY_TABLE_CLASSES };
  const lifecycle = lifecycleDesign(obs, { ...inputs, archive: archivePlan });
  const today = todaysDesign(obs, lshRetentionDays);
  const bill = (d: Design, m: number) => monthlyBill(obs, s, d, m, ARTICLES_PER_DAY);
  const choices = chooseTableClasses(allStandard, (d) => bill(d, months));
  const designs = [today, lifecycle].map((d) => {
    const first = bill(d, 1);
    const last = bill(d, months);
    return { design: d, first, last, sFirst: summarize(first), sLast: summarize(last) };
  });
  const processing = designs[0]!.first.filter((l) => l.category === "processing");
  const other = (ls: readonly BillLine[]) => ls.filter((l) => l.category !== "processing");
  const categories: Category[] = ["processing", "storage", "backups", "archive", "query"];
  const perMillionGb = ((archive.articleBytes + archive.storyBytes) * 1e6) / GB;
  const ia = choices.filter((c) => c.chosen !== "STANDARD").map((c) => c.table);
  const [t, l] = designs as [(typeof designs)[0], (typeof designs)[0]];
  const met = l.sLast.keepRatio <= KEEP_RATIO_TARGET;
  const alt = (label: string, d: Design) => {
    const x = summarize(bill(d, months));
    return [
      label,
      usd(x.byCategory.storage + x.byCategory.backups),
      `${x.keepRatio.toFixed(3)}`,
      usd(x.total),
    ];
  };
  const keptSummaries: Design = { ...lifecycle, clusterSummaries: { kind: "forever" } };
  // The first month whose ratio passes the target, within ten years.
  const crossing = (label: string, d: Design) => {
    for (let m = 1; m <= 120; m++)
      if (summarize(bill(d, m)).keepRatio > KEEP_RATIO_TARGET)
        return `${label}: past ${KEEP_RATIO_TARGET}× the processing in month ${m}`;
    return `${label}: under ${KEEP_RATIO_TARGET}× the processing for ten years (month 120: ${summarize(bill(d, 120)).keepRatio.toFixed(3)})`;
  };
  // The lifecycle's archive and queries cost from the first month; today's storage grows past them.
  const cheaperFrom = (() => {
    for (let m = 1; m <= 120; m++)
      if (summarize(bill(lifecycle, m)).total < summarize(bill(today, m)).total)
        return `The lifecycle's whole bill is the smaller from month ${m}.`;
    return "The lifecycle's whole bill stays the larger for ten years.";
  })();
  const text = [
    `Archive, measured: ${archive.articles.toLocaleString("en")} synthetic articles of a day (600 words, ${archive.stories.toLocaleString("en")} stories) through the export's Parquet writer (hyparquet-writer, codec ${archive.codecs.join(", ")}, ${PART_ROWS.toLocaleString("en")} rows a file): ${sig(archive.articleBytes)} B an article (${sig(archive.articleBytesWithoutBody)} B without the body; body ${sig(archive.bodyBytes)} B before compression) + ${sig(archive.storyBytes)} B of stories = ${perMillionGb.toFixed(2)} GB per million articles (target ≤ 2.5); encoding ${archive.encodeCpuMsPerArticle.toFixed(3)} ms CPU an article`,
    `Table class for the lifecycle, by month ${months}'s bill (every other table unchanged)\n${formatTable(
      [
        "table",
        "bill, Standard",
        "bill, Standard-IA",
        "IA saves on storage",
        "IA's requests cost more",
        "cheaper",
        "deployed",
      ],
      choices.map((c) => [
        c.table,
        usd(c.standardUsd),
        usd(c.iaUsd),
        usd(c.storageSaved),
        usd(c.requestPremium),
        c.chosen === "STANDARD" ? "Standard" : "Standard-IA",
        TOPOLOGY_TABLE_CLASSES[c.table] === "STANDARD_INFREQUENT_ACCESS" ? "Standard-IA" : "Standard",
      ]),
    )}\nBy this month's bill Standard-IA is cheaper ${ia.length > 0 ? `for ${ia.join(", ")}: their storage saving beats the 25 % request premium` : "for no table"}; the bill above prices the classes the topology deploys (infra/topology-tables.ts).`,
    `Processing a month at ${ARTICLES_PER_DAY.toLocaleString("en")} articles a day (${sig((ARTICLES_PER_DAY * DAYS_PER_MONTH) / 1e6)} M; both designs, every month: the per-million lines without storage)\n${formatTable(
      ["service", "item", "quantity", "unit", "USD a month"],
      processing.map((x) => [x.service, x.item, sig(x.quantity), x.unit, usd(x.usd)]),
    )}`,
    ...designs.map(
      (d) =>
        `${
          d.design.label === "lifecycle"
            ? `The lifecycle (Articles and Clusters members/outlets ${inputs.hotWindowDays} days after archiving, Fingerprints and Buckets ${inputs.lshRetentionDays}, Frontier ${inputs.frontierWindowDays}; PITR on ${Object.keys(
                inputs.pitr,
              )
                .filter((k) => inputs.pitr[k])
                .join(", ")}; the archive in S3, ${QUERY_LOAD.queriesPerDay} Athena queries a day)`
            : "Today's design (every table kept forever but Buckets and Hosts; PITR on every table; Standard)"
        }: month 1 and month ${months}, beyond processing\n${linesTable(other(d.first), other(d.last), months)}`,
    ),
    `The monthly bill\n${formatTable(
      ["", "today, month 1", `today, month ${months}`, "lifecycle, month 1", `lifecycle, month ${months}`],
      [
        ...categories.map((c) => [
          c,
          ...designs.flatMap((d) => [usd(d.sFirst.byCategory[c]), usd(d.sLast.byCategory[c])]),
        ]),
        ["total", ...designs.flatMap((d) => [usd(d.sFirst.total), usd(d.sLast.total)])],
        [
          "(storage + backups) ÷ processing",
          ...designs.flatMap((d) => [d.sFirst.keepRatio.toFixed(3), d.sLast.keepRatio.toFixed(3)]),
        ],
      ],
    )}\nMonth ${months}: storage plus backups ${t.sLast.keepRatio.toFixed(2)}× the processing today, ${l.sLast.keepRatio.toFixed(2)}× with the lifecycle (issue 40's target: ≤ ${KEEP_RATIO_TARGET} at month 12; month ${months} is ${met ? "within" : "OVER"} it). ${cheaperFrom}`,
    `The lifecycle at month ${months}, one input changed\n${formatTable(
      ["lifecycle", "storage + backups", "÷ processing", "total"],
      [
        alt("as chosen above", lifecycle),
        alt("every table Standard", allStandard),
        alt(
          "PITR on no table but Sources",
          lifecycleDesign(obs, { ...inputs, pitr: { sources: true }, archive: archivePlan }),
        ),
        alt(
          "Frontier kept 90 days",
          lifecycleDesign(obs, { ...inputs, frontierWindowDays: 90, archive: archivePlan }),
        ),
        alt("hot window 7 days", lifecycleDesign(obs, { ...inputs, hotWindowDays: 7, archive: archivePlan })),
        alt(
          "LSH retention 90 days (the default before issue 40)",
          lifecycleDesign(obs, { ...inputs, lshRetentionDays: 90, archive: archivePlan }),
        ),
        alt("story summaries kept forever", keptSummaries),
      ],
    )}\nStorage still grows with the lifecycle, by the archive in S3. ${crossing("As chosen", lifecycle)}; ${crossing("with the summaries kept forever", keptSummaries)}.`,
  ].join("\n\n");
  return {
    months,
    archive,
    inputs,
    bills: designs.map((d) => ({ label: d.design.label, first: d.sFirst, last: d.sLast })),
    text,
  };
}
