/**
 * The fetch handler works a batch's hosts concurrently and each host's pages in order: the real
 * handler, loopback publishers on two loopback addresses (two hosts, two FIFO groups), DynamoDB Local,
 * fauxqs and the local S3 emulator. Pacing is unchanged (the Hosts table still spaces one host's pages
 * by the host delay) while another host's pages proceed in the same invocation, and a failed page fails
 * the rest of its own host's pages only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import { createFetchHandler } from "../../lambdas/fetch";
import { observeClients } from "../../shared/aws/client-config";
import { PARKED_REASON_ATTRIBUTE } from "../../shared/aws/dead-letter-sender";
import { makeDynamoClients } from "../../shared/aws/dynamo-clients";
import { FrontierTable } from "../../shared/aws/frontier-table";
import { resource } from "../../shared/aws/function-env";
import {
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  SOURCE_PROPERTY,
} from "../../shared/config/metrics";
import { MAX_FETCH_ATTEMPTS } from "../../shared/crawl/fetch-attempt";
import { hostOf } from "../../shared/url/canonical-url";
import { syntheticPage } from "../support/synthetic-page";
import { uniquePrefix } from "../support/unique-prefix";

const HOST_DELAY_MS = 500;
/** What each publisher takes to answer a page. */
const LATENCY_MS = 250;

