/**
 * Each table's lifecycle as the template states it: TTL on `expires_at` where the topology says,
 * point-in-time recovery only where the data cannot be rebuilt, the table class; and the Frontier's
 * window outlasts everything that may still need its item.
 */
import { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { deploySettings } from "../../infra/deploy-settings";
import { tableNames, topology } from "../../infra/topology";
import { topologyTable } from "../../infra/topology-table";
import { DEFAULT_FRONTIER_RETENTION_DAYS } from "../../shared/config/crawl-settings";
import { DEFAULT_DISCOVERY_LIMITS } from "../../shared/discover/discover-source";

function synthesized() {
  const stack = new Stack(new App(), "Tables");
  const { capacity } = deploySettings({});
  const ids = Object.fromEntries(
    tableNames.map((name) => [
      name,
      stack.getLogicalId(topologyTable(stack, name, name, capacity).node.defaultChild as never),
    ]),
  );
  const resources = Template.fromStack(stack).toJSON().Resources as Record<
    string,
    { Properties: Record<string, unknown> }
  >;
  return Object.fromEntries(tableNames.map((name) => [name, resources[ids[name]!]!.Properties]));
}

describe("the tables' lifecycle", () => {
  const tables = synthesized();

  it("expires items on expires_at in every table but Sources", () => {
    const ttl = Object.fromEntries(
      tableNames.map((name) => [name, tables[name]!.TimeToLiveSpecification ?? null]),
    );
    const on = { AttributeName: "expires_at", Enabled: true };
    expect(ttl).toEqual({
      articles: on,
      frontier: on,
      sources: null,
      hosts: on,
      fingerprints: on,
      buckets: on,
      clusters: on,
    });
  });

  it("backs up with point-in-time recovery only the tables that cannot be rebuilt, each with its reason", () => {
    const pitr = Object.fromEntries(
      tableNames.map((name) => [
        name,
        (tables[name]!.PointInTimeRecoverySpecification as { PointInTimeRecoveryEnabled: boolean })
          .PointInTimeRecoveryEnabled,
      ]),
    );
    expect(pitr).toEqual({
      articles: true,
      frontier: true,
      sources: true,
      hosts: false,
      fingerprints: true,
      buckets: false,
      clusters: true,
    });
    for (const name of tableNames) expect(topology.tables[name].backup.reason.length).toBeGreaterThan(20);
  });

  it("puts every table in the Standard class (Standard-IA pays only for tables kept months)", () => {
    for (const name of tableNames) expect(tables[name]!.TableClass).toBe("STANDARD");
  });

  it("keeps a Frontier item longer than a fetch message may still need it and than discovery's news window", () => {
    const fetch = topology.queues.fetch;
    expect(DEFAULT_FRONTIER_RETENTION_DAYS).toBeGreaterThan(
      fetch.retentionDays + fetch.deadLetterRetentionDays,
    );
    expect(DEFAULT_FRONTIER_RETENTION_DAYS).toBeGreaterThan(DEFAULT_DISCOVERY_LIMITS.newsMaxAgeDays);
  });
});
