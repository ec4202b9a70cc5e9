/**
 * Faults on the local runtime, with the real handlers, SDK clients and emulators: every message
 * delivered twice, a crash of one message in a batch, DynamoDB throttling and S3 errors injected on the
 * wire (the SDK retries with backoff, then SQS, then the DLQ, with the reason on the Frontier item), and
 * a function killed mid-delivery (the next delivery records it).
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalHandler, LocalRuntime } from "../../../infra/local/runtime";
import { topology } from "../../../infra/topology";
import { articleStories } from "../../../shared/aws/fingerprint-item";
import { MAX_FETCH_ATTEMPTS } from "../../../shared/crawl/fetch-attempt";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { dynamoThrottle, type FaultProxy, s3SlowDown, startFaultProxy } from "../../support/fault-proxy";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { syntheticPage } from "../../support/synthetic-page";
import { uniquePrefix } from "../../support/unique-prefix";

const settings = {
  STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
  STORYTRAIL_MIN_HOST_DELAY_MS: "0",
  STORYTRAIL_RAW_SAMPLE_RATE: "1",
};
const html = "text/html; charset=utf-8";

/** Six stories and three copies (same page at a second URL), so that redelivery meets merges too. */
async function newsSite(extra: Record<string, string> = {}): Promise<{ site: NewsServer; paths: string[] }> {
  const site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
  const paths: string[] = [];
  for (let i = 0; i < 6; i++) {
    site.route(`/story/${i}`, send(html, syntheticPage(i)));
    paths.push(`/story/${i}`);
  }
  for (let i = 0; i < 3; i++) {
    site.route(`/copy/${i}`, send(html, syntheticPage(i)));
    paths.push(`/copy/${i}`);
  }
  for (const [p, body] of Object.entries(extra)) {
    site.route(p, send(html, body));
    paths.push(p);
  }
  site.route("/sitemap.xml", send("application/xml", urlset(paths.map((p) => site.url(p)))));
  return { site, paths };
}

const sourcesOf = (site: NewsServer) => ({
  sources: [
    { id: "f", publication: "Fault Times", homepage: site.url("/"), sitemaps: [site.url("/sitemap.xml")] },
  ],
});

/** The crawl's outcome, without what differs between any two runs (times, attempt counters). */
async function outcome(runtime: LocalRuntime) {
  const frontier = (await runtime.items("frontier"))
    .map((f) => [f.url, f.status, f.reason ?? null, f.article_id ?? null])
    .sort();
  const articles = (await runtime.items("articles"))
    .map((a) => [a.article_id, a.headline, a.body, [...(a.url_variants as string[])].sort()])
    .sort();
  const clusters = await runtime.items("clusters");
  const byCluster = new Map<string, string[]>();
  for (const [article_id, cluster_id] of articleStories(await runtime.items("fingerprints"), clusters))
    byCluster.set(cluster_id, [...(byCluster.get(cluster_id) ?? []), article_id]);
  const partition = [...byCluster.values()].map((ids) => ids.sort().join(",")).sort();
  const summaries = clusters
    .filter((c) => c.record_type === "summary" && !c.merged_into)
    .map((c) => [c.canonical_article_id, c.article_count, c.outlet_count, c.first_published_at])
    .sort();
  const live = new Set(
    clusters.filter((c) => c.record_type === "summary" && !c.merged_into).map((c) => c.cluster_id),
  );
  const members = clusters.filter((c) => c.record_type === "member" && live.has(c.cluster_id)).length;
  return { frontier, articles, partition, summaries, members };
}

