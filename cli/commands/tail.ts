/**
 * `storytrail tail`: follows a local run's Clusters stream (DynamoDB Local Streams) and prints each
 * record decoded into its event, as a consumer would receive it: one line of text per event, or
 * `--json` (one event object per line, the `ClusterStreamEvent` of @storytrail/records), or `--raw`
 * (the stream records themselves, as a Lambda's DynamoDB event carries them: fixtures for a consumer's
 * own tests). While a `storytrail crawl` runs on the same data directory, tail attaches to its
 * DynamoDB Local (the crawl leaves its endpoints in the directory); otherwise it opens the directory.
 * An import's directory holds the embedded store, which keeps no stream: tail prints its stories as
 * the INSERT records a stream replayed from the start would carry (infra/local/store-stream.ts), and
 * exits, there being nothing to follow. Items a local run's TTL sweep deleted are REMOVEs with the
 * userIdentity of a TTL deletion, as on AWS: `member_expired`, `outlet_expired`, `story_expired`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { ClusterStreamEvent, ClusterStreamRecord } from "../../shared/consumer/decode-stream-record";
import { hasLocalStore } from "../../shared/local-store/store-folder";
import { InputError } from "../input-error";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";
import { ENDPOINTS_FILE } from "./crawl";

interface TailOptions {
  dataDir: string;
  json?: boolean;
  raw?: boolean;
  once?: boolean;
  from: string;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** One line for a person: the event, the story and what changed. */
function describeEvent(e: ClusterStreamEvent): string {
  const head = `${e.type.padEnd(14)} ${e.cluster_id}`;
  switch (e.type) {
    case "story_created":
    case "story_grew":
    case "story_updated":
      return `${head} ${JSON.stringify(e.story.headline)} (${count(e.story.article_count, "article")}, ${count(e.story.outlet_count, "outlet")})`;
    case "story_merged":
      return `${head} → ${e.into}`;
    case "story_removed":
    case "story_expired":
      return head;
    case "member_added":
    case "member_updated":
      return `${head} ${e.member.publication}: ${e.member.url}`;
    case "member_moved":
      return `${head} ${e.member.publication}: ${e.member.url} (from ${e.from})`;
    case "member_removed":
    case "member_expired":
      return `${head} article ${e.article_id}`;
    case "article_revised": {
      const r = e.revision;
      const what = [
        r.headline_changed
          ? `headline ${JSON.stringify(r.previous_headline)} → ${JSON.stringify(r.headline)}`
          : "",
        r.body_changed ? `+${r.words_added}/-${r.words_removed} words` : "",
        r.notice ?? "",
      ].filter(Boolean);
      return `${head} ${e.member.url} revision ${r.number}: ${what.join(", ")}`;
    }
    case "outlet_added":
    case "outlet_updated":
      return `${head} ${e.outlet.publication} carried it at ${e.outlet.carried_at}`;
    case "outlet_removed":
    case "outlet_expired":
      return `${head} outlet ${e.source_id}`;
    case "unknown":
      return `${head} item ${e.item}`;
  }
}

export function registerTail(program: Command): void {
  program
    .command("tail")
    .description(
      "Follow a local run's Clusters stream and print the decoded events (what a consumer receives).",
    )
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option("--json", "one event per line as JSON (@storytrail/records' ClusterStreamEvent)")
    .option(
      "--raw",
      "one stream record per line as JSON, undecoded: what a Lambda's DynamoDB stream event carries in Records",
    )
    .option("--once", "print what the stream holds now and exit, instead of following it")
    .option("--from <where>", "start: 'start' (everything the stream holds, 24 h) or 'now'", "start")
    .action(async (opts: TailOptions) => {
      if (opts.from !== "start" && opts.from !== "now")
        throw new InputError(`--from must be 'start' or 'now', got "${opts.from}"`);
      if (opts.raw && opts.json) throw new InputError("--raw and --json: give one of them");
      process.exitCode = await tail(opts);
    });
}

/** Prints one stream record as asked (raw, JSON event or a line); false when it does not decode. */
function printRecord(
  r: ClusterStreamRecord,
  opts: TailOptions,
  decode: (r: ClusterStreamRecord) => ClusterStreamEvent,
  log: (s: string) => void,
): boolean {
  if (opts.raw) {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    return true;
  }
  try {
    const e = decode(r);
    process.stdout.write(`${opts.json ? JSON.stringify(e) : describeEvent(e)}\n`);
    return true;
  } catch (err) {
    log(`not decoded: ${(err as Error).message}`);
    return false;
  }
}

