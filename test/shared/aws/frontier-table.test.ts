/**
 * The Frontier's delivery notes on DynamoDB Local: a page put back again and again keeps where its run
 * of put-backs started, so the delivery after it still finds a killed delivery before the run; an
 * outcome from a stale earlier delivery is refused once a later one wrote.
 */
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { FrontierTable } from "../../../shared/aws/frontier-table";
import { StaleDeliveryError } from "../../../shared/crawl/ports";
import { uniquePrefix } from "../../support/unique-prefix";

const URL_A = "https://news.example/a";
const NOW = "2026-12-05T00:00:00.000Z";

async function setup(name: string) {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix(name));
  const frontier = new FrontierTable(clients.doc, res.tables.frontier);
  await frontier.claim({ url: URL_A, source_id: "s", run_id: "r", lastmod: null, now: NOW });
  return { frontier, close: () => destroyClients(clients) };
}

/** A fetched outcome of URL_A stamped with its delivery (and message). */
const fetchedBy = (frontier: FrontierTable, delivery: number, message?: string) =>
  frontier.markFetched(URL_A, {
    article_id: "x",
    http_status: 200,
    etag: null,
    last_modified: null,
    now: NOW,
    delivery,
    message,
  });

describe("FrontierTable delivery notes", () => {
  it("keeps the start of a run of put-backs, and starts a new run after a delivery that was not put back", async () => {
    const { frontier, close } = await setup("frontier-skips");
    try {
      const skip = (delivery: number) =>
        frontier.markSkipped(URL_A, { delivery, detail: "put back", now: NOW });
      await skip(2);
      await skip(3);
      await skip(4);
      expect(await frontier.get(URL_A)).toMatchObject({
        skipped_from: 2,
        skipped_delivery: 4,
        status: "queued",
      });
      // Delivery 5 fetched it; delivery 7 put back after a delivery 6 that was not: a new run.
      await skip(7);
      expect(await frontier.get(URL_A)).toMatchObject({ skipped_from: 7, skipped_delivery: 7 });
    } finally {
      close();
    }
  });

  it("refuses an outcome of a stale delivery once a later delivery recorded its own", async () => {
    const { frontier, close } = await setup("frontier-stale");
    try {
      await frontier.markFailed(URL_A, {
        reason: "timeout",
        detail: "d3",
        http_status: null,
        now: NOW,
        delivery: 3,
      });
      await expect(fetchedBy(frontier, 2)).rejects.toBeInstanceOf(StaleDeliveryError);
      expect(await frontier.get(URL_A)).toMatchObject({ status: "failed", last_delivery: 3, attempts: 1 });
    } finally {
      close();
    }
  });

  it("refuses the late outcome of a delivery a later one marked killed, and of one before a put-back", async () => {
    const { frontier, close } = await setup("frontier-killed");
    try {
      const failed = (delivery: number, reason: "killed" | "timeout") =>
        frontier.markFailed(URL_A, { reason, detail: reason, http_status: null, now: NOW, delivery });
      // Delivery 2, put back, marked delivery 1 killed: delivery 1 running on cannot record its timeout.
      await frontier.markSkipped(URL_A, { delivery: 2, detail: "put back", now: NOW });
      expect(await failed(1, "killed")).toBe(1);
      await expect(failed(1, "timeout")).rejects.toBeInstanceOf(StaleDeliveryError);
      // Nor can a delivery put back after (3) be overtaken by delivery 2's late outcome.
      await frontier.markSkipped(URL_A, { delivery: 3, detail: "put back", now: NOW });
      await expect(failed(2, "timeout")).rejects.toBeInstanceOf(StaleDeliveryError);
      expect(await frontier.get(URL_A)).toMatchObject({ reason: "killed", last_delivery: 1, attempts: 1 });
      // Delivery 4 records its own outcome.
      expect(await failed(4, "timeout")).toBe(2);
    } finally {
      close();
    }
  });

  it("compares deliveries only within one message: a message sent again (redrive, restored run) counts from 1", async () => {
    const { frontier, close } = await setup("frontier-messages");
    try {
      const fetched = (delivery: number, message: string) => fetchedBy(frontier, delivery, message);
      // Message m1 was put back at deliveries 2 and 3, then went to the DLQ; its redrive is message m2.
      await frontier.markSkipped(URL_A, { delivery: 2, message: "m1", detail: "put back", now: NOW });
      await frontier.markSkipped(URL_A, { delivery: 3, message: "m1", detail: "put back", now: NOW });
      expect(await frontier.get(URL_A)).toMatchObject({
        skipped_from: 2,
        skipped_delivery: 3,
        delivery_message: "m1",
      });
      // m1's earlier delivery is stale; m2's first is not, though its number is lower.
      await expect(fetched(1, "m1")).rejects.toBeInstanceOf(StaleDeliveryError);
      await fetched(1, "m2");
      expect(await frontier.get(URL_A)).toMatchObject({
        status: "fetched",
        last_delivery: 1,
        delivery_message: "m2",
      });
      // Within m2 the numbers compare again; a put-back of m2 starts its own run.
      await frontier.markSkipped(URL_A, { delivery: 2, message: "m2", detail: "put back", now: NOW });
      expect(await frontier.get(URL_A)).toMatchObject({ skipped_from: 2, skipped_delivery: 2 });
      await expect(fetched(1, "m2")).rejects.toBeInstanceOf(StaleDeliveryError);
    } finally {
      close();
    }
  });
});

