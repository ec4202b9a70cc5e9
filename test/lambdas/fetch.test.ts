/**
 * A page never waits for its host in the fetch function: the real handler, loopback publishers on six
 * loopback addresses (six hosts), DynamoDB Local, fauxqs and the local S3 emulator. A page whose host is
 * due is fetched at once; one whose host is not goes back to the queue until the slot the Hosts table
 * reserved for it, and is fetched then, at least the host delay after the host's previous request ended.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
} from "@aws-sdk/client-sqs";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import { createFetchHandler } from "../../lambdas/fetch";
import { observeClients } from "../../shared/aws/client-config";
import { PARKED_REASON_ATTRIBUTE } from "../../shared/aws/dead-letter-sender";
import { makeDynamoClients } from "../../shared/aws/dynamo-clients";
import { FrontierTable } from "../../shared/aws/frontier-table";
import { resource } from "../../shared/aws/function-env";
import { HostPaceTable } from "../../shared/aws/host-pace-table";
import {
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  SOURCE_PROPERTY,
} from "../../shared/config/metrics";
import { MAX_FETCH_ATTEMPTS } from "../../shared/crawl/fetch-attempt";
import { hostOf } from "../../shared/url/canonical-url";
import { atLogLevel, logLinesOf } from "../support/log-lines";
import { sqsRecord } from "../support/sqs-record";
import { syntheticPage } from "../support/synthetic-page";
import { uniquePrefix } from "../support/unique-prefix";

const HOST_DELAY_MS = 1500;
/** The functions' clock (STORYTRAIL_NOW) where a test makes its own handler. */
const NOW = "2026-12-01T00:00:00.000Z";
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

/** An SQS record for a page (every page's host being due, nothing is put back from a batch of these). */
function record(url: string, delivery = 1, sourceId = "src"): SQSRecord {
  return sqsRecord({
    id: `m-${url}`,
    body: JSON.stringify(message(url, sourceId)),
    queue: "fetch",
    delivery,
  });
}

function message(url: string, sourceId = "src") {
  return { url, source_id: sourceId, publication: "Example", discovered_from: "test", run_id: "run-1" };
}