describe("faults in a local run", () => {
  it("delivering every fetch and dedup message twice leaves the state of a single delivery", async () => {
    const { site } = await newsSite();
    const twice = (make: () => LocalHandler): LocalHandler => {
      const h = make();
      return async (event, context) => {
        await h(event, context);
        return h(event, context); // the redelivery's answer is the one SQS acts on
      };
    };
    const once = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("once"),
      settings,
    });
    const double = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("twice"),
      settings,
      instrument: (fn, make) => (fn === "fetch" || fn === "dedup" ? twice(make) : make()),
    });
    try {
      for (const r of [once, double]) {
        await r.discover({ sources: sourcesOf(site), run_id: "d1" });
        await r.drain();
      }
      const a = await outcome(once);
      const b = await outcome(double);
      expect(a.partition.filter((p) => p.includes(","))).toHaveLength(3); // the three copies merged
      expect(b).toEqual(a);
      expect(await double.runCounts("d1")).toMatchObject({ claimed: 9, articles: 9, failed: 0, pending: 0 });
    } finally {
      await once.close();
      await double.close();
      await site.close();
    }
  });

  it("a message that crashes the dedup handler mid-batch is the only one retried, then dead-lettered", async () => {
    const seen = new Map<string, number>();
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("crash"),
      settings,
      concurrency: { fetch: 1, dedup: 1 },
      instrument: (fn, make) => {
        const h = make();
        if (fn !== "dedup") return h;
        return (event, context) => {
          for (const r of (event as SQSEvent).Records) seen.set(r.body, (seen.get(r.body) ?? 0) + 1);
          return h(event, context);
        };
      },
    });
    try {
      const bodies = Array.from({ length: 10 }, (_, i) =>
        JSON.stringify({
          article_id: `a${i}`,
          url: `https://example.org/${i}`,
          publication: "P",
          source_id: "s",
          headline: `Story ${i}`,
          published_at: null,
          collected_at: "2026-12-02T10:00:00.000Z",
          // The fifth message's fingerprint is not one: the handler throws on it, mid-batch.
          fingerprint: i === 4 ? { broken: true } : computeFingerprint(syntheticPage(i), `Story ${i}`),
        }),
      );
      for (const body of bodies)
        await runtime.clients.sqs.send(
          new SendMessageCommand({ QueueUrl: runtime.resources.queueUrls.dedup, MessageBody: body }),
        );
      await runtime.drain();
      const retries = topology.queues.dedup.maxReceiveCount;
      expect(bodies.map((b) => seen.get(b))).toEqual([1, 1, 1, 1, retries, 1, 1, 1, 1, 1]);
      expect(await runtime.deadLettered("dedup")).toBe(1);
      expect(
        (await runtime.items("fingerprints")).flatMap((f) => (f.fingerprint ? [f.article_id] : [])).sort(),
      ).toEqual(["a0", "a1", "a2", "a3", "a5", "a6", "a7", "a8", "a9"]);
    } finally {
      await runtime.close();
    }
  });

  describe("storage faults and a killed function", () => {
    let site: NewsServer;
    let dynamo: FaultProxy;
    let s3: FaultProxy;
    let runtime: LocalRuntime;
    const background: Promise<unknown>[] = [];

    beforeAll(async () => {
      ({ site } = await newsSite({
        "/throttled": syntheticPage(100),
        "/slowdown": syntheticPage(101),
      }));
      // A page that does not answer: the function "dies" (its time or memory) while waiting for it. The
      // connection drops 3 s on, after the kill (1.5 s), so the abandoned request ends then and frees the
      // host, rather than at fetch's 30 s deadline: three killed attempts took 80 s of the suite that way.
      site.route("/doomed", (_req, res) => {
        setTimeout(() => res.destroy(), 3_000);
      });
      site.route(
        "/sitemap.xml",
        send(
          "application/xml",
          urlset(["/story/0", "/story/1", "/throttled", "/slowdown", "/doomed"].map((p) => site.url(p))),
        ),
      );
      const endpoints = inject("endpoints");
      const prefix = uniquePrefix("storage");
      const throttledId = articleIdFor(site.url("/throttled"));
      dynamo = await startFaultProxy(endpoints.dynamodb, (r) =>
        r.target.endsWith(".UpdateItem") &&
        r.body.includes(`${prefix}articles`) &&
        r.body.includes(throttledId)
          ? dynamoThrottle
          : null,
      );
      const slowId = articleIdFor(site.url("/slowdown"));
      s3 = await startFaultProxy(endpoints.s3, (r) =>
        r.method === "PUT" && r.path.includes(slowId) ? s3SlowDown : null,
      );
      runtime = await LocalRuntime.start({
        endpoints: { ...endpoints, dynamodb: dynamo.endpoint, s3: s3.endpoint },
        prefix,
        settings,
        instrument: (fn, make) => {
          const h = make();
          if (fn !== "fetch") return h;
          return async (event, context) => {
            const records = (event as SQSEvent).Records;
            const doomed = records.filter((r) => r.body.includes("/doomed"));
            if (doomed.length === 0) return h(event, context);
            // The doomed page's own invocation is killed after 1.5 s: abandoned (what Lambda does at its
            // timeout) and running on in the background; one that answers sooner (it gave up on the
            // page, or put it back) is not killed. The batch's other pages are handled as usual.
            const rest = records.filter((r) => !r.body.includes("/doomed"));
            const others = rest.length > 0 ? h({ ...(event as SQSEvent), Records: rest }, context) : null;
            const run = h({ ...(event as SQSEvent), Records: doomed }, context) as Promise<Answer>;
            background.push(run.catch(() => {}));
            const ids = doomed.map((r) => ({ itemIdentifier: r.messageId }));
            type Answer = { batchItemFailures: { itemIdentifier: string }[]; visibilitySet?: string[] };
            const own: Answer = await Promise.race([
              run,
              new Promise<{ batchItemFailures: typeof ids; visibilitySet: string[] }>((ok) =>
                setTimeout(() => ok({ batchItemFailures: ids, visibilitySet: [] }), 1_500),
              ),
            ]).catch(() => ({ batchItemFailures: ids, visibilitySet: [] }));
            const more: Answer = ((await others) as Answer | null) ?? { batchItemFailures: [] };
            return {
              batchItemFailures: [...own.batchItemFailures, ...more.batchItemFailures],
              visibilitySet: [...(own.visibilitySet ?? []), ...(more.visibilitySet ?? [])],
            };
          };
        },
      });
      await runtime.discover({ sources: sourcesOf(site), run_id: "s1" });
      await runtime.drain();
    });

    afterAll(async () => {
      await runtime?.close();
      await site?.close();
      await dynamo?.close();
      await s3?.close();
    });

    const frontierOf = async (path: string) =>
      (await runtime.items("frontier")).find((f) => f.url === site.url(path));

    it("DynamoDB throttling: retried by the SDK with backoff and by SQS, then the DLQ, with storage_error on the Frontier item", async () => {
      const item = await frontierOf("/throttled");
      expect(item).toMatchObject({ status: "failed", reason: "storage_error" });
      expect(String(item?.detail)).toContain("ProvisionedThroughputExceeded");
      // Each attempt (fetch gives up after MAX_FETCH_ATTEMPTS) made several SDK attempts, with backoff between.
      const deliveries = MAX_FETCH_ATTEMPTS;
      expect(dynamo.injected.length % deliveries).toBe(0);
      expect(dynamo.injected.length / deliveries).toBeGreaterThan(1);
    });

    it("S3 errors: the same path, with the S3 error named", async () => {
      const item = await frontierOf("/slowdown");
      expect(item).toMatchObject({ status: "failed", reason: "storage_error" });
      expect(String(item?.detail)).toMatch(/SlowDown|reduce your request rate/);
      const deliveries = MAX_FETCH_ATTEMPTS;
      expect(s3.injected.length % deliveries).toBe(0);
      expect(s3.injected.length / deliveries).toBeGreaterThan(1);
    });

    it("a killed function: the next delivery records it, and the message ends in the DLQ with reason killed", async () => {
      // Three killed attempts, each recorded by the delivery after it (put back while the killed
      // request still held the host, or fetched), which then gives up; the abandoned invocations that
      // ran on (and timed out on the page) changed nothing (stale deliveries).
      const item = await frontierOf("/doomed");
      expect(item).toMatchObject({ status: "failed", reason: "killed", attempts: MAX_FETCH_ATTEMPTS });
      // Deliveries count put-backs too: the last killed one is at least the third.
      expect(Number(item?.last_delivery)).toBeGreaterThanOrEqual(MAX_FETCH_ATTEMPTS);
    });

    it("the rest of the run is untouched, and the counts add up with the DLQ", async () => {
      const counts = await runtime.runCounts("s1");
      expect(counts).toMatchObject({ claimed: 5, articles: 2, failed: 3, pending: 0 });
      expect(counts.failure_reasons).toEqual({ storage_error: 2, killed: 1 });
      expect(counts.dead_lettered.fetch).toBe(3);
    });
  });
});