describe("FrontierTable expiry (TTL expires_at, epoch seconds, from the caller's clock)", () => {
  const DAY = 86_400;
  const epoch = (iso: string) => Date.parse(iso) / 1000;
  const at = (days: number) => new Date(Date.parse(NOW) + days * DAY * 1000).toISOString();

  async function fresh(name: string) {
    const clients = makeClients(inject("endpoints"));
    const res = await createLocalResources(clients, uniquePrefix(name));
    const frontier = new FrontierTable(clients.doc, res.tables.frontier, { retentionDays: 30 });
    const claim = (url: string, lastmod: string | null, now: string, run_id = `r-${now}`) =>
      frontier.claim({ url, source_id: "s", run_id, lastmod, now });
    const expiry = async (url: string) => (await frontier.get(url))?.expires_at;
    return { frontier, claim, expiry, close: () => destroyClients(clients) };
  }

  it("sets the window from each write: the claim, the fetch outcome and a failure", async () => {
    const { frontier, claim, expiry, close } = await fresh("frontier-ttl-writes");
    try {
      expect(await claim(URL_A, null, NOW)).toBe("new");
      expect(await expiry(URL_A)).toBe(epoch(NOW) + 30 * DAY);
      await frontier.markFetched(URL_A, {
        article_id: "x",
        http_status: 200,
        etag: null,
        last_modified: null,
        now: at(2),
      });
      expect(await expiry(URL_A)).toBe(epoch(at(2)) + 30 * DAY);
      const URL_B = "https://news.example/b";
      await claim(URL_B, null, NOW);
      await frontier.markFailed(URL_B, { reason: "timeout", detail: "t", http_status: null, now: at(3) });
      expect(await expiry(URL_B)).toBe(epoch(at(3)) + 30 * DAY);
    } finally {
      close();
    }
  });

  it("claims a fetched URL again on a newer lastmod, with a new window, and never on an unchanged one", async () => {
    const { frontier, claim, close } = await fresh("frontier-ttl-lastmod");
    try {
      await claim(URL_A, "2026-12-04T10:00:00.000Z", NOW);
      await frontier.markFetched(URL_A, {
        article_id: "x",
        http_status: 200,
        etag: null,
        last_modified: null,
        now: NOW,
      });
      expect(await claim(URL_A, "2026-12-04T10:00:00.000Z", at(1))).toBe("seen");
      expect(await claim(URL_A, "2026-12-06T08:00:00.000Z", at(20))).toBe("updated");
      expect(await frontier.get(URL_A)).toMatchObject({
        status: "queued",
        expires_at: epoch(at(20)) + 30 * DAY,
      });
    } finally {
      close();
    }
  });

  it("keeps a URL that stays listed: a sighting past half the window renews it, an earlier one writes nothing", async () => {
    const { frontier, claim, expiry, close } = await fresh("frontier-ttl-sighting");
    try {
      await claim(URL_A, null, NOW);
      await frontier.markFetched(URL_A, {
        article_id: "x",
        http_status: 200,
        etag: null,
        last_modified: null,
        now: NOW,
      });
      // Day 10: two thirds of the window left, nothing written.
      expect(await claim(URL_A, null, at(10))).toBe("seen");
      expect(await expiry(URL_A)).toBe(epoch(NOW) + 30 * DAY);
      // Day 16: under half left, renewed from the sighting; the item is otherwise unchanged.
      expect(await claim(URL_A, null, at(16))).toBe("seen");
      expect(await frontier.get(URL_A)).toMatchObject({
        status: "fetched",
        updated_at: NOW,
        expires_at: epoch(at(16)) + 30 * DAY,
      });
    } finally {
      close();
    }
  });
});
