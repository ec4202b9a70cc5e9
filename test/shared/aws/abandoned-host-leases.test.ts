/** A local run frees the hosts a stopped run left taken: at once, yet one interval after now. */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { freeAbandonedHostLeases } from "../../../shared/aws/abandoned-host-leases";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { HOST_LEASE_MS, HostPaceTable } from "../../../shared/aws/host-pace-table";
import { uniquePrefix } from "../../support/unique-prefix";

const DELAY_MS = 2_000;

describe("freeAbandonedHostLeases", () => {
  it("frees a host taken by a request that never ended, from one interval after now; leaves the rest", async () => {
    const clients = makeClients(inject("endpoints"));
    try {
      const res = await createLocalResources(clients, uniquePrefix("abandoned"));
      let t = 1_000_000;
      const clock = {
        now: () => t,
        sleep: async (ms: number) => {
          t += ms;
        },
      };
      const pacer = () =>
        new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: DELAY_MS, ...clock });
      const item = async (host: string) =>
        (await clients.doc.send(new GetCommand({ TableName: res.tables.hosts, Key: { host } }))).Item;

      // "hung.example": a request started and its process stopped before `done`. "ended.example": a
      // request that ended. "expired.example": taken, its lease already out by the time the run starts.
      await pacer().wait("expired.example", null);
      t += HOST_LEASE_MS + 1_000;
      const stopped = pacer();
      await stopped.wait("hung.example", null);
      await stopped.wait("ended.example", null);
      await stopped.done("ended.example", null);
      const [endedBefore, expiredBefore] = [await item("ended.example"), await item("expired.example")];

      t += 3_000; // the next run starts
      expect(await freeAbandonedHostLeases(clients.doc, res.tables.hosts, t)).toBe(1);
      expect(await item("hung.example")).toMatchObject({ busy_until: 0, next_at: t + DELAY_MS });
      expect(await item("ended.example")).toEqual(endedBefore);
      expect(await item("expired.example")).toEqual(expiredBefore);

      // The next run's request to it starts one interval after now, not at the lease's end.
      const start = t;
      await pacer().wait("hung.example", null);
      expect(t - start).toBe(DELAY_MS);
      expect(await freeAbandonedHostLeases(clients.doc, res.tables.hosts, t)).toBe(1); // taken again now
    } finally {
      destroyClients(clients);
    }
  });

  it("keeps the interval the request was taken with when a source's minimum made it longer than the item's", async () => {
    const clients = makeClients(inject("endpoints"));
    try {
      const res = await createLocalResources(clients, uniquePrefix("abandoned-min"));
      let t = 5_000_000;
      const clock = {
        now: () => t,
        sleep: async (ms: number) => {
          t += ms;
        },
      };
      const pacer = new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: DELAY_MS, ...clock });
      await pacer.wait("strict.example", null);
      await pacer.done("strict.example", null); // the item's interval_ms: 2 s
      t += 10_000;
      await pacer.wait("strict.example", null, 5_000); // taken with the source's 5 s minimum, never ended
      t += 3_000;
      expect(await freeAbandonedHostLeases(clients.doc, res.tables.hosts, t)).toBe(1);
      const item = (
        await clients.doc.send(
          new GetCommand({ TableName: res.tables.hosts, Key: { host: "strict.example" } }),
        )
      ).Item;
      expect(item).toMatchObject({ busy_until: 0, interval_ms: DELAY_MS, next_at: t + 5_000 });
    } finally {
      destroyClients(clients);
    }
  });
});
