import { describe, expect, it } from "vitest";
import { HostPacer } from "../../../shared/fetch/host-pacer";

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
    expect(pacer.delayMs("a.com")).toBe(1400);
  });

  it("rejects a negative minimum", () => {
    expect(() => new HostPacer({ minDelayMs: -1 })).toThrow();
  });
});
