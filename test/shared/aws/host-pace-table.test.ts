/** Per-host pacing shared through DynamoDB: two fetch containers never hit one host too soon. */

import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { HostPaceTable } from "../../../shared/aws/host-pace-table";
import { MAX_CRAWL_DELAY_MS } from "../../../shared/fetch/crawl-delay";
import { uniquePrefix } from "../../support/unique-prefix";

describe("HostPaceTable", () => {
  it("spaces requests to one host by max(Crawl-delay, minimum) across separate pacers", async () => {
    const clients = makeClients(inject("endpoints"));
    try {
      const res = await createLocalResources(clients, uniquePrefix("pace"));
      // A shared virtual clock that moves only when someone sleeps: the table's round trips take no
      // virtual time, so the gaps measured are the reservations' own, whatever the machine's load.
      let t = 1_000_000;
      const clock = {
        now: () => t,
        sleep: async (ms: number) => {
          t += ms;
        },
      };
      // Two containers, each with its own pacer object, sharing only the table.
      const a = new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: 150, ...clock });
      const b = new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: 150, ...clock });
      const starts: number[] = [];
      const run = async (p: HostPaceTable, n: number, crawlDelay: number | null) => {
        for (let i = 0; i < n; i++) {
          await p.wait("news.example", crawlDelay);
          starts.push(clock.now());
        }
      };
      await Promise.all([run(a, 3, null), run(b, 3, 0.25)]);
      starts.sort((x, y) => x - y);
      const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
      // Each reservation uses the interval of the request that made it: 150 ms or 250 ms.
      for (const g of gaps) expect(g).toBeGreaterThanOrEqual(150);
      expect(starts).toHaveLength(6);
      // Another host is not held up by this one.
      const t0 = clock.now();
      await a.wait("other.example", null);
      expect(clock.now()).toBe(t0);
    } finally {
      destroyClients(clients);
    }
  });

  it("paces by the politeness rule: a huge Crawl-delay capped, never below the minimum", () => {
    const p = new HostPaceTable({} as never, "t", { minDelayMs: 1000 });
    expect(p.intervalMs(null)).toBe(1000);
    expect(p.intervalMs(0.1)).toBe(1000);
    expect(p.intervalMs(5)).toBe(5000);
    for (const huge of [3600, 1e9, Number.POSITIVE_INFINITY])
      expect(p.intervalMs(huge)).toBe(MAX_CRAWL_DELAY_MS);
    for (const junk of [Number.NaN, -5, Number.NEGATIVE_INFINITY]) expect(p.intervalMs(junk)).toBe(1000);
  });

  it("takes a source's min_delay_ms when it is above the deployment's minimum, never below it", () => {
    const p = new HostPaceTable({} as never, "t", { minDelayMs: 1000 });
    expect(p.intervalMs(null, 2500)).toBe(2500);
    expect(p.intervalMs(null, 200)).toBe(1000);
    expect(p.intervalMs(5, 2500)).toBe(5000);
    expect(new HostPaceTable({} as never, "t", { minDelayMs: 0 }).intervalMs(null, 300)).toBe(300);
  });

  describe("a slot held ahead while more requests to the host follow (a batch of one host's pages)", () => {
    const INTERVAL = 1000;
    const LATENCY = 300;
    const HOST = "burst.example";

    /** Two containers' pacers on one table and one virtual clock, and the table calls each sends. */
    async function setup() {
      const clients = makeClients(inject("endpoints"));
      const res = await createLocalResources(clients, uniquePrefix("hold"));
      let t = 5_000_000;
      const clock = {
        now: () => t,
        sleep: async (ms: number) => {
          t += ms;
        },
      };
      const calls: string[] = [];
      clients.doc.middlewareStack.add(
        (next, context) => async (args) => {
          calls.push(String(context.commandName).replace(/Command$/, ""));
          return next(args);
        },
        { step: "initialize", name: "countCalls" },
      );
      const pacer = () =>
        new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: INTERVAL, ...clock });
      /** One request: its wait, LATENCY ms on the wire, its done; returns [start, end]. */
      const request = async (p: HostPaceTable) => {
        await p.wait(HOST, null);
        const start = clock.now();
        clock.sleep(LATENCY);
        await p.done(HOST, null);
        return [start, clock.now()] as const;
      };
      const nextAt = async () =>
        (await clients.doc.send(new GetCommand({ TableName: res.tables.hosts, Key: { host: HOST } }))).Item
          ?.next_at as number;
      return { clients, clock, calls, pacer, request, nextAt, advance: (ms: number) => clock.sleep(ms) };
    }

    it("one write per request after the first, no reads, and every request one interval after the last ended", async () => {
      const s = await setup();
      try {
        const p = s.pacer();
        const spans: (readonly [number, number])[] = [];
        for (let i = 0; i < 10; i++) {
          p.expectMore(HOST, i < 9);
          spans.push(await s.request(p));
        }
        await p.release();
        for (let i = 1; i < spans.length; i++)
          expect(spans[i]![0] - spans[i - 1]![1]).toBeGreaterThanOrEqual(INTERVAL);
        // 10 requests: one reservation (a read and a put), then one write per request; the old way
        // took a read and two writes per request.
        expect(s.calls.filter((c) => c === "GetItem")).toHaveLength(1);
        expect(s.calls.filter((c) => c !== "GetItem")).toHaveLength(11);
        // The last request held nothing: the table says one interval after its end, as plain pacing does.
        expect(await s.nextAt()).toBe(spans[9]![1] + INTERVAL);
      } finally {
        destroyClients(s.clients);
      }
    });

    it("another container queues behind the held slot, and the holder, come back late, behind it", async () => {
      const s = await setup();
      try {
        const a = s.pacer();
        const b = s.pacer();
        a.expectMore(HOST, true);
        const [, end] = await s.request(a);
        // b asks while a holds end + INTERVAL: b gets the slot after it, not the held one.
        await b.wait(HOST, null);
        const bStart = s.clock.now();
        expect(bStart).toBe(end + 2 * INTERVAL);
        // a's held slot is now past and b reserved since: a queues behind b instead of using it.
        a.expectMore(HOST, false);
        await a.wait(HOST, null);
        expect(s.clock.now() - bStart).toBeGreaterThanOrEqual(INTERVAL);
      } finally {
        destroyClients(s.clients);
      }
    });

    it("release hands a slot no request used back: the table says one interval after the last end", async () => {
      const s = await setup();
      try {
        const a = s.pacer();
        a.expectMore(HOST, true);
        const [, end] = await s.request(a);
        expect(await s.nextAt()).toBe(end + 2 * INTERVAL);
        await a.release();
        expect(await s.nextAt()).toBe(end + INTERVAL);
        // The slot is gone from a too: its next request reserves through the table again.
        const reads = s.calls.filter((c) => c === "GetItem").length;
        await a.wait(HOST, null);
        expect(s.calls.filter((c) => c === "GetItem").length).toBe(reads + 1);
      } finally {
        destroyClients(s.clients);
      }
    });

    it("a held slot come back to late starts at once when nobody queued since", async () => {
      const s = await setup();
      try {
        const a = s.pacer();
        a.expectMore(HOST, true);
        await s.request(a);
        await s.advance(5 * INTERVAL); // the page's storage took long: the held slot is past
        const before = s.clock.now();
        await a.wait(HOST, null);
        expect(s.clock.now()).toBe(before);
        expect(await s.nextAt()).toBe(before + INTERVAL);
      } finally {
        destroyClients(s.clients);
      }
    });
  });
});
