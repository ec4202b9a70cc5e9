/** The Hosts table's conditional writes: each holds only when the item is as the writer last saw it. */
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { expiresAt, HostItems } from "../../../shared/aws/host-items";
import { uniquePrefix } from "../../support/unique-prefix";

const HOST = "news.example";
const T = 1_800_000_000_000;

async function setup(name: string) {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix(name));
  return { items: new HostItems(clients.doc, res.tables.hosts), close: () => destroyClients(clients) };
}

describe("HostItems", () => {
  it("takes a host only if nobody took it since it was read, moving its version on", async () => {
    const s = await setup("hostitems-take");
    try {
      const take = { takes: true, schedules: false };
      expect(await s.items.read(HOST)).toBeUndefined();
      expect(await s.items.setIfUnchanged(HOST, undefined, { next_at: T }, take)).toBe(true);
      // A second writer that read no item loses: the item exists now.
      expect(await s.items.setIfUnchanged(HOST, undefined, { next_at: T + 1 }, take)).toBe(false);
      const seen = await s.items.read(HOST);
      expect(seen).toMatchObject({ next_at: T, v: 1 });
      expect(await s.items.setIfUnchanged(HOST, seen, { next_at: T + 2 }, take)).toBe(true);
      // The same stale read again: the version moved on.
      expect(await s.items.setIfUnchanged(HOST, seen, { next_at: T + 3 }, take)).toBe(false);
      expect(await s.items.read(HOST)).toMatchObject({ next_at: T + 2, v: 2 });
    } finally {
      s.close();
    }
  });

  it("reserves slots only if the schedule is as read, leaving the version to the host's holder", async () => {
    const s = await setup("hostitems-schedule");
    try {
      const reserve = { takes: false, schedules: true };
      await s.items.setIfUnchanged(HOST, undefined, { next_at: T }, { takes: true, schedules: false });
      const seen = await s.items.read(HOST);
      expect(await s.items.setIfUnchanged(HOST, seen, { scheduled_until: T + 2000 }, reserve)).toBe(true);
      expect(await s.items.setIfUnchanged(HOST, seen, { scheduled_until: T + 4000 }, reserve)).toBe(false);
      expect(await s.items.read(HOST)).toMatchObject({ scheduled_until: T + 2000, v: 1 });
    } finally {
      s.close();
    }
  });

  it("writes on a version the writer holds, and keeps the later of two next slots", async () => {
    const s = await setup("hostitems-version");
    try {
      await s.items.setIfUnchanged(HOST, undefined, { next_at: T }, { takes: true, schedules: false });
      expect(await s.items.setIfVersion(HOST, 1, { busy_until: 0, next_at: T + 1000 })).toBe(true);
      expect(await s.items.setIfVersion(HOST, 1, { busy_until: 0, next_at: T + 5000 })).toBe(false);
      await s.items.keepLaterNext(HOST, T + 500);
      expect(await s.items.read(HOST)).toMatchObject({ next_at: T + 1000, v: 2 });
      await s.items.keepLaterNext(HOST, T + 9000);
      expect(await s.items.read(HOST)).toMatchObject({ next_at: T + 9000, expires_at: expiresAt(T + 9000) });
    } finally {
      s.close();
    }
  });
});
