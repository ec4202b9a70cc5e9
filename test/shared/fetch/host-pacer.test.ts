import { describe, expect, it } from "vitest";
import { MAX_CRAWL_DELAY_MS } from "../../../shared/fetch/crawl-delay";
import { HostPacer, MAX_TIMER_MS, sleepUntil } from "../../../shared/fetch/host-pacer";

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

describe("HostPacer", () => {
  it("lets the first request go at once and spaces the next by the minimum delay", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await pacer.wait("example.com");
    await pacer.wait("example.com");
    c.advance(300);
    await pacer.wait("example.com");
    expect(c.sleeps).toEqual([1000, 700]);
  });

  it("honours Crawl-delay when it is longer than the minimum, and the minimum when it is shorter", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await pacer.wait("a.com", 5);
    await pacer.wait("a.com", 5);
    await pacer.wait("b.com", 0.2);
    await pacer.wait("b.com", 0.2);
    expect(c.sleeps).toEqual([5000, 1000]);
  });

  it("paces hosts independently", async () => {
    const c = clock();
    const pacer = new HostPacer({ minDelayMs: 1000, now: c.now, sleep: c.sleep });
    await pacer.wait("a.com");
    await pacer.wait("b.com");
    expect(c.sleeps).toEqual([]);
  });

  it("queues concurrent callers one interval apart", async () => {
    let t = 0;
    const sleeps: number[] = [];
    const pacer = new HostPacer({ minDelayMs: 500, now: () => t, sleep: async (ms) => void sleeps.push(ms) });
    await Promise.all([pacer.wait("a.com"), pacer.wait("a.com"), pacer.wait("a.com")]);
    expect(sleeps).toEqual([500, 1000]);
    t = 100;
    await pacer.wait("a.com");
    expect(sleeps).toEqual([500, 1000, 1400]);
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
      await pacer.wait(host, delay);
      await pacer.wait(host, delay);
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
    await pacer.wait("real.example", crawlDelay);
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
    await pacer.wait("far.example");
    const second = pacer.wait("far.example").then(() => "fired");
    const early = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 200));
    expect(await Promise.race([second, early])).toBe("still waiting");
  });
});
