/** A local run frees the hosts a stopped run left taken: at once, yet one interval after now. */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { freeAbandonedHostLeases } from "../../../shared/aws/abandoned-host-leases";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { HostPaceTable } from "../../../shared/aws/host-pace-table";
import { HOST_LEASE_MS } from "../../../shared/fetch/host-slots";
import { uniquePrefix } from "../../support/unique-prefix";

const DELAY_MS = 2_000;

/** A Hosts table of its own on DynamoDB Local and a virtual clock from `t0`: pacers on that clock, an
 * item's read, and the run-start's free. */
async function withHostsTable(
  name: string,
  t0: number,
  test: (h: {
    clock: { now: () => number; advance: (ms: number) => void };
    pacer: () => HostPaceTable;
    item: (host: string) => Promise<Record<string, unknown> | undefined>;
    free: () => Promise<number>;
  }) => Promise<void>,
): Promise<void> {
  const clients = makeClients(inject("endpoints"));
  try {
    const table = (await createLocalResources(clients, uniquePrefix(name))).tables.hosts;
    let t = t0;
    const advance = (ms: number) => {
      t += ms;
    };
    const clock = { now: () => t, sleep: async (ms: number) => advance(ms) };
    await test({
      clock: { now: clock.now, advance },
      pacer: () => new HostPaceTable(clients.doc, table, { minDelayMs: DELAY_MS, ...clock }),
      item: async (host) =>
        (await clients.doc.send(new GetCommand({ TableName: table, Key: { host } }))).Item,
      free: () => freeAbandonedHostLeases(clients.doc, table, t),
    });
  } finally {
    destroyClients(clients);
  }
}

describe("freeAbandonedHostLeases", () => {
  it("frees a host taken by a request that never ended, from one interval after now; leaves the rest", () =>
    withHostsTable("abandoned", 1_000_000, async ({ clock, pacer, item, free }) => {
      // "hung.example": a request started and its process stopped before `done`. "ended.example": a
      // request that ended. "expired.example": taken, its lease already out by the time the run starts.
      await pacer().wait("expired.example", null);
      clock.advance(HOST_LEASE_MS + 1_000);
      const stopped = pacer();
      await stopped.wait("hung.example", null);
      await stopped.wait("ended.example", null);
      await stopped.done("ended.example", null);
      const [endedBefore, expiredBefore] = [await item("ended.example"), await item("expired.example")];

      clock.advance(3_000); // the next run starts
      expect(await free()).toBe(1);
      expect(await item("hung.example")).toMatchObject({ busy_until: 0, next_at: clock.now() + DELAY_MS });
      expect(await item("ended.example")).toEqual(endedBefore);
      expect(await item("expired.example")).toEqual(expiredBefore);

      // The next run's request to it starts one interval after now, not at the lease's end.
      const start = clock.now();
      await pacer().wait("hung.example", null);
      expect(clock.now() - start).toBe(DELAY_MS);
      expect(await free()).toBe(1); // taken again now
    }));

  it("keeps the interval the request was taken with when a source's minimum made it longer than the item's", () =>
    withHostsTable("abandoned-min", 5_000_000, async ({ clock, pacer, item, free }) => {
      const p = pacer();
      await p.wait("strict.example", null);
      await p.done("strict.example", null); // the item's interval_ms: 2 s
      clock.advance(10_000);
      await p.wait("strict.example", null, 5_000); // taken with the source's 5 s minimum, never ended
      clock.advance(3_000);
      expect(await free()).toBe(1);
      expect(await item("strict.example")).toMatchObject({
        busy_until: 0,
        interval_ms: DELAY_MS,
        next_at: clock.now() + 5_000,
      });
    }));
});
