import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { MAX_CRAWL_DELAY_MS } from "../../../shared/fetch/crawl-delay";
import { HostPacer, MAX_TIMER_MS, sleepUntil } from "../../../shared/fetch/host-pacer";
import { HttpClient } from "../../../shared/fetch/http";
import { pacedBy } from "../../../shared/fetch/request-pacing";

/** A fake clock: sleep advances time, so waits are asserted without real delays. */
function clock() {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
  };
}

/** One request through `pacer`: it takes the host, then ends (`done`). */
async function request(pacer: HostPacer, host: string, crawlDelay?: number | null): Promise<void> {
  await pacer.wait(host, crawlDelay);
  await pacer.done(host, crawlDelay);
}

describe("HostPacer", () => {
  it("lets the first request go at once and spaces the next by the minimum delay from the last one's end", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await request(pacer, "example.com");
    await request(pacer, "example.com");
    c.advance(300);
    await request(pacer, "example.com");
    expect(c.sleeps).toEqual([1000, 700]);
  });

  it("honours Crawl-delay when it is longer than the minimum, and the minimum when it is shorter", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await request(pacer, "a.com", 5);
    await request(pacer, "a.com", 5);
    await request(pacer, "b.com", 0.2);
    await request(pacer, "b.com", 0.2);
    expect(c.sleeps).toEqual([5000, 1000]);
  });

  it("paces hosts independently", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await pacer.wait("a.com");
    await pacer.wait("b.com");
    expect(c.sleeps).toEqual([]);
  });

  it("queues concurrent callers behind the request out: each starts one interval after the one before ended", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 500, now: c.now, sleep: c.sleep });
    const t0 = c.now();
    const spans: [number, number][] = [];
    // Each request takes 300 ms, so counted from slot to slot (500 ms) they would not overlap, but the
    // next would start 200 ms after this one's end.
    const slow = async () => {
      await pacer.wait("a.com");
      const start = c.now() - t0;
      c.advance(300);
      spans.push([start, c.now() - t0]);
      await pacer.done("a.com");
    };
    await Promise.all([slow(), slow(), slow()]);
    expect(spans).toEqual([
      [0, 300],
      [800, 1100],
      [1600, 1900],
    ]);
  });

  it("a wait its signal cuts short while queued takes nothing: the next caller still waits for the request out", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 500, now: c.now, sleep: c.sleep });
    await pacer.wait("a.com"); // a request out …
    const budget = new AbortController();
    const cut = pacer.wait("a.com", null, undefined, budget.signal);
    let third = false;
    const next = pacer.wait("a.com").then(() => {
      third = true;
    });
    budget.abort();
    await cut;
    await pacer.done("a.com"); // … the cut wait's "not sent after all" (pacedBy), which frees nothing
    await Promise.resolve();
    expect(third).toBe(false);
    const end = c.now();
    await pacer.done("a.com"); // the request out ends: the third caller goes one interval later
    await next;
    expect(c.now() - end).toBe(500);
  });

  it("a wait its signal cuts short during its sleep frees the host, and the next slot stays one interval after the last end", async () => {
    const c = clock();
    const budget = new AbortController();
    const sleeps: number[] = [];
    const pacer = new HostPacer({
      minDelayMs: 500,
      now: c.now,
      sleep: async (ms, signal) => {
        sleeps.push(ms);
        // The caller's time runs out while it sleeps; others sleep their whole delay.
        if (signal === budget.signal) budget.abort();
        else c.advance(ms);
      },
    });
    await request(pacer, "a.com");
    const end = c.now();
    await pacer.wait("a.com", null, undefined, budget.signal);
    await pacer.done("a.com");
    await pacer.wait("a.com");
    expect(sleeps).toEqual([500, 500]);
    expect(c.now() - end).toBe(500);
  });

  it("rejects a negative minimum", () => {
    expect(() => new HostPacer({ minDelayMs: -1 })).toThrow();
  });

  it("clamps Crawl-delay: 3600 to the cap and reads NaN or negative as none", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    for (const [host, delay] of [
      ["a.com", 3600],
      ["b.com", 1e9],
      ["c.com", Number.NaN],
      ["d.com", -7],
    ] as const) {
      await request(pacer, host, delay);
      await request(pacer, host, delay);
    }
    expect(c.sleeps).toEqual([MAX_CRAWL_DELAY_MS, MAX_CRAWL_DELAY_MS, 1000, 1000]);
  });
});