interface Publisher {
  base: string;
  /** When each page's GET arrived (performance.now), by path. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A publisher on one loopback address: robots.txt allows all; `/fail*` answers 503, `/gone*` 404,
 * `/nohead*` a page without a headline; pages answer after LATENCY_MS.
 */
async function publisher(address: string, first: number): Promise<Publisher> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("User-agent: *\nAllow: /\n");
      return;
    }
    arrivals.set(path, performance.now());
    setTimeout(() => {
      if (path.startsWith("/fail") || path.startsWith("/gone")) {
        res.writeHead(path.startsWith("/fail") ? 503 : 404, { "content-type": "text/plain" });
        res.end("busy");
        return;
      }
      const page = syntheticPage(first + Number(path.replace(/\D/g, "") || 0));
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(path.startsWith("/nohead") ? page.replace(/<title>.*?<\/title>|<h1>.*?<\/h1>/g, "") : page);
    }, LATENCY_MS);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${address}:${port}`,
    arrivals,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The part of an EMF document (one metrics line) that says what it holds. */
interface Emf {
  CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
}

/** An SQS FIFO record for a page, grouped by host as discover sends it (shared/aws/queue-sender.ts). */
function record(url: string, delivery = 1, sourceId = "src"): SQSRecord {
  const id = `m-${url}`;
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: JSON.stringify({
      url,
      source_id: sourceId,
      publication: "Example",
      discovered_from: "test",
      run_id: "run-1",
    }),
    attributes: {
      ApproximateReceiveCount: String(delivery),
      SentTimestamp: "0",
      SenderId: "test",
      ApproximateFirstReceiveTimestamp: "0",
      MessageGroupId: hostOf(url),
      MessageDeduplicationId: id,
      SequenceNumber: "1",
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:fetch.fifo",
    awsRegion: "us-east-1",
  };
}

describe("fetch handler: a batch's hosts concurrently", () => {
  let runtime: LocalRuntime;
  let hosts: Publisher[];
  let handler: ReturnType<typeof createFetchHandler>;
  const invoke = (...urls: string[]) =>
    handler({ Records: urls.map((u) => record(u)) } satisfies SQSEvent, runtime.context("fetch"));
  const settle = () => new Promise((r) => setTimeout(r, HOST_DELAY_MS)); // every host's slot free again

  beforeAll(async () => {
    // Three hosts (three FIFO groups, three pacing keys): loopback addresses, not ports, tell them apart.
    hosts = await Promise.all(["127.0.0.1", "127.0.0.2", "127.0.0.3"].map((ip, i) => publisher(ip, i * 100)));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("fetchgroups"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: String(HOST_DELAY_MS),
        STORYTRAIL_RAW_SAMPLE_RATE: "0",
      },
    });
    handler = createFetchHandler(runtime.env("fetch"));
    // A warm container (clients connected, robots.txt cached, extraction loaded), as a crawl's are.
    await invoke(...hosts.map((h) => `${h.base}/p0`));
    await settle();
  });

  afterAll(async () => {
    await runtime?.close();
    await Promise.all(hosts?.map((h) => h.close()) ?? []);
  });

  it("spaces one host's pages by the host delay while the other hosts' pages proceed", async () => {
    const [a, b, c] = hosts as [Publisher, Publisher, Publisher];
    // Today's behaviour for comparison: the same work one page per invocation, one after another.
    let t0 = performance.now();
    for (const url of [a, b, c, a, b, c].map((h, i) => `${h.base}/p${i < 3 ? 1 : 2}`)) {
      expect((await invoke(url)).batchItemFailures).toEqual([]);
    }
    const serialMs = performance.now() - t0;
    await settle();

    t0 = performance.now();
    const out = await invoke(...[a, b, c, a, b, c].map((h, i) => `${h.base}/p${i < 3 ? 3 : 4}`));
    const concurrentMs = performance.now() - t0;
    expect(out.batchItemFailures).toEqual([]);
    for (const h of hosts) {
      // Pacing unchanged: a host's second page at least the host delay after its first, in order.
      expect(h.arrivals.get("/p4")! - h.arrivals.get("/p3")!).toBeGreaterThanOrEqual(HOST_DELAY_MS - 20);
    }
    // The hosts' first pages were in flight together (one after another they would start ≥ 250 ms apart).
    const firsts = hosts.map((h) => h.arrivals.get("/p3")!);
    expect(Math.max(...firsts) - Math.min(...firsts)).toBeLessThan(LATENCY_MS);
    // The invocation takes about one host's two pages, not six pages' worth.
    expect(concurrentMs).toBeLessThan(0.7 * serialMs);
    const stored = new Set((await runtime.items("articles")).map((x) => x.url as string));
    for (const h of hosts) for (const p of ["/p3", "/p4"]) expect(stored).toContain(`${h.base}${p}`);
  });

  it("reads the Hosts table once for a batch of one host's pages: each page's end holds the next one's slot", async () => {
    const [, b] = hosts as [Publisher, Publisher, Publisher];
    const hostsTable = resource.table(runtime.env("fetch"), "hosts");
    const calls: string[] = [];
    // A fresh container whose DynamoDB calls are counted as they go out.
    const unobserve = observeClients((c) =>
      c.dynamo?.middlewareStack.add(
        (next, context) => async (args) => {
          if ((args.input as { TableName?: string }).TableName === hostsTable)
            calls.push(String(context.commandName).replace(/Command$/, ""));
          return next(args);
        },
        { step: "initialize", name: "countHostsCalls" },
      ),
    );
    const fresh = createFetchHandler(runtime.env("fetch"));
    unobserve();
    await settle();
    const pages = [5, 6, 7, 8].map((n) => `/p${n}`);
    const out = await fresh({ Records: pages.map((p) => record(`${b.base}${p}`)) }, runtime.context("fetch"));
    expect(out.batchItemFailures).toEqual([]);
    for (let i = 1; i < pages.length; i++)
      expect(b.arrivals.get(pages[i]!)! - b.arrivals.get(pages[i - 1]!)!).toBeGreaterThanOrEqual(
        HOST_DELAY_MS + LATENCY_MS - 20,
      );
    // robots.txt and 4 pages: one reservation (read + put), one write as each request ends; the old
    // pacing read and wrote twice per request (5 reads, 10 writes).
    expect(calls.filter((c) => c === "GetItem")).toHaveLength(1);
    expect(calls.filter((c) => c !== "GetItem")).toHaveLength(6);
  });

  it("fails the rest of a failed host's pages only, and the other hosts' pages are stored", async () => {
    const [a, b] = hosts as [Publisher, Publisher];
    // Discovered, as discover claims them (the Frontier item a skip is noted on).
    const env = runtime.env("fetch");
    const frontier = new FrontierTable(
      makeDynamoClients(inject("endpoints")).doc,
      resource.table(env, "frontier"),
    );
    const now = new Date().toISOString();
    for (const url of [`${a.base}/fail6`, `${a.base}/p7`])
      await frontier.claim({ url, source_id: "src", run_id: "run-1", lastmod: null, now });
    await settle();
    // Host a: a page, a page that fails (503), and one after it. Host b: two pages.
    const out = await invoke(
      `${a.base}/p5`,
      `${b.base}/p5`,
      `${a.base}/fail6`,
      `${a.base}/p7`,
      `${b.base}/p6`,
    );
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([
      `m-${a.base}/fail6`,
      `m-${a.base}/p7`,
    ]);
    expect(a.arrivals.has("/p7")).toBe(false); // skipped: it stays in the queue behind the failed page
    const status = new Map(
      (await runtime.items("frontier")).map((f) => [f.url as string, f.status as string]),
    );
    expect(status.get(`${a.base}/p5`)).toBe("fetched");
    expect(status.get(`${a.base}/fail6`)).toBe("failed");
    expect(status.get(`${b.base}/p5`)).toBe("fetched");
    expect(status.get(`${b.base}/p6`)).toBe("fetched");

    // The skipped page says why it is still queued, and its redelivery is its first attempt, not a
    // "killed" one (the Frontier counts attempts: a killed mark would add one).
    const skipped = (await runtime.items("frontier")).find((f) => f.url === `${a.base}/p7`);
    expect(skipped).toMatchObject({ status: "queued", skipped_delivery: 1 });
    expect(String(skipped?.skip_detail)).toContain("skipped: an earlier page of");
    await settle();
    const again = await handler({ Records: [record(`${a.base}/p7`, 2)] }, runtime.context("fetch"));
    expect(again.batchItemFailures).toEqual([]);
    const done = (await runtime.items("frontier")).find((f) => f.url === `${a.base}/p7`);
    expect(done).toMatchObject({ status: "fetched", attempts: 1 });
  });

  it("gives up on a page at its last attempt and parks it in the DLQ; the pages behind it are fetched, not dead-lettered", async () => {
    const [a] = hosts as [Publisher];
    const env = runtime.env("fetch");
    const frontier = new FrontierTable(
      makeDynamoClients(inject("endpoints")).doc,
      resource.table(env, "frontier"),
    );
    const now = new Date().toISOString();
    const urls = [`${a.base}/fail8`, `${a.base}/p9`, `${a.base}/p10`];
    for (const url of urls)
      await frontier.claim({ url, source_id: "src", run_id: "run-1", lastmod: null, now });
    // The same batch delivered again and again, as SQS does while its first page keeps failing: before
    // the fix the later pages counted a receive each time and reached the DLQ with it, unfetched.
    for (let delivery = 1; delivery < MAX_FETCH_ATTEMPTS; delivery++) {
      await settle();
      const out = await handler({ Records: urls.map((u) => record(u, delivery)) }, runtime.context("fetch"));
      expect(out.batchItemFailures).toHaveLength(3);
    }
    expect(a.arrivals.has("/p9")).toBe(false);
    await settle();
    const last = await handler(
      { Records: urls.map((u) => record(u, MAX_FETCH_ATTEMPTS)) },
      runtime.context("fetch"),
    );
    expect(last.batchItemFailures).toEqual([]);
    const items = new Map((await runtime.items("frontier")).map((f) => [f.url as string, f]));
    expect(items.get(`${a.base}/fail8`)).toMatchObject({
      status: "failed",
      reason: "http_5xx",
      attempts: MAX_FETCH_ATTEMPTS,
    });
    // Skipped twice, then fetched at the first attempt.
    for (const u of urls.slice(1)) expect(items.get(u)).toMatchObject({ status: "fetched", attempts: 1 });
    // The given-up page is in the DLQ, once, with its body and group (a redrive restores its host's
    // order) and why it was parked.
    const dlq = await runtime.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: runtime.resources.deadLetterQueueUrls.fetch,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ["All"],
        MessageSystemAttributeNames: ["MessageGroupId"],
      }),
    );
    expect(dlq.Messages).toHaveLength(1);
    const parked = dlq.Messages![0]!;
    expect(JSON.parse(parked.Body!).url).toBe(`${a.base}/fail8`);
    expect(parked.Attributes?.MessageGroupId).toBe(hostOf(`${a.base}/fail8`));
    expect(parked.MessageAttributes?.[PARKED_REASON_ATTRIBUTE]?.StringValue).toMatch(
      /^http_5xx after 3 attempts: /,
    );
  });

  it("parks a malformed message at once, and the host's next page is fetched in the same batch", async () => {
    const [, , c] = hosts as [Publisher, Publisher, Publisher];
    await settle();
    const bad = { ...record(`${c.base}/p11`), messageId: "m-garbage", body: "{not json" };
    const out = await handler({ Records: [bad, record(`${c.base}/p12`)] }, runtime.context("fetch"));
    expect(out.batchItemFailures).toEqual([]);
    expect(c.arrivals.has("/p12")).toBe(true);
    const dlq = await runtime.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: runtime.resources.deadLetterQueueUrls.fetch,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ["All"],
        VisibilityTimeout: 0,
      }),
    );
    const bodies = (dlq.Messages ?? []).map((m) => m.Body);
    expect(bodies).toContain("{not json");
  });

  it("publishes a batch's metrics once: a document per outcome and per source, every page's value in it", async () => {
    const [a, b, c] = hosts as [Publisher, Publisher, Publisher];
    await settle();
    const bad = { ...record(`${c.base}/p17`), messageId: "m-garbage-17", body: "{not json" };
    const batch = [
      record(`${a.base}/p13`, 1, "src-a"),
      record(`${a.base}/nohead14`, 1, "src-a"),
      record(`${b.base}/p13`, 1, "src-b"),
      record(`${b.base}/p14`, 1, "src-b"),
      bad,
      record(`${c.base}/gone15`, 1, "src-c"),
      record(`${c.base}/fail16`, 1, "src-c"), // transient: its host's next page is skipped, not counted
      record(`${c.base}/p18`, 1, "src-c"),
    ];
    // Metrics are off in the suite: on for this invocation (Powertools reads it when a document is made).
    vi.stubEnv("POWERTOOLS_METRICS_DISABLED", "false");
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed.push(...String(chunk).split("\n"));
      return true;
    });
    let out: Awaited<ReturnType<typeof handler>>;
    try {
      out = await handler({ Records: batch }, runtime.context("fetch"));
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([
      `m-${c.base}/fail16`,
      `m-${c.base}/p18`,
    ]);
    const docs = printed
      .filter((l) => l.includes('"_aws":'))
      .map((l) => JSON.parse(l) as Record<string, unknown> & { _aws: Emf });
    // What CloudWatch makes of a document: each value of a metric's array is one sample.
    const samples = (dimension: string, value: string, metric: string) =>
      docs
        .filter((d) => d[dimension] === value)
        .flatMap((d) => (d[metric] === undefined ? [] : [d[metric]].flat()) as number[]);
    const stat = (xs: number[]) => ({ sum: xs.reduce((s, x) => s + x, 0), count: xs.length });

    // Per page these were 15 documents (one per outcome, two per stored article): now one per outcome
    // and one per source (the malformed message's source is "unknown").
    expect(docs).toHaveLength(4 + 4);
    for (const d of docs) {
      expect(d.service).toBe(metricService.fetch);
      const [set] = d._aws.CloudWatchMetrics;
      expect(set?.Namespace).toBe(METRICS_NAMESPACE);
      // Only the outcome is a dimension: a source is a plain property, so no custom metric per source.
      expect(set?.Dimensions).toEqual([
        OUTCOME_DIMENSION in d ? ["service", OUTCOME_DIMENSION] : ["service"],
      ]);
    }
    const outcomes = (o: string) => stat(samples(OUTCOME_DIMENSION, o, fetchMetrics.outcomes));
    expect(outcomes("article")).toEqual({ sum: 4, count: 4 });
    expect(outcomes("http_404")).toEqual({ sum: 1, count: 1 });
    expect(outcomes("http_5xx")).toEqual({ sum: 1, count: 1 });
    expect(outcomes("malformed")).toEqual({ sum: 1, count: 1 });
    // Per source, one scalar per figure (Logs Insights sums scalars): extraction and headline shares.
    const figures = (src: string) => {
      const [doc, ...more] = docs.filter((d) => d[SOURCE_PROPERTY] === src);
      expect(more).toEqual([]);
      return [fetchMetrics.pagesHandled, fetchMetrics.articlesStored, fetchMetrics.withHeadline].map(
        (m) => doc?.[m],
      );
    };
    expect(figures("src-a")).toEqual([2, 2, 1]);
    expect(figures("src-b")).toEqual([2, 2, 2]);
    expect(figures("src-c")).toEqual([2, 0, 0]);
    expect(figures("unknown")).toEqual([1, 0, 0]);
  });
});
