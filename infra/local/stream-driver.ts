/**
 * Reads a DynamoDB stream the way a Lambda stream trigger does (every shard, in order, including the
 * shards that replace closed ones) and hands each batch to a consumer as a DynamoDBStreamEvent. The
 * REMOVE records that `ttlDeletions` names (the local TTL sweep's: ttl-sweeper.ts) get the userIdentity
 * AWS gives a TTL deletion, which DynamoDB Local's own records lack.
 */
import {
  type _Record,
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { TTL_DELETION_IDENTITY } from "../../shared/consumer/ttl-deletion";

export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<void>;

export interface StreamSubscription {
  /** Polls until every open shard has returned no records, so everything written so far is delivered. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** Of a batch of stream records, the SequenceNumbers of the REMOVEs that are TTL deletions. */
export type TtlDeletionLookup = (records: readonly _Record[]) => Promise<ReadonlySet<string>>;

function toRecord(r: _Record, streamArn: string, region: string, expired: boolean): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord["eventName"],
    eventVersion: r.eventVersion,
    eventSource: "aws:dynamodb",
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: created ? Math.floor(new Date(created).getTime() / 1000) : undefined,
      Keys: d.Keys as never,
      NewImage: d.NewImage as never,
      OldImage: d.OldImage as never,
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType as never,
    },
    ...(expired ? { userIdentity: { ...TTL_DELETION_IDENTITY } } : {}),
  };
}

export function subscribeStream(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  consumer: StreamConsumer,
  opts: {
    from: "TRIM_HORIZON" | "LATEST";
    region: string;
    pollMs?: number;
    /** Which REMOVEs the local TTL sweep made (none without it). */
    ttlDeletions?: TtlDeletionLookup;
  },
): StreamSubscription {
  const iterators = new Map<string, string | null>();
  const lastSequence = new Map<string, string>();
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const discoverShards = async () => {
    const desc = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of desc.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      // Shards that appear after the subscription started are read from their start.
      const type = iterators.size === 0 ? opts.from : "TRIM_HORIZON";
      const it = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: type,
        }),
      );
      iterators.set(shard.ShardId, it.ShardIterator ?? null);
    }
  };

  const getRecords = (iterator: string) =>
    streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));

  /** One pass over all shards; returns how many records were delivered. */
  const pollOnce = async (): Promise<number> => {
    await discoverShards();
    let delivered = 0;
    for (const [shardId, iterator] of iterators) {
      if (!iterator) continue;
      let out: Awaited<ReturnType<typeof getRecords>>;
      try {
        out = await getRecords(iterator);
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name !== "TrimmedDataAccessException" && name !== "ExpiredIteratorException") throw err;
        // DynamoDB Local trims iterators taken on an empty shard: resume after what was delivered.
        const seq = lastSequence.get(shardId);
        const it = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ...(seq
              ? { ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: seq }
              : { ShardIteratorType: "TRIM_HORIZON" }),
          }),
        );
        if (!it.ShardIterator) continue;
        out = await getRecords(it.ShardIterator);
      }
      iterators.set(shardId, out.NextShardIterator ?? null);
      const records = out.Records ?? [];
      if (records.length > 0) {
        const expired = (await opts.ttlDeletions?.(records)) ?? new Set<string>();
        await consumer({
          Records: records.map((r) =>
            toRecord(r, streamArn, opts.region, expired.has(r.dynamodb?.SequenceNumber ?? "")),
          ),
        });
        delivered += records.length;
        const seq = records[records.length - 1]?.dynamodb?.SequenceNumber;
        if (seq) lastSequence.set(shardId, seq);
      }
    }
    return delivered;
  };

  // Serialise polls so that flush() and the background loop never read one iterator twice.
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };

  const ready = serial(discoverShards);
  const loop = (async () => {
    await ready;
    while (!stopped) {
      await serial(pollOnce).catch(() => 0);
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 200));
    }
  })();

  return {
    flush: async () => {
      await ready;
      while ((await serial(pollOnce)) > 0) {}
    },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
