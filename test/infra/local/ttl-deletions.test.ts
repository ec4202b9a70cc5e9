/**
 * The sweep's ledger on DynamoDB Local: a REMOVE is a TTL deletion only when its keys and its old
 * image's TTL value are the ones noted; a ledger nobody wrote yet names none.
 */
import type { _Record } from "@aws-sdk/client-dynamodb-streams";
import { marshall } from "@aws-sdk/util-dynamodb";
import { afterAll, describe, expect, inject, it } from "vitest";
import { TtlDeletionLog, ttlDeletionsTable } from "../../../infra/local/ttl-deletions";
import { topology } from "../../../infra/topology";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { member } from "../../shared/consumer/cluster-records";
import { uniquePrefix } from "../../support/unique-prefix";

const clients = makeClients({ dynamodb: inject("endpoints").dynamodb }, "us-east-1");
const spec = topology.tables.clusters;

function remove(seq: string, item: Record<string, unknown>, eventName = "REMOVE"): _Record {
  return {
    eventName: eventName as _Record["eventName"],
    dynamodb: {
      Keys: marshall({ cluster_id: item.cluster_id, item: item.item }),
      OldImage: marshall(item),
      SequenceNumber: seq,
    },
  } as _Record;
}

describe("TtlDeletionLog", () => {
  afterAll(() => destroyClients(clients));

  it("names the REMOVEs of the items it noted, by key and TTL value, and nothing before it is written", async () => {
    const log = new TtlDeletionLog(clients, ttlDeletionsTable(uniquePrefix("ttllog")));
    const lookup = log.lookup("t-clusters", spec);
    const a1 = { ...member("c-a", "a1"), expires_at: 1_800_000_000 };
    expect(await lookup([remove("1", a1)])).toEqual(new Set());
    await log.record("t-clusters", spec, [a1], new Date("2027-01-15T12:00:00.000Z"));
    const records = [
      remove("2", a1),
      remove("3", { ...a1, expires_at: 1_800_000_001 }), // written again with another expiry, then deleted
      remove("4", { ...member("c-a", "a2"), expires_at: 1_800_000_000 }),
      remove("5", member("c-a", "a1")), // no TTL value
      remove("6", a1, "MODIFY"),
    ];
    expect(await lookup(records)).toEqual(new Set(["2"]));
    expect(await log.lookup("t-other", spec)([remove("7", a1)])).toEqual(new Set());
  }, 60_000);
});
