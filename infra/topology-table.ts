/**
 * One topology table as a CDK table, in the deployment's capacity mode: on demand, or provisioned at
 * the minimum with auto scaling (target tracking) on reads and writes of the table and each index.
 */
import { RemovalPolicy } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type { Construct } from "constructs";
import type { CapacityOptions, ProvisionedCapacity } from "./deploy-settings";
import { acknowledgeNoBackup } from "./nag-suppressions";
import { type KeyAttr, type TableName, topology } from "./topology";

const attribute = (key: KeyAttr): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === "S" ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

export function topologyTable(
  scope: Construct,
  id: string,
  name: TableName,
  capacity: CapacityOptions,
): dynamodb.Table {
  const spec = topology.tables[name];
  const provisioned = capacity.mode === "provisioned" ? capacity : null;
  // Provisioned: start at the minimum; auto scaling moves each table and index within min..max.
  const units = provisioned
    ? { readCapacity: provisioned.read_min, writeCapacity: provisioned.write_min }
    : {};
  const table = new dynamodb.Table(scope, id, {
    partitionKey: attribute(spec.partitionKey),
    sortKey: spec.sortKey ? attribute(spec.sortKey) : undefined,
    billingMode: provisioned ? dynamodb.BillingMode.PROVISIONED : dynamodb.BillingMode.PAY_PER_REQUEST,
    ...units,
    // Per table, with its reason (topology-tables.ts): only what cannot be rebuilt is backed up.
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: spec.backup.pointInTimeRecovery },
    tableClass: dynamodb.TableClass[spec.tableClass],
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    stream: spec.stream ? dynamodb.StreamViewType[spec.stream] : undefined,
    timeToLiveAttribute: spec.timeToLiveAttribute,
    // Every table holds data that cannot be recomputed cheaply (crawl history, clusters, LSH index).
    removalPolicy: RemovalPolicy.RETAIN,
  });
  if (!spec.backup.pointInTimeRecovery) acknowledgeNoBackup(table, spec.backup.reason);
  for (const [indexName, index] of Object.entries(spec.indexes ?? {})) {
    table.addGlobalSecondaryIndex({
      indexName,
      partitionKey: attribute(index.partitionKey),
      sortKey: index.sortKey ? attribute(index.sortKey) : undefined,
      projectionType: dynamodb.ProjectionType.INCLUDE,
      nonKeyAttributes: [...index.include],
      ...units,
    });
  }
  if (provisioned) autoScale(table, Object.keys(spec.indexes ?? {}), provisioned);
  return table;
}

/** Target tracking on reads and writes of the table and each of its indexes. */
function autoScale(table: dynamodb.Table, indexes: readonly string[], p: ProvisionedCapacity): void {
  const reads = { minCapacity: p.read_min, maxCapacity: p.read_max };
  const writes = { minCapacity: p.write_min, maxCapacity: p.write_max };
  const target = { targetUtilizationPercent: p.target_utilization_percent };
  table.autoScaleReadCapacity(reads).scaleOnUtilization(target);
  table.autoScaleWriteCapacity(writes).scaleOnUtilization(target);
  for (const index of indexes) {
    table.autoScaleGlobalSecondaryIndexReadCapacity(index, reads).scaleOnUtilization(target);
    table.autoScaleGlobalSecondaryIndexWriteCapacity(index, writes).scaleOnUtilization(target);
  }
}
