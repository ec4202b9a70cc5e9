/** Per-host pacing shared through DynamoDB: two fetch containers never hit one host too soon. */
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
});
