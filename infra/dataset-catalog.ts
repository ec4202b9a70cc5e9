/**
 * The archive in the Glue Data Catalog, and an Athena workgroup to query it (docs/dataset.md). The
 * archive (Parquet by collected day in the raw bucket) is written by another step; this declares its
 * tables: columns from the export's own column list (shared/export/tables.ts), partition projection on
 * `dt` (no crawler, no partitions to add), and the Hive symlink lists Athena reads as each day's files,
 * so a reader never sees a day half replaced (the symlink list moves to the new files in one PUT).
 */
import { CfnOutput, Duration, Stack } from "aws-cdk-lib";
import * as athena from "aws-cdk-lib/aws-athena";
import * as glue from "aws-cdk-lib/aws-glue";
import type * as s3 from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import {
  catalogNames,
  type DatasetTableName,
  datasetKeys,
  datasetTableNames,
  outputNames,
} from "../shared/config/resource-names";
import { type ColumnKind, datasetColumns } from "../shared/export/tables";
import { cutoffBytes, type DatasetSettings } from "./dataset-settings";

/**
 * Each export column kind as Athena's Hive DDL reads the Parquet type `storytrail export` writes it in
 * (shared/export/formats.ts): INT32 → int, BOOLEAN → boolean, TIMESTAMP (ms) → timestamp, STRING → string,
 * and the JSON-annotated byte arrays of list columns → string (JSON text: json_parse / json_extract).
 */
export const HIVE_TYPE = {
  string: "string",
  int: "int",
  bool: "boolean",
  timestamp: "timestamp",
  json: "string",
} as const satisfies Record<ColumnKind, string>;

/** Athena writes query results here, in the raw bucket (SSE-S3, public access blocked, TLS only). */
const RESULTS_PREFIX = "athena-results/";
/** A result is read when its query ends or re-downloaded soon after; a month covers a report's rerun. */
const RESULTS_EXPIRY = Duration.days(30);

const DESCRIPTIONS: Readonly<Record<DatasetTableName, string>> = {
  articles:
    "One row per article, by the UTC day it was collected (dt): the columns of `storytrail export`'s articles.",
  stories:
    "One row per live story of the day's articles (dt), as of the archive's run: the columns of `storytrail export`'s stories.",
  revisions:
    "One row per revision an article keeps, by the UTC day that revision was collected (dt): the columns of `storytrail export`'s revisions.",
};

export interface DatasetCatalogProps {
  /** The stack's raw bucket, which holds the archive under `dataset/`. */
  readonly bucket: s3.Bucket;
  readonly settings: DatasetSettings;
}

export class DatasetCatalog extends Construct {
  readonly database: glue.CfnDatabase;
  readonly tables = {} as Record<DatasetTableName, glue.CfnTable>;
  readonly workGroup: athena.CfnWorkGroup;

  constructor(scope: Construct, id: string, props: DatasetCatalogProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const databaseName = catalogNames.database(stack.stackName);
    this.database = new glue.CfnDatabase(this, "Database", {
      catalogId: stack.account,
      databaseInput: {
        name: databaseName,
        description:
          "storytrail's archive: articles and stories and their revisions as Parquet, by collected day (docs/dataset.md).",
      },
    });
    for (const name of datasetTableNames) {
      const table = this.table(name, databaseName, props);
      table.node.addDependency(this.database);
      this.tables[name] = table;
    }

    props.bucket.addLifecycleRule({ prefix: RESULTS_PREFIX, expiration: RESULTS_EXPIRY });
    this.workGroup = new athena.CfnWorkGroup(this, "WorkGroup", {
      name: catalogNames.workGroup(stack.stackName),
      description:
        "Queries over storytrail's archive: results encrypted in the stack's bucket, bytes scanned capped.",
      state: "ENABLED",
      workGroupConfiguration: {
        // Clients cannot send results elsewhere, unencrypted, or lift the cutoff.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: cutoffBytes(props.settings),
        engineVersion: { selectedEngineVersion: "AUTO" },
        resultConfiguration: {
          outputLocation: props.bucket.s3UrlForObject(RESULTS_PREFIX),
          encryptionConfiguration: { encryptionOption: "SSE_S3" },
          expectedBucketOwner: stack.account,
        },
      },
    });

    new CfnOutput(stack, outputNames.datasetDatabase, {
      value: databaseName,
      description: "Glue database of the archive (tables articles and stories, partitioned by dt).",
    });
    new CfnOutput(stack, outputNames.datasetWorkGroup, {
      value: this.workGroup.name,
      description: "Athena workgroup for the archive (encrypted results, per-query bytes cutoff).",
    });
  }

  private table(name: DatasetTableName, databaseName: string, props: DatasetCatalogProps): glue.CfnTable {
    const stack = Stack.of(this);
    const symlinks = props.bucket.s3UrlForObject(datasetKeys.athenaSymlinks(name));
    return new glue.CfnTable(this, `${name.charAt(0).toUpperCase()}${name.slice(1)}Table`, {
      catalogId: stack.account,
      databaseName,
      tableInput: {
        name,
        description: DESCRIPTIONS[name],
        tableType: "EXTERNAL_TABLE",
        parameters: {
          classification: "parquet",
          // Partition projection: Athena computes each day's location; nothing registers partitions.
          "projection.enabled": "true",
          "projection.dt.type": "date",
          "projection.dt.format": "yyyy-MM-dd",
          "projection.dt.range": `${props.settings.first_day},NOW`,
          "projection.dt.interval": "1",
          "projection.dt.interval.unit": "DAYS",
          // A day's current files, listed by the archive after writing them (not the day's Parquet
          // folder, which may hold a re-run's new files beside the old until the manifest commits).
          "storage.location.template": `${symlinks}dt=\${dt}/`,
        },
        partitionKeys: [{ name: "dt", type: "string", comment: "UTC day collected (YYYY-MM-DD)" }],
        storageDescriptor: {
          location: symlinks,
          columns: datasetColumns[name].map((c) => ({ name: c.name, type: HIVE_TYPE[c.kind] })),
          inputFormat: "org.apache.hadoop.hive.ql.io.SymlinkTextInputFormat",
          outputFormat: "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
          serdeInfo: {
            serializationLibrary: "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
          },
        },
      },
    });
  }
}
