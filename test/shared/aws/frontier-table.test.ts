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
