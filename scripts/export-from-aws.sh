#!/usr/bin/env bash
# The dataset out of a deployed stack: exports its Clusters, Articles and Frontier tables to S3 with
# DynamoDB's export from point-in-time recovery (on for every table; it reads the backup, not the
# tables, so it costs no read capacity and does not slow the crawl), downloads the files and runs
# `storytrail export --from-s3-export` and `storytrail report --from-s3-export` on them.
#
# Usage: scripts/export-from-aws.sh BUCKET [STACK (Storytrail)] [OUT_DIR (storytrail-export)] [FORMATS (jsonl,csv,parquet)]
# Needs the AWS CLI v2 with credentials allowed dynamodb:ExportTableToPointInTime, dynamodb:DescribeExport,
# dynamodb:DescribeTable, cloudformation:DescribeStacks and s3:PutObject/GetObject/ListBucket on BUCKET.
set -euo pipefail
bucket=${1:?usage: $0 BUCKET [STACK] [OUT_DIR] [FORMATS]}
stack=${2:-Storytrail}
out=${3:-storytrail-export}
formats=${4:-jsonl,csv,parquet}
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix="storytrail-export/$(date -u +%Y%m%dT%H%M%SZ)"
work="$(mktemp -d)"

output() {
  aws cloudformation describe-stacks --stack-name "$stack" \
    --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text
}

tables=(clusters articles frontier)
exports=()
for t in "${tables[@]}"; do
  name="$(output "$(printf %s "${t:0:1}" | tr a-z A-Z)${t:1}TableName")"
  arn="$(aws dynamodb describe-table --table-name "$name" --query Table.TableArn --output text)"
  exports+=("$(aws dynamodb export-table-to-point-in-time --table-arn "$arn" --s3-bucket "$bucket" \
    --s3-prefix "$prefix/$t" --export-format DYNAMODB_JSON --query ExportDescription.ExportArn --output text)")
  echo "exporting $name → s3://$bucket/$prefix/$t" >&2
done

for i in "${!tables[@]}"; do
  t="${tables[$i]}"
  while :; do
    status="$(aws dynamodb describe-export --export-arn "${exports[$i]}" --query ExportDescription.ExportStatus --output text)"
    [ "$status" = COMPLETED ] && break
    if [ "$status" = FAILED ]; then
      aws dynamodb describe-export --export-arn "${exports[$i]}" --query ExportDescription.FailureMessage --output text >&2
      exit 1
    fi
    sleep 30 # exports take minutes, whatever the table's size
  done
  aws s3 cp --recursive --only-show-errors "s3://$bucket/$prefix/$t" "$work/$t"
done

node "$here/bin/storytrail.js" export --from-s3-export "$work" --format "$formats" --out "$out"
node "$here/bin/storytrail.js" report --from-s3-export "$work" --out "$out/report.html"
echo "downloaded export kept in $work" >&2