describe("sleepUntil", () => {
  it("sleeps the rest when a timer fires before the clock shows its delay passed", async () => {
    let t = 5_000;
    const sleeps: number[] = [];
    // Node's timers run on a monotonic clock: one may wake a millisecond early by Date.now().
    const early = async (ms: number) => {
      sleeps.push(ms);
      t += ms > 1 ? ms - 1 : ms;
    };
    await sleepUntil(6_000, () => t, early);
    expect(t).toBeGreaterThanOrEqual(6_000);
    expect(sleeps).toEqual([1_000, 1]);
  });

  it("sleeps once when the clock does not move (a test's), not at all for a slot now or past, and stops on abort", async () => {
    const sleeps: number[] = [];
    const still = async (ms: number) => {
      sleeps.push(ms);
    };
    await sleepUntil(6_000, () => 5_000, still);
    await sleepUntil(5_000, () => 5_000, still);
    const aborted = AbortSignal.abort();
    await sleepUntil(6_000, () => 5_000, still, aborted);
    expect(sleeps).toEqual([1_000]);
  });

  it("on real timers, returns no earlier than Date.now() reaching the slot", async () => {
    for (let i = 0; i < 20; i++) {
      const at = Date.now() + 3 + (i % 4);
      await sleepUntil(at, Date.now);
      expect(Date.now()).toBeGreaterThanOrEqual(at);
    }
  });
});

describe("HostPacer with real timers", () => {
  const gapMs = async (pacer: HostPacer, crawlDelay: number) => {
    await request(pacer, "real.example", crawlDelay);
    const t0 = performance.now();
    await pacer.wait("real.example", crawlDelay);
    return performance.now() - t0;
  };

  it("Crawl-delay: 1e9 and Infinity still space two requests by the cap (no setTimeout overflow to 1 ms)", async () => {
    for (const delay of [1e9, Number.POSITIVE_INFINITY]) {
      const pacer = new HostPacer({ minDelayMs: 10, maxCrawlDelayMs: 250 });
      // Timers may fire up to a millisecond early against performance.now().
      expect(await gapMs(pacer, delay), String(delay)).toBeGreaterThanOrEqual(248);
    }
  });

  it("a wait longer than setTimeout's range does not fire early", async () => {
    // The operator's minimum is not capped; one beyond 2^31 − 1 ms must still hold the second request.
    const pacer = new HostPacer({ minDelayMs: MAX_TIMER_MS + 1_000 });
    await request(pacer, "far.example");
    const second = pacer.wait("far.example").then(() => "fired");
    const early = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 200));
    expect(await Promise.race([second, early])).toBe("still waiting");
  });
});

describe("HostPacer over real HTTP", () => {
  it("a request slower than the interval holds the host: a concurrent one arrives an interval after its end", async () => {
    const INTERVAL_MS = 100;
    const RESPONSE_MS = 300; // longer than the interval: slot to slot, the two requests would overlap
    const hits: { path: string; at: number; end: number }[] = [];
    const server = http.createServer((req, res) => {
      const hit = { path: req.url ?? "/", at: Date.now(), end: 0 };
      hits.push(hit);
      res.on("finish", () => {
        hit.end = Date.now();
      });
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end("<p>slow</p>"), RESPONSE_MS);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const client = new HttpClient({ userAgent: "storytrail-test/1.0", allowPrivateAddresses: true });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const pacer = new HostPacer({ minDelayMs: INTERVAL_MS });
      const get = (path: string) =>
        client.fetch(`${base}${path}`, { accept: "html", pace: pacedBy(pacer, `${base}${path}`, null) });
      const results = await Promise.all([get("/first"), get("/second")]);
      expect(results.map((r) => r.ok)).toEqual([true, true]);
      const [first, second] = [...hits].sort((x, y) => x.at - y.at);
      expect(second!.path).toBe("/second");
      // Never two requests to the host at once, and the interval counted from the first one's end (which
      // the client sees after the server's finish); 1 ms for Date.now's rounding.
      expect(second!.at - first!.end + 1, JSON.stringify(hits)).toBeGreaterThanOrEqual(INTERVAL_MS);
    } finally {
      await client.close();
      await new Promise((ok) => server.close(ok));
    }
  });
});
