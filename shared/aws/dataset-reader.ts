/**
 * Adapters of the export's `DatasetSource`: the Clusters and Articles tables read with Scan (a local
 * data directory or a deployed stack), or the files of a DynamoDB export to S3 once downloaded.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type DynamoDBDocumentClient, paginateScan } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DatasetSource } from "../export/dataset";

async function* scanTable(doc: DynamoDBDocumentClient, tableName: string) {
  for await (const page of paginateScan({ client: doc }, { TableName: tableName })) {
    yield* (page.Items ?? []) as Record<string, unknown>[];
  }
}

export class DynamoDatasetReader implements DatasetSource {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: {
      readonly clusters: string;
      readonly articles: string;
      readonly frontier: string;
    },
  ) {}

  clusterItems() {
    return scanTable(this.doc, this.tables.clusters);
  }

  articleItems() {
    return scanTable(this.doc, this.tables.articles);
  }

  frontierItems() {
    return scanTable(this.doc, this.tables.frontier);
  }
}

/** Every `*.json.gz` / `*.json` data file under `dir` (an export's `AWSDynamoDB/<id>/data/`), sorted. */
function dataFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (/\.json(\.gz)?$/.test(e.name) && !/manifest/.test(e.name)) out.push(p);
    }
  }
  return out.sort();
}

/** The items of one table's DynamoDB JSON export: one `{"Item": {…}}` per line. */
async function* exportItems(dir: string): AsyncGenerator<Record<string, unknown>> {
  const files = dataFiles(dir);
  if (files.length === 0) throw new Error(`no DynamoDB export data files (*.json.gz) under ${dir}`);
  for (const file of files) {
    const raw = readFileSync(file);
    const text = (file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
    let lineNo = 0;
    for (const line of text.split("\n")) {
      lineNo++;
      if (!line.trim()) continue;
      let parsed: { Item?: Record<string, unknown> };
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${lineNo}: not a JSON line of a DynamoDB export`);
      }
      if (!parsed.Item) throw new Error(`${file}:${lineNo}: no "Item" (is this a DYNAMODB_JSON export?)`);
      yield unmarshall(parsed.Item as never) as Record<string, unknown>;
    }
  }
}

/** A downloaded export: `<dir>/clusters/…`, `<dir>/articles/…` and optionally `<dir>/frontier/…` (see scripts/export-from-aws.sh). */
export class ExportFilesReader implements DatasetSource {
  constructor(private readonly dir: string) {}

  clusterItems() {
    return exportItems(join(this.dir, "clusters"));
  }

  articleItems() {
    return exportItems(join(this.dir, "articles"));
  }

  /** Optional: the report's failure counts need it, the export does not. */
  async *frontierItems() {
    if (existsSync(join(this.dir, "frontier"))) yield* exportItems(join(this.dir, "frontier"));
  }
}