/** An import's store: its stories as a stream from the start would carry them (nothing after `now`). */
async function tailStore(dataDir: string, opts: TailOptions, log: (s: string) => void): Promise<number> {
  const [{ LocalStore }, { insertRecords }, { decodeClusterStreamRecord }] = await Promise.all([
    import("../../shared/local-store/local-store"),
    import("../../infra/local/store-stream"),
    import("../../shared/consumer/decode-stream-record"),
  ]);
  log(`opened the store of ${dataDir} (an import's: no stream to follow, its stories as they stand)`);
  if (opts.from === "now") return 0;
  const store = LocalStore.open(dataDir);
  let failed = 0;
  try {
    for await (const r of insertRecords(store.clusterItems()))
      if (!printRecord(r, opts, decodeClusterStreamRecord, log)) failed++;
  } finally {
    await store.close();
  }
  if (failed) log(`${count(failed, "record")} could not be decoded (see above)`);
  return failed ? 1 : 0;
}

async function tail(opts: TailOptions): Promise<number> {
  // Checked before anything starts: DynamoDB Local would create an empty database in the folder.
  const dataDir = existingRunFolder(opts.dataDir);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  if (hasLocalStore(dataDir)) return tailStore(dataDir, opts, log);
  // Loaded here, not at start-up: the SDK and the emulators are for this command only.
  const [
    { DescribeTableCommand, ListTablesCommand },
    { destroyClients, makeClients },
    emulators,
    { physicalNames },
    { subscribeStream },
    { decodeClusterStreamRecord },
    { isMissingTable, NotARunError },
    { TtlDeletionLog, ttlDeletionsTable },
    { topology },
  ] = await Promise.all([
    import("@aws-sdk/client-dynamodb"),
    import("../../shared/aws/clients"),
    import("../../infra/local/emulators"),
    import("../../infra/local/resources"),
    import("../../infra/local/stream-driver"),
    import("../../shared/consumer/decode-stream-record"),
    import("../../infra/local/not-a-run-error"),
    import("../../infra/local/ttl-deletions"),
    import("../../infra/topology"),
  ]);

  // A running crawl's DynamoDB Local, if it answers; else our own on the directory.
  let endpoint: string | null = null;
  const file = join(dataDir, ENDPOINTS_FILE);
  if (existsSync(file)) {
    const candidate = (JSON.parse(readFileSync(file, "utf8")) as { dynamodb?: string }).dynamodb ?? null;
    const probe = candidate ? makeClients({ dynamodb: candidate }) : null;
    try {
      if (probe) await probe.dynamo.send(new ListTablesCommand({ Limit: 1 }));
      endpoint = candidate;
    } catch {
      endpoint = null;
    } finally {
      if (probe) destroyClients(probe);
    }
  }
  const own = endpoint ? null : await emulators.startEmulators({ dynamoPath: join(dataDir, "dynamodb") });
  const clients = makeClients({ dynamodb: endpoint ?? own!.endpoints.dynamodb }, "us-east-1");
  log(endpoint ? `attached to the running crawl's DynamoDB Local at ${endpoint}` : `opened ${dataDir}`);
  let failed = 0;
  try {
    const table = physicalNames(LOCAL_PREFIX).table("clusters");
    const desc = await clients.dynamo.send(new DescribeTableCommand({ TableName: table })).catch((err) => {
      throw isMissingTable(err) ? new NotARunError(opts.dataDir, table) : err;
    });
    const arn = desc.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${table} has no stream`);
    const subscription = subscribeStream(
      clients.streams,
      arn,
      async ({ Records }) => {
        for (const r of Records) if (!printRecord(r, opts, decodeClusterStreamRecord, log)) failed++;
      },
      {
        from: opts.from === "now" ? "LATEST" : "TRIM_HORIZON",
        region: "us-east-1",
        // The run's TTL sweeps are expiries on the stream, as on AWS (infra/local/ttl-sweeper.ts).
        ttlDeletions: new TtlDeletionLog(clients, ttlDeletionsTable(LOCAL_PREFIX)).lookup(
          table,
          topology.tables.clusters,
        ),
      },
    );
    await subscription.flush();
    if (!opts.once) {
      log("following (Ctrl-C to stop) …");
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
    }
    await subscription.stop();
  } finally {
    destroyClients(clients);
    await own?.stop();
  }
  if (failed) log(`${count(failed, "record")} could not be decoded (see above)`);
  return failed ? 1 : 0;
}
