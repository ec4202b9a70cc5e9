/**
 * The archive's Glue catalog and Athena workgroup, as the template declares them: tables with the
 * export's columns (never a second list), partition projection on dt over the Hive symlink lists, the
 * Parquet SerDe; a workgroup that enforces encrypted results in the stack's bucket and a bytes cutoff.
 */
import { App, Stack } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import * as s3 from "aws-cdk-lib/aws-s3";
import { AwsSolutionsChecks } from "cdk-nag";
import { describe, expect, it } from "vitest";
import { DatasetCatalog, HIVE_TYPE } from "../../infra/dataset-catalog";
import { deploySettings } from "../../infra/deploy-settings";
import { datasetColumns } from "../../shared/export/tables";

function synth(settings: Record<string, unknown> = {}) {
  const stack = new Stack(new App(), "News-Stack");
  const bucket = new s3.Bucket(stack, "Raw", {
    encryption: s3.BucketEncryption.S3_MANAGED,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
  });
  const catalog = new DatasetCatalog(stack, "Dataset", {
    bucket,
    settings: deploySettings({ dataset: settings }).ops.dataset,
  });
  const bucketId = stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  return { stack, catalog, bucketId, template: Template.fromStack(stack) };
}

/** `s3://<the bucket>/<key>` as CloudFormation joins it. */
const s3Url = (bucketId: string, key: string) => ({
  "Fn::Join": ["", ["s3://", { Ref: bucketId }, `/${key}`]],
});

describe("the dataset catalog", () => {
  const { stack, bucketId, template } = synth();

  it("has one database, named from the stack", () => {
    template.resourceCountIs("AWS::Glue::Database", 1);
    template.hasResourceProperties("AWS::Glue::Database", {
      CatalogId: { Ref: "AWS::AccountId" },
      DatabaseInput: { Name: "news_stack_dataset" },
    });
  });

  it.each(["articles", "stories", "revisions"] as const)(
    "%s: the export's columns as Hive types, dt projected over the symlink lists, Parquet SerDe",
    (name) => {
      const symlinks = `dataset/_athena/${name}/`;
      template.hasResourceProperties("AWS::Glue::Table", {
        DatabaseName: "news_stack_dataset",
        TableInput: {
          Name: name,
          TableType: "EXTERNAL_TABLE",
          PartitionKeys: [Match.objectLike({ Name: "dt", Type: "string" })],
          Parameters: {
            classification: "parquet",
            "projection.enabled": "true",
            "projection.dt.type": "date",
            "projection.dt.format": "yyyy-MM-dd",
            "projection.dt.range": "2016-08-01,NOW",
            "projection.dt.interval": "1",
            "projection.dt.interval.unit": "DAYS",
            "storage.location.template": {
              "Fn::Join": ["", ["s3://", { Ref: bucketId }, `/${symlinks}dt=\${dt}/`]],
            },
          },
          StorageDescriptor: {
            Location: s3Url(bucketId, symlinks),
            Columns: datasetColumns[name].map((c) => ({ Name: c.name, Type: HIVE_TYPE[c.kind] })),
            InputFormat: "org.apache.hadoop.hive.ql.io.SymlinkTextInputFormat",
            OutputFormat: "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            SerdeInfo: {
              SerializationLibrary: "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
            },
          },
        },
      });
    },
  );

  it("maps the kinds as the export writes them: timestamps, ints, booleans, lists as JSON text; no dt column inside", () => {
    const types = Object.fromEntries(datasetColumns.articles.map((c) => [c.name, HIVE_TYPE[c.kind]]));
    expect(types).toMatchObject({
      collected_at: "timestamp",
      word_count: "int",
      is_accessible_for_free: "boolean",
      authors: "string",
      url_variants: "string",
      body: "string",
    });
    for (const name of ["articles", "stories", "revisions"] as const)
      expect(datasetColumns[name].map((c) => c.name)).not.toContain("dt");
  });

  it("has a workgroup that enforces SSE results under its own prefix, a bytes cutoff and the automatic engine", () => {
    template.hasResourceProperties("AWS::Athena::WorkGroup", {
      Name: "News-Stack-dataset",
      State: "ENABLED",
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: true,
        PublishCloudWatchMetricsEnabled: true,
        BytesScannedCutoffPerQuery: 100 * 2 ** 30,
        EngineVersion: { SelectedEngineVersion: "AUTO" },
        ResultConfiguration: {
          OutputLocation: s3Url(bucketId, "athena-results/"),
          EncryptionConfiguration: { EncryptionOption: "SSE_S3" },
          ExpectedBucketOwner: { Ref: "AWS::AccountId" },
        },
      },
    });
    // Results expire; the rest of the bucket keeps its own rules.
    template.hasResourceProperties("AWS::S3::Bucket", {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([{ Prefix: "athena-results/", ExpirationInDays: 30, Status: "Enabled" }]),
      },
    });
  });

  it("outputs the database and workgroup names", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.DatasetDatabaseName?.Value).toBe("news_stack_dataset");
    expect(outputs.DatasetWorkGroupName?.Value).toBe("News-Stack-dataset");
  });

  it("takes the first day and the cutoff from the deploy settings, and refuses bad ones", () => {
    const { template: t } = synth({ first_day: "2024-01-01", bytes_scanned_cutoff_gib: 1 });
    t.hasResourceProperties("AWS::Glue::Table", {
      TableInput: { Parameters: Match.objectLike({ "projection.dt.range": "2024-01-01,NOW" }) },
    });
    t.hasResourceProperties("AWS::Athena::WorkGroup", {
      WorkGroupConfiguration: Match.objectLike({ BytesScannedCutoffPerQuery: 2 ** 30 }),
    });
    expect(() => deploySettings({ dataset: { first_day: "2024-1-1" } })).toThrow(/first_day/);
    expect(() => deploySettings({ dataset: { bytes_scanned_cutoff_gib: 0 } })).toThrow(
      /bytes_scanned_cutoff_gib/,
    );
  });

  it("passes cdk-nag AwsSolutions with nothing to acknowledge", () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    const findings = report.violations
      .filter((v) => v.violatingResources.some((r) => (r.constructPath ?? "").includes("/Dataset")))
      .map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);
    expect(findings).toEqual([]);
  });
});
