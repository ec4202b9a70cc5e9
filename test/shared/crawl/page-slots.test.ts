/**
 * Discovery's pages get their slots on their hosts' schedules (the real Hosts table on DynamoDB Local, a
 * virtual clock): each host's pages in order, one spacing apart, after what was reserved before.
 */
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { HostPaceTable } from "../../../shared/aws/host-pace-table";
import { withSlots } from "../../../shared/crawl/page-slots";
import type { HostSchedule } from "../../../shared/crawl/ports";
import { slotSpacingMs } from "../../../shared/fetch/host-slots";
import type { FetchMessage } from "../../../shared/records";
import { uniquePrefix } from "../../support/unique-prefix";

const NOW = 1_000_000;

function page(url: string, extra: Partial<FetchMessage> = {}): FetchMessage {
  return { url, source_id: "s", publication: "P", discovered_from: "sitemap", run_id: "r", ...extra };
}

async function setup(name: string) {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix(name));
  const schedule = new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: 1000, now: () => NOW });
  return { schedule, close: () => destroyClients(clients) };
}

describe("withSlots", () => {
  it("gives each host's pages its next slots in order, one spacing apart, after the slots reserved before", async () => {
    const { schedule, close } = await setup("slots");
    try {
      const crawlDelaySeconds = async (url: string) => (url.includes("slow.example") ? 3 : null);
      const first = await withSlots(
        [page("https://a.example/1"), page("https://slow.example/1"), page("https://a.example/2")],
        { schedule, crawlDelaySeconds },
      );
      const [a1, s1, a2] = first.map((m) => m.slot_at as number) as [number, number, number];
      // a: the host is due, its first page's slot is now; the next one spacing (1 s + a request) later.
      expect(a1).toBe(NOW);
      expect(a2 - a1).toBe(slotSpacingMs(1000));
      expect(s1).toBe(NOW);
      // A later send continues a's schedule, and slow's at its Crawl-delay's spacing.
      const later = await withSlots([page("https://a.example/3"), page("https://slow.example/2")], {
        schedule,
        crawlDelaySeconds,
      });
      expect(later[0]?.slot_at).toBe(a2 + slotSpacingMs(1000));
      expect((later[1]?.slot_at as number) - s1).toBe(slotSpacingMs(3000));
      // Nothing else in the message changes.
      expect({ ...later[0], slot_at: undefined }).toEqual({
        ...page("https://a.example/3"),
        slot_at: undefined,
      });
    } finally {
      await close();
    }
  });

  it("leaves unslotted the pages of a host whose interval is within the function's bound (fetched in a row)", async () => {
    const clients = makeClients(inject("endpoints"));
    const res = await createLocalResources(clients, uniquePrefix("slots-fast"));
    try {
      const schedule = new HostPaceTable(clients.doc, res.tables.hosts, { minDelayMs: 0, now: () => NOW });
      const out = await withSlots([page("https://fast.example/1"), page("https://fast.example/2")], {
        schedule,
        crawlDelaySeconds: async () => null,
      });
      expect(out.map((m) => m.slot_at)).toEqual([undefined, undefined]);
    } finally {
      destroyClients(clients);
    }
  });

  it("sends a host's pages unslotted, with why logged, when its slots cannot be reserved; the other host's are slotted", async () => {
    const logged: unknown[] = [];
    const schedule: HostSchedule = {
      reserve: async (host, pages) => {
        if (host === "down.example") throw new Error("table unavailable");
        return Array.from({ length: pages }, (_, i) => NOW + i * 2000);
      },
    };
    const out = await withSlots([page("https://down.example/1"), page("https://up.example/1")], {
      schedule,
      crawlDelaySeconds: async () => null,
      log: (msg, data) => logged.push({ msg, ...data }),
    });
    expect(out.map((m) => m.slot_at)).toEqual([undefined, NOW]);
    expect(logged).toEqual([
      expect.objectContaining({ host: "down.example", error: "Error: table unavailable" }),
    ]);
  });
});
