/**
 * cdk-nag (AwsSolutions) acknowledgements. cdk-nag v3 has no NagSuppressions: findings are
 * acknowledged with CDK's native Validations API, one exact finding (`Rule[finding]`) at a time, on
 * the narrowest construct, each with the reason it is accepted. Anything else fails the synth.
 */
import { type CfnElement, Stack, Validations } from "aws-cdk-lib";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as iam from "aws-cdk-lib/aws-iam";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type { IConstruct } from "constructs";

/** How cdk-nag prints a construct's Fn::GetAtt Arn inside a finding: `<LogicalId.Arn>`. */
export function arnRef(construct: IConstruct): string {
  const cfn = construct.node.defaultChild as CfnElement;
  return `<${Stack.of(construct).resolve(cfn.logicalId)}.Arn>`;
}

export function acknowledgeAccessLogBucket(bucket: s3.Bucket): void {
  Validations.of(bucket).acknowledge({
    id: "AwsSolutions-S1",
    reason:
      "This is the server access log bucket itself: logging it into itself loops, and a third bucket only moves the finding.",
  });
}

/** Findings on a function's own role: X-Ray, plus object-level grants on the buckets it may use. */
export function acknowledgeFunctionRole(
  role: iam.Role,
  tracing: boolean,
  buckets: readonly {
    bucket: s3.Bucket;
    mode: "read" | "write" | "readwrite";
    /** The object keys granted (`*`, or a prefix's `dataset/*`). */
    keys: string;
    delete: boolean;
  }[],
): void {
  if (tracing) {
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Only xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing) use Resource *: X-Ray has no resource-level permissions for them.",
    });
  }
  for (const { bucket, mode, keys, delete: deletes } of buckets) {
    if (deletes) {
      Validations.of(role).acknowledge({
        id: "AwsSolutions-IAM5[Action::s3:DeleteObject*]",
        reason: `From Bucket.grantDelete: the archive replaces a day's files (a re-run), only under ${keys}.`,
      });
    }
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arnRef(bucket)}/${keys}]`,
      reason:
        "Object-level actions on this one bucket: object keys are derived per article at run time, so they cannot be listed; the bucket itself is not wildcarded.",
    });
    if (mode !== "read") {
      Validations.of(role).acknowledge({
        id: "AwsSolutions-IAM5[Action::s3:Abort*]",
        reason:
          "From Bucket.grantPut: s3:Abort* matches only s3:AbortMultipartUpload, needed by multipart uploads.",
      });
    }
    if (mode !== "write") {
      for (const action of ["s3:GetObject*", "s3:GetBucket*", "s3:List*"]) {
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Action::${action}]`,
          reason: `From Bucket.grantRead (read-only ${action.replace("*", "")} family), scoped to this one bucket and its objects.`,
        });
      }
    }
  }
}

/** CDK's table grants also cover the table's own indexes (`<table>/index/*`): none belongs to another table. */
export function acknowledgeTableIndexes(role: iam.IRole, table: dynamodb.Table): void {
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnRef(table)}/index/*]`,
    reason:
      "The indexes of this one table (the quality λ queries its by-day index); the wildcard cannot reach another table.",
  });
}

/** A table whose data is rebuilt, not restored, has no point-in-time recovery (topology-tables.ts says why). */
export function acknowledgeNoBackup(table: dynamodb.Table, reason: string): void {
  Validations.of(table).acknowledge({
    id: "AwsSolutions-DDB3",
    reason: `No point-in-time recovery: ${reason}`,
  });
}

/** The scheduler's role may invoke exactly one function; CDK's grant also covers its versions/aliases. */
export function acknowledgeSchedulerRole(role: iam.Role, fn: IConstruct): void {
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnRef(fn)}:*]`,
    reason:
      "LambdaInvoke's grant adds the qualified ARN (versions and aliases) of this single function; no other function is reachable.",
  });
}