describe("fetch handler: a page waits for its host in the queue, not in the function", () => {
  let runtime: LocalRuntime;
  let hosts: Publisher[];
  let handler: ReturnType<typeof createFetchHandler>;
  const invoke = (...urls: string[]) =>
    handler({ Records: urls.map((u) => record(u)) } satisfies SQSEvent, runtime.context("fetch"));
  const settle = () => new Promise((r) => setTimeout(r, HOST_DELAY_MS)); // every host's slot free again

  /** Claims the pages on the Frontier, as discovery does before it enqueues them. */
  const discovered = async (...urls: string[]) => {
    const frontier = new FrontierTable(
      makeDynamoClients(inject("endpoints")).doc,
      resource.table(runtime.env("fetch"), "frontier"),
    );
    const now = new Date().toISOString();
    for (const url of urls)
      await frontier.claim({ url, source_id: "src", run_id: "run-1", lastmod: null, now });
  };
  /** Sends the pages to the fetch queue and receives them as one batch (real receipt handles). */
  const queued = (...urls: string[]): Promise<SQSRecord[]> => queuedBodies(...urls.map((u) => message(u)));
  const queuedBodies = async (...bodies: object[]): Promise<SQSRecord[]> => {
    const queueUrl = runtime.resources.queueUrls.fetch;
    await runtime.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: bodies.map((b, i) => ({ Id: String(i), MessageBody: JSON.stringify(b) })),
      }),
    );
    return receive(bodies.length, 0);
  };
  /** Receives `n` messages of the fetch queue, waiting up to `waitSeconds` for them. */
  const receive = async (n: number, waitSeconds: number): Promise<SQSRecord[]> => {
    const queueUrl = runtime.resources.queueUrls.fetch;
    const got: SQSRecord[] = [];
    const until = Date.now() + waitSeconds * 1000 + 2000;
    while (got.length < n && Date.now() < until) {
      const out = await runtime.clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: n - got.length,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 60,
          MessageSystemAttributeNames: ["All"],
        }),
      );
      for (const m of out.Messages ?? []) {
        const r = record(JSON.parse(m.Body ?? "{}").url, Number(m.Attributes?.ApproximateReceiveCount ?? 1));
        got.push({
          ...r,
          attributes: {
            ...r.attributes,
            ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? "0",
          },
          messageId: m.MessageId ?? "",
          receiptHandle: m.ReceiptHandle ?? "",
          body: m.Body ?? "",
        });
      }
    }
    return got;
  };

  beforeAll(async () => {
    // Six hosts (six pacing keys): loopback addresses, not ports, tell them apart.
    hosts = await Promise.all(
      [
        "127.0.0.1",
        "127.0.0.2",
        "127.0.0.3",
        "127.0.0.4",
        "127.0.0.5",
        "127.0.0.6",
        "127.0.0.7",
        "127.0.0.8",
      ].map((ip, i) => publisher(ip, i * 100)),
    );
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("fetchpace"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: String(HOST_DELAY_MS),
        STORYTRAIL_RAW_SAMPLE_RATE: "0",
      },
    });
    handler = createFetchHandler(runtime.env("fetch"));
    // A warm container (clients connected, robots.txt cached, extraction loaded), as a crawl's are.
    await invoke(...hosts.slice(0, 6).map((h) => `${h.base}/p0`));
    await settle();
  });

  afterAll(async () => {
    await runtime?.close();
    await Promise.all(hosts?.map((h) => h.close()) ?? []);
  });

  it("fetches each due host's page at once and puts a page whose host is not due back until its slot, which it is fetched at", async () => {
    const [a, b] = hosts as [Publisher, Publisher];
    await discovered(`${a.base}/p2`);
    const batch = await queued(`${a.base}/p1`, `${a.base}/p2`, `${b.base}/p1`);
    expect(batch).toHaveLength(3);
    const t0 = performance.now();
    const first = await handler({ Records: batch }, runtime.context("fetch"));
    const returnedAt = performance.now();
    const p2 = batch.find((r) => r.body.includes("/p2"))!;
    // a's second page went back to the queue, counted as a failure and set aside for its slot.
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: p2.messageId }]);
    expect(first.visibilitySet).toEqual([p2.messageId]);
    expect(a.arrivals.has("/p2")).toBe(false);
    expect(a.arrivals.has("/p1") && b.arrivals.has("/p1")).toBe(true);
    // The function paid for one page's answer, not for a's delay after it: it returned before a was due
    // again (its first request's end + the delay), which a function that waited for a could not.
    expect(returnedAt).toBeLessThan(a.arrivals.get("/p1")! + LATENCY_MS + HOST_DELAY_MS);
    // Its Frontier item notes the put-back, so the next delivery is not taken for a killed one.
    const noted = (await runtime.items("frontier")).find((f) => f.url === `${a.base}/p2`);
    expect(noted).toMatchObject({ skipped_delivery: 1 });
    expect(String(noted?.skip_detail)).toContain("put back");

    // It comes back at its slot (a's first request's start + a whole-second spacing), not before.
    const hostItem = (await runtime.items("hosts")).find((h) => h.host === hostOf(a.base));
    expect(hostItem?.scheduled_until).toBeGreaterThan(Date.now());
    const [back] = await receive(1, 4);
    const backAt = performance.now();
    expect(back?.messageId).toBe(p2.messageId);
    expect(back?.attributes.ApproximateReceiveCount).toBe("2");
    expect(backAt - t0).toBeGreaterThanOrEqual(HOST_DELAY_MS);
    const second = await handler({ Records: [back!] }, runtime.context("fetch"));
    expect(second.batchItemFailures).toEqual([]);
    // Politeness: a's second request starts at least the host delay after the first one ended.
    expect(a.arrivals.get("/p2")! - (a.arrivals.get("/p1")! + LATENCY_MS)).toBeGreaterThanOrEqual(
      HOST_DELAY_MS - 20,
    );
    const done = (await runtime.items("frontier")).find((f) => f.url === `${a.base}/p2`);
    expect(done).toMatchObject({ status: "fetched", attempts: 1 });
  });

  it("returns within the bound when no host of the batch is due: nothing is requested, every page put back", async () => {
    const [, , c] = hosts as [Publisher, Publisher, Publisher];
    await settle();
    await discovered(`${c.base}/p4`, `${c.base}/p5`);
    // c is taken by a request in flight in another container (its answer takes LATENCY_MS).
    const other = createFetchHandler(runtime.env("fetch"));
    const inFlight = other({ Records: [record(`${c.base}/p3`)] }, runtime.context("fetch"));
    while (!c.arrivals.has("/p3")) await new Promise((r) => setTimeout(r, 5));
    const batch = await queued(`${c.base}/p4`, `${c.base}/p5`);
    const out = await handler({ Records: batch }, runtime.context("fetch"));
    const returnedAt = performance.now();
    await inFlight;
    expect(out.batchItemFailures).toHaveLength(2);
    expect(out.visibilitySet).toHaveLength(2);
    expect(c.arrivals.has("/p4") || c.arrivals.has("/p5")).toBe(false);
    // Table and queue calls only, no wait for the host: the handler returned before c was due (the request
    // in flight's end + the delay), which a function that waited for c could not (a bound from the design,
    // not from the machine's speed: the calls take tens of ms, the margin is over a second).
    expect(returnedAt).toBeLessThan(c.arrivals.get("/p3")! + LATENCY_MS + HOST_DELAY_MS);
    // Their slots are whole seconds apart, each after the request in flight: each is fetched as it
    // comes back.
    for (let i = 0; i < 2; i++) {
      const back = await receive(1, 4);
      expect(back).toHaveLength(1);
      expect((await handler({ Records: back }, runtime.context("fetch"))).batchItemFailures).toEqual([]);
    }
    const starts = ["/p3", "/p4", "/p5"].map((p) => c.arrivals.get(p)!).sort((x, y) => x - y);
    for (let i = 1; i < starts.length; i++)
      expect(starts[i]! - (starts[i - 1]! + LATENCY_MS)).toBeGreaterThanOrEqual(HOST_DELAY_MS - 20);
  });

  it("admits a batch's pages of one host with one read and one write; each page's request ends with one write", async () => {
    const [, , , d] = hosts as [Publisher, Publisher, Publisher, Publisher];
    const hostsTable = resource.table(runtime.env("fetch"), "hosts");
    const calls: string[] = [];
    // A fresh container whose DynamoDB calls are counted as they go out.
    const unobserve = observeClients((cl) =>
      cl.dynamo?.middlewareStack.add(
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
    const batch = await queued(`${d.base}/p6`, `${d.base}/p7`, `${d.base}/p8`);
    expect(batch).toHaveLength(3);
    const out = await fresh({ Records: batch }, runtime.context("fetch"));
    expect(out.batchItemFailures).toHaveLength(2);
    // robots.txt (a fresh container's) and one page: robots.txt takes the admitted slot, the page waits
    // for its own (the one wait left in the function: robots.txt once per host and container).
    expect(d.arrivals.has("/p6")).toBe(true);
    expect(calls.filter((c) => c === "GetItem")).toHaveLength(2);
    expect(calls.filter((c) => c !== "GetItem")).toHaveLength(4);
    const item = (await runtime.items("hosts")).find((h) => h.host === hostOf(d.base));
    // Two pages reserved: the schedule ends two spacings past the next slot.
    expect(item).toMatchObject({ interval_ms: HOST_DELAY_MS });
    expect(Number(item?.spacing_ms) % 1000).toBe(0);
  });

  it("delivers a page discovered with a slot at it: come early, it is sent again delayed to its slot (not put back: nothing stays in flight) with no table call, and is fetched there as its first attempt", async () => {
    const g = hosts[6] as Publisher;
    const env = runtime.env("fetch");
    const doc = makeDynamoClients(inject("endpoints")).doc;
    const hostsTable = resource.table(env, "hosts");
    const frontierTable = resource.table(env, "frontier");
    // Discovery reserved three slots of g (page-slots.ts); this page holds the third. Its delay could not
    // reach it (SQS's 15-minute cap), so it is delivered before it.
    const slots = await new HostPaceTable(doc, hostsTable, { minDelayMs: HOST_DELAY_MS }).reserve(
      hostOf(g.base),
      3,
      {},
    );
    expect(slots).toHaveLength(3);
    for (let i = 1; i < 3; i++) {
      expect(slots[i]! - slots[i - 1]!).toBeGreaterThanOrEqual(HOST_DELAY_MS);
      expect((slots[i]! - slots[0]!) % 1000).toBe(0);
    }
    const url = `${g.base}/p20`;
    await discovered(url);
    const [early] = await queuedBodies({ ...message(url), slot_at: slots[2] });
    const calls: string[] = [];
    const unobserve = observeClients((cl) =>
      cl.dynamo?.middlewareStack.add(
        (next, context) => async (args) => {
          const table = (args.input as { TableName?: string }).TableName;
          if (table === hostsTable || table === frontierTable)
            calls.push(`${table === hostsTable ? "hosts" : "frontier"}:${context.commandName}`);
          return next(args);
        },
        { step: "initialize", name: "countPacingCalls" },
      ),
    );
    const fresh = createFetchHandler(env);
    unobserve();
    const out = await fresh({ Records: [early!] }, runtime.context("fetch"));
    // Done with (the event source deletes it): a copy was sent, delayed to the slot.
    expect(out.batchItemFailures).toEqual([]);
    expect(out.visibilitySet).toEqual([]);
    expect(g.arrivals.has("/p20")).toBe(false);
    // No admission, no note: the slot is the message's own.
    expect(calls).toEqual([]);
    // Earlier tests' pages come back too: the copy of this one is the one wanted.
    let back: SQSRecord | undefined;
    while (!back) {
      const got = await receive(1, Math.ceil((slots[2]! - Date.now()) / 1000) + 2);
      expect(got).toHaveLength(1);
      if (got[0]?.messageId !== early!.messageId && JSON.parse(got[0]!.body).url === url) back = got[0];
    }
    expect(Date.now()).toBeGreaterThanOrEqual(slots[2]!);
    expect(JSON.parse(back.body)).toMatchObject({ url, slot_at: slots[2] });
    expect(back.attributes.ApproximateReceiveCount).toBe("1");
    // At its slot it takes the host though g's schedule runs on past it (it holds its slot).
    const second = await fresh({ Records: [back] }, runtime.context("fetch"));
    expect(second.batchItemFailures).toEqual([]);
    expect(g.arrivals.has("/p20")).toBe(true);
    // The early delivery was no attempt: the page is fetched at its first.
    const item = (await runtime.items("frontier")).find((f) => f.url === url);
    expect(item).toMatchObject({ status: "fetched", attempts: 1 });
  });

  it("sends a page whose host is booked more than a minute ahead again, delayed towards its slot: nothing held in flight for long", async () => {
    const h = hosts[7] as Publisher;
    const env = runtime.env("fetch");
    const doc = makeDynamoClients(inject("endpoints")).doc;
    // Discovery booked h's next 40 slots (2 s apart at a 1.5 s delay: 80 s ahead); this page is fresh.
    await new HostPaceTable(doc, resource.table(env, "hosts"), { minDelayMs: HOST_DELAY_MS }).reserve(
      hostOf(h.base),
      40,
      {},
    );
    const url = `${h.base}/p30`;
    await discovered(url);
    const delayed = async () =>
      Number(
        (
          await runtime.clients.sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: runtime.resources.queueUrls.fetch,
              AttributeNames: ["ApproximateNumberOfMessagesDelayed"],
            }),
          )
        ).Attributes?.ApproximateNumberOfMessagesDelayed,
      );
    const delayedBefore = await delayed();
    const [fresh] = await queued(url);
    const atInfo = atLogLevel("INFO", () => createFetchHandler(env));
    const { result: out, lines } = await logLinesOf(() =>
      atInfo({ Records: [fresh!] }, runtime.context("fetch")),
    );
    // Done with (the event source deletes it): a copy waits as a delayed message, not in flight.
    expect(out.batchItemFailures).toEqual([]);
    expect(out.visibilitySet).toEqual([]);
    expect(h.arrivals.has("/p30")).toBe(false);
    expect(await delayed()).toBe(delayedBefore + 1);
    expect(lines.find((l) => l.message === "fetch batch")).toMatchObject({ put_back: 0, sent_again: 1 });
    // Its Frontier item notes when its host is due: past the booked slots.
    const noted = (await runtime.items("frontier")).find((f) => f.url === url);
    const due = Date.parse(String(noted?.skip_detail).replace(/.*due at /, ""));
    expect(due - Date.now()).toBeGreaterThan(60_000);
  });

  it("fails a failed page only: the other hosts' pages in its batch are stored", async () => {
    const [a, b, , , e] = hosts as [Publisher, Publisher, Publisher, Publisher, Publisher];
    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS)); // a's reserved slots passed
    const out = await invoke(`${a.base}/p5`, `${b.base}/p5`, `${e.base}/fail6`);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([`m-${e.base}/fail6`]);
    const status = new Map(
      (await runtime.items("frontier")).map((f) => [f.url as string, f.status as string]),
    );
    expect(status.get(`${a.base}/p5`)).toBe("fetched");
    expect(status.get(`${b.base}/p5`)).toBe("fetched");
    expect(status.get(`${e.base}/fail6`)).toBe("failed");
  });

  it("sends a batch's articles to dedup in one request, and records each page fetched once its message is sent", async () => {
    const [a, b, , , e] = hosts as [Publisher, Publisher, Publisher, Publisher, Publisher];
    const dedupUrl = runtime.resources.queueUrls.dedup;
    const sends: number[] = [];
    const order: string[] = [];
    const unobserve = observeClients((cl) => {
      cl.sqs?.middlewareStack.add(
        (next) => async (args) => {
          const input = args.input as { QueueUrl?: string; Entries?: unknown[] };
          if (input.QueueUrl === dedupUrl) {
            sends.push(input.Entries?.length ?? 0);
            order.push("dedup");
          }
          return next(args);
        },
        { step: "initialize", name: "countDedupSends" },
      );
      cl.dynamo?.middlewareStack.add(
        (next) => async (args) => {
          // The Frontier write of a fetched page's outcome (the status "fetched" among its values).
          if (JSON.stringify(args.input).includes('"fetched"')) order.push("fetched");
          return next(args);
        },
        { step: "initialize", name: "orderOutcomes" },
      );
    });
    const fresh = createFetchHandler(runtime.env("fetch"));
    unobserve();
    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS)); // every host's reserved slots passed
    const urls = [`${a.base}/p9`, `${b.base}/p9`, `${e.base}/p9`];
    const out = await fresh({ Records: urls.map((u) => record(u)) }, runtime.context("fetch"));
    expect(out.batchItemFailures).toEqual([]);
    expect(sends).toEqual([3]);
    // Every page's outcome after the one send: none says fetched while its message could still be lost.
    expect(order).toEqual(["dedup", "fetched", "fetched", "fetched"]);
    const status = new Map(
      (await runtime.items("frontier")).map((f) => [f.url as string, f.status as string]),
    );
    for (const u of urls) expect(status.get(u)).toBe("fetched");
  });

  it("records storage_error on each page whose article could not be sent to dedup, and lets it come again", async () => {
    const [a, b] = hosts as [Publisher, Publisher];
    const env = runtime.env("fetch");
    const dedupName = Object.keys(env).find((k) => env[k] === runtime.resources.queueUrls.dedup) as string;
    // A dedup queue that does not exist: SQS refuses every send.
    const broken = createFetchHandler({
      ...env,
      [dedupName]: `${runtime.resources.queueUrls.dedup}-missing`,
    });
    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS));
    const urls = [`${a.base}/p10`, `${b.base}/p10`];
    const out = await broken({ Records: urls.map((u) => record(u)) }, runtime.context("fetch"));
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      urls.map((u) => `m-${u}`).sort(),
    );
    const items = new Map((await runtime.items("frontier")).map((x) => [x.url as string, x]));
    for (const u of urls)
      expect(items.get(u)).toMatchObject({ status: "failed", reason: "storage_error", attempts: 1 });
    // The articles themselves were stored: the next delivery re-fetches and sends them.
    const stored = await runtime.items("articles");
    expect(stored.filter((x) => urls.includes(String(x.url)))).toHaveLength(2);
  });

  it("gives up on a page at its last attempt and parks it in the DLQ, with why", async () => {
    const [, , , , , f] = hosts as [Publisher, Publisher, Publisher, Publisher, Publisher, Publisher];
    const env = runtime.env("fetch");
    const frontier = new FrontierTable(
      makeDynamoClients(inject("endpoints")).doc,
      resource.table(env, "frontier"),
    );
    const url = `${f.base}/fail8`;
    await frontier.claim({
      url,
      source_id: "src",
      run_id: "run-1",
      lastmod: null,
      now: new Date().toISOString(),
    });
    for (let delivery = 1; delivery < MAX_FETCH_ATTEMPTS; delivery++) {
      await settle();
      const out = await handler({ Records: [record(url, delivery)] }, runtime.context("fetch"));
      expect(out.batchItemFailures).toHaveLength(1);
    }
    await settle();
    const last = await handler({ Records: [record(url, MAX_FETCH_ATTEMPTS)] }, runtime.context("fetch"));
    expect(last.batchItemFailures).toEqual([]);
    const items = new Map((await runtime.items("frontier")).map((x) => [x.url as string, x]));
    expect(items.get(url)).toMatchObject({
      status: "failed",
      reason: "http_5xx",
      attempts: MAX_FETCH_ATTEMPTS,
    });
    // The given-up page is in the DLQ, once, with its body and why it was parked.
    const dlq = await runtime.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: runtime.resources.deadLetterQueueUrls.fetch,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ["All"],
      }),
    );
    expect(dlq.Messages).toHaveLength(1);
    const parked = dlq.Messages![0]!;
    expect(JSON.parse(parked.Body!).url).toBe(url);
    expect(parked.MessageAttributes?.[PARKED_REASON_ATTRIBUTE]?.StringValue).toMatch(
      /^http_5xx after 3 attempts: /,
    );
  });

  it("parks a malformed message at once, and the batch's page is fetched", async () => {
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
    const [a, b, c, d, e, f] = hosts as [Publisher, Publisher, Publisher, Publisher, Publisher, Publisher];
    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS)); // every reserved slot passed
    const bad = { ...record(`${c.base}/p17`), messageId: "m-garbage-17", body: "{not json" };
    // One page per host: every host is due, nothing is put back.
    const batch = [
      record(`${a.base}/p13`, 1, "src-a"),
      record(`${d.base}/nohead14`, 1, "src-a"),
      record(`${b.base}/p13`, 1, "src-b"),
      record(`${e.base}/p14`, 1, "src-b"),
      bad,
      record(`${c.base}/gone15`, 1, "src-c"),
      record(`${f.base}/fail16`, 1, "src-c"), // transient: counted, and failed for a retry
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
    expect(out.batchItemFailures.map((x) => x.itemIdentifier)).toEqual([`m-${f.base}/fail16`]);
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
  it("logs a batch in one INFO line, its pages by outcome; a page's own line only at DEBUG, a failure's as before", async () => {
    const [a, b, c, d, e, f] = hosts as [Publisher, Publisher, Publisher, Publisher, Publisher, Publisher];
    // One page per host (every host due, nothing put back): three articles, a 404 (a recorded failure),
    // a 503 (transient: delivered again) and a malformed message (parked).
    const batch = (n: number) => [
      record(`${a.base}/p${n}`),
      record(`${b.base}/p${n}`),
      record(`${d.base}/nohead${n}`),
      record(`${c.base}/gone${n}`),
      record(`${f.base}/fail${n}`),
      { ...record(`${e.base}/p${n}`), messageId: `m-garbage-${n}`, body: "{not json" },
    ];
    const env = { ...runtime.env("fetch"), STORYTRAIL_NOW: NOW };
    const atInfo = atLogLevel("INFO", () => createFetchHandler(env));
    const atDebug = atLogLevel("DEBUG", () => createFetchHandler(env));

    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS)); // every reserved slot passed
    const info = await logLinesOf(() => atInfo({ Records: batch(30) }, runtime.context("fetch")));
    expect(info.result.batchItemFailures.map((x) => x.itemIdentifier)).toEqual([`m-${f.base}/fail30`]);
    expect(info.lines.filter((l) => l.level === "INFO")).toEqual([
      expect.objectContaining({
        message: "fetch batch",
        pages: 6,
        outcomes: { article: 3, http_404: 1, http_5xx: 1, malformed: 1 },
        failed_pages: [{ url: `${c.base}/gone30`, reason: "http_404" }],
        put_back: 0,
        failures: 1,
      }),
    ]);
    // The failures' own lines, as they were.
    expect(info.lines.filter((l) => l.level !== "INFO").map((l) => [l.level, l.message, l.url])).toEqual(
      expect.arrayContaining([
        ["WARN", "transient fetch failure", `${f.base}/fail30`],
        ["ERROR", "parked in the dead-letter queue", undefined],
      ]),
    );
    expect(info.lines.filter((l) => l.level !== "INFO")).toHaveLength(2);

    await new Promise((r) => setTimeout(r, 3 * HOST_DELAY_MS));
    const debug = await logLinesOf(() => atDebug({ Records: batch(31) }, runtime.context("fetch")));
    const fetched = debug.lines.filter((l) => l.message === "fetched");
    expect(new Set(fetched.map((l) => l.level))).toEqual(new Set(["DEBUG"]));
    expect(fetched.map((l) => [l.url, l.kind, l.reason]).sort()).toEqual(
      [
        [`${a.base}/p31`, "article", undefined],
        [`${b.base}/p31`, "article", undefined],
        [`${c.base}/gone31`, "failed", "http_404"],
        [`${d.base}/nohead31`, "article", undefined],
      ].sort(),
    );
    expect(debug.lines.filter((l) => l.message === "fetch batch")).toHaveLength(1);
  });
});
