/** Per-host pacing shared through DynamoDB: no two containers ever hit one host too soon or at once. */

import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { HostPaceTable } from "../../../shared/aws/host-pace-table";
import { MAX_CRAWL_DELAY_MS } from "../../../shared/fetch/crawl-delay";
import { HOST_LEASE_MS, MAX_WAIT_IN_FUNCTION_MS, slotSpacingMs } from "../../../shared/fetch/host-slots";
import { pacedBy } from "../../../shared/fetch/request-pacing";
import { uniquePrefix } from "../../support/unique-prefix";

const HOST = "news.example";

/** A virtual clock that moves only when someone sleeps: the table's round trips take no virtual time,
 * so the gaps measured are the protocol's own, whatever the machine's load. */
function virtualClock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

/** The local tables, the DynamoDB calls sent (by operation), and a reader of the host's item. */
async function setup(name: string) {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix(name));
  const calls: string[] = [];
  clients.doc.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(String(context.commandName).replace(/Command$/, ""));
      return next(args);
    },
    { step: "initialize", name: "countCalls" },
  );
  const item = async () =>
    (await clients.doc.send(new GetCommand({ TableName: res.tables.hosts, Key: { host: HOST } }))).Item;
  const pacer = (minDelayMs: number, clock?: ReturnType<typeof virtualClock>) =>
    new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs, ...clock });
  return { clients, table: res.tables.hosts, calls, item, pacer, close: () => destroyClients(clients) };
}

/** One request through a pacer: its wait, `latencyMs` on the wire, its done; returns [start, end]. */
async function request(
  p: HostPaceTable,
  now: () => number,
  onWire: (ms: number) => Promise<void>,
  latencyMs: number,
): Promise<readonly [number, number]> {
  await p.wait(HOST, null);
  const start = now();
  await onWire(latencyMs);
  const end = now();
  await p.done(HOST, null);
  return [start, end];
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("HostPaceTable", () => {
  it("spaces requests to one host by max(Crawl-delay, minimum) across separate pacers", async () => {
    const s = await setup("pace");
    try {
      const clock = virtualClock();
      const a = s.pacer(150, clock);
      const b = s.pacer(150, clock);
      const starts: number[] = [];
      const run = async (p: HostPaceTable, n: number, crawlDelay: number | null) => {
        for (let i = 0; i < n; i++) {
          await p.wait(HOST, crawlDelay);
          starts.push(clock.now());
          await p.done(HOST, crawlDelay);
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
      s.close();
    }
  });

  it("starts no request while another to the host is out, and each one interval after the last ended", async () => {
    const s = await setup("overlap");
    try {
      // Requests slower than the interval, from two containers at once (discovery reading a sitemap
      // while fetch starts on the pages, say): the second waits for the first to end.
      const INTERVAL = 100;
      const spans: (readonly [number, number])[] = [];
      const run = async (p: HostPaceTable) => {
        for (let i = 0; i < 3; i++) spans.push(await request(p, Date.now, realSleep, 250));
      };
      await Promise.all([run(s.pacer(INTERVAL)), run(s.pacer(INTERVAL))]);
      spans.sort((x, y) => x[0] - y[0]);
      // Timers fire on time within a few ms of Date.now().
      for (let i = 1; i < spans.length; i++)
        expect(spans[i]![0] - spans[i - 1]![1]).toBeGreaterThanOrEqual(INTERVAL - 5);
    } finally {
      s.close();
    }
  });

  it("frees a host when the lease of a container that died mid-request runs out", async () => {
    const s = await setup("lease");
    try {
      const clock = virtualClock();
      await s.pacer(1000, clock).wait(HOST, null); // its request never ends
      const taken = clock.now();
      await s.pacer(1000, clock).wait(HOST, null);
      expect(clock.now()).toBeGreaterThanOrEqual(taken + HOST_LEASE_MS);
      expect(clock.now()).toBeLessThan(taken + HOST_LEASE_MS + 1000);
    } finally {
      s.close();
    }
  });

  it("returns without the host when the caller's time runs out during its wait, taking nothing", async () => {
    const s = await setup("cut");
    try {
      const clock = virtualClock();
      const a = s.pacer(1000, clock);
      await a.wait(HOST, null);
      const before = await s.item();
      // A caller whose time runs out while it waits for the host: its signal aborts during the sleep.
      const budget = new AbortController();
      await new HostPaceTable(s.clients.doc, s.table, {
        minDelayMs: 1000,
        now: clock.now,
        sleep: async (_ms, signal) => {
          budget.abort();
          expect(signal?.aborted).toBe(true);
        },
      }).wait(HOST, null, undefined, budget.signal);
      expect(await s.item()).toEqual(before);
      await a.done(HOST, null);
      expect((await s.item())?.busy_until).toBe(0);
    } finally {
      s.close();
    }
  });

  it("frees the host when the request is not sent after its wait (the caller's time ran out meanwhile)", async () => {
    const s = await setup("unsent");
    try {
      const clock = virtualClock();
      const budget = new AbortController();
      budget.abort();
      const pace = pacedBy(s.pacer(1000, clock), `https://${HOST}/story`, null, { signal: budget.signal });
      expect(await pace.before(`https://${HOST}/story`)).toBe(false);
      // Not left to its 35 s lease: the next request may go one interval from now.
      expect(await s.item()).toMatchObject({ busy_until: 0, next_at: clock.now() + 1000 });
    } finally {
      s.close();
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

  describe("the host kept for the next request while more of its pages follow (a batch of one host's pages)", () => {
    const INTERVAL = 1000;
    const LATENCY = 300;

    it("one write per request after the first, no reads, and every request one interval after the last ended", async () => {
      const s = await setup("hold");
      try {
        const clock = virtualClock();
        const p = s.pacer(INTERVAL, clock);
        const spans: (readonly [number, number])[] = [];
        for (let i = 0; i < 10; i++) {
          p.expectMore(HOST, i < 9);
          spans.push(await request(p, clock.now, clock.sleep, LATENCY));
        }
        await p.release([HOST]);
        for (let i = 1; i < spans.length; i++)
          expect(spans[i]![0] - spans[i - 1]![1]).toBeGreaterThanOrEqual(INTERVAL);
        // 10 requests: one reservation (a read and a put), then one write per request; the old way
        // took a read and two writes per request.
        expect(s.calls.filter((c) => c === "GetItem")).toHaveLength(1);
        expect(s.calls.filter((c) => c !== "GetItem")).toHaveLength(11);
        // The last request kept nothing: free from one interval after its end, as plain pacing leaves it.
        expect(await s.item()).toMatchObject({ next_at: spans[9]![1] + INTERVAL, busy_until: 0 });
      } finally {
        s.close();
      }
    });

    it("another container waits while the host is kept, then goes one interval after the keeper's last end", async () => {
      const s = await setup("kept");
      try {
        const short = 100;
        const a = s.pacer(short);
        a.expectMore(HOST, true);
        await request(a, Date.now, realSleep, 150);
        const b = s
          .pacer(short)
          .wait(HOST, null)
          .then(() => Date.now());
        a.expectMore(HOST, false);
        const [, aEnd] = await request(a, Date.now, realSleep, 150);
        expect((await b) - aEnd).toBeGreaterThanOrEqual(short - 5);
      } finally {
        s.close();
      }
    });

    it("release frees a host kept for a request that did not come: one interval after the last end", async () => {
      const s = await setup("release");
      try {
        const clock = virtualClock();
        const a = s.pacer(INTERVAL, clock);
        a.expectMore(HOST, true);
        const [, end] = await request(a, clock.now, clock.sleep, LATENCY);
        expect((await s.item())?.busy_until).toBeGreaterThan(end + INTERVAL);
        await a.release([HOST]);
        expect(await s.item()).toMatchObject({ next_at: end + INTERVAL, busy_until: 0 });
        // Nothing is kept in a any more: its next request reserves through the table, with no wait
        // past the interval.
        const reads = s.calls.filter((c) => c === "GetItem").length;
        await a.wait(HOST, null);
        expect(s.calls.filter((c) => c === "GetItem").length).toBe(reads + 1);
        expect(clock.now()).toBe(end + INTERVAL);
      } finally {
        s.close();
      }
    });

    it("release frees only the hosts it is given: another invocation's request out on the same pacer ends as usual", async () => {
      const s = await setup("scoped");
      try {
        // The local runtime runs one container's invocations concurrently, on one pacer.
        const clock = virtualClock();
        const p = s.pacer(INTERVAL, clock);
        p.expectMore("kept.example", true);
        await p.wait("kept.example", null);
        await p.done("kept.example", null); // invocation A keeps its host for a page that never comes
        await p.wait(HOST, null); // invocation B's request is out
        await p.release(["kept.example"]); // A ends
        await clock.sleep(LATENCY);
        await p.done(HOST, null); // B's request ends: its host is free, not left to its lease
        expect(await s.item()).toMatchObject({ next_at: clock.now() + INTERVAL, busy_until: 0 });
      } finally {
        s.close();
      }
    });

    it("a kept slot come back to late starts at once, renewing the lease", async () => {
      const s = await setup("late");
      try {
        const clock = virtualClock();
        const a = s.pacer(INTERVAL, clock);
        a.expectMore(HOST, true);
        await request(a, clock.now, clock.sleep, LATENCY);
        await clock.sleep(5 * INTERVAL); // the page's storage took long: the kept slot is past
        const before = clock.now();
        await a.wait(HOST, null);
        expect(clock.now()).toBe(before);
        expect(await s.item()).toMatchObject({
          next_at: before + INTERVAL,
          busy_until: before + HOST_LEASE_MS,
        });
      } finally {
        s.close();
      }
    });
  });

  describe("admission: a page waits for its host in the queue, at a reserved slot", () => {
    const INTERVAL = 1000;

    it("takes a due host, reserves whole-second slots for the rest, and a reserved page back at its slot takes the host", async () => {
      const s = await setup("admit");
      try {
        const clock = virtualClock(1_000_500);
        const a = s.pacer(INTERVAL, clock);
        const b = s.pacer(INTERVAL, clock);
        // Three pages of one host in a batch: the first takes it, two slots reserved after it.
        const first = await a.admit(HOST, 3);
        expect(first.taken).toBe(1);
        const spacing = slotSpacingMs(INTERVAL);
        expect(spacing).toBe(2000); // a 1 s delay and a request: 2 s slots
        expect(first.slots).toEqual([clock.now() + spacing, clock.now() + 2 * spacing]);
        // A fresh page in another container queues behind the schedule, costing no wait.
        const fresh = await b.admit(HOST, 1);
        expect(fresh).toEqual({ taken: 0, slots: [clock.now() + 3 * spacing] });
        // The request admitted first runs 300 ms and ends: the reservations did not take its lease away.
        await a.wait(HOST, null);
        const start = clock.now();
        await clock.sleep(300);
        await a.done(HOST, null);
        expect(await s.item()).toMatchObject({ busy_until: 0, next_at: start + 300 + INTERVAL });
        // Before its slot the host is not due (its next request may start 1 s after the end).
        await clock.sleep(INTERVAL + 300 - MAX_WAIT_IN_FUNCTION_MS - 400);
        expect((await b.admit(HOST, 1, { reserved: true })).taken).toBe(0);
        // Back at its slot, the reserved page takes the host; a fresh one would not (the schedule runs on).
        await clock.sleep(first.slots[0]! - clock.now());
        expect((await b.admit(HOST, 1)).taken).toBe(0);
        const back = await a.admit(HOST, 1, { reserved: true });
        expect(back).toEqual({ taken: 1, slots: [] });
        await a.wait(HOST, null);
        expect(clock.now()).toBeGreaterThanOrEqual(start + 300 + INTERVAL);
      } finally {
        s.close();
      }
    });

    it("admits a host that is due within the bound, and the wait in the function is at most the bound", async () => {
      const s = await setup("admit-bound");
      try {
        const clock = virtualClock();
        const p = s.pacer(INTERVAL, clock);
        await p.wait(HOST, null);
        await p.done(HOST, null);
        await clock.sleep(INTERVAL - MAX_WAIT_IN_FUNCTION_MS);
        expect((await p.admit(HOST, 1)).taken).toBe(1);
        const before = clock.now();
        await p.wait(HOST, null);
        expect(clock.now() - before).toBe(MAX_WAIT_IN_FUNCTION_MS);
      } finally {
        s.close();
      }
    });
  });
});
