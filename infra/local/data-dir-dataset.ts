/**
 * A local run's dataset: DynamoDB Local started on a data directory (as `storytrail crawl` leaves it),
 * read through the same adapter a deployed stack's tables are read with.
 */
import { join, resolve } from "node:path";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDatasetReader, ExportFilesReader } from "../../shared/aws/dataset-reader";
import { makeDynamoClients } from "../../shared/aws/dynamo-clients";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { DatasetSource } from "../../shared/export/dataset";
import { LocalStore } from "../../shared/local-store/local-store";
import { hasLocalStore } from "../../shared/local-store/store-folder";
import { startEmulators } from "./emulators";
import { isMissingTable, NotARunError } from "./not-a-run-error";
import { physicalNames } from "./resources";

/**
 * Runs `use` with the data directory's tables open; the emulators stop afterwards, whatever happens.
 * The caller has checked that the folder holds a run (cli/run-folder.ts): DynamoDB Local would create
 * an empty database in any folder it is given.
 */
async function withLocalDataset<T>(dataDir: string, use: (source: DatasetSource) => Promise<T>): Promise<T> {
  const dynamoPath = join(resolve(dataDir), "dynamodb");
  const emulators = await startEmulators({ dynamoPath });
  const { dynamo, doc } = makeDynamoClients(emulators.endpoints, "us-east-1");
  try {
    const names = physicalNames(LOCAL_PREFIX);
    const tables = {
      clusters: names.table("clusters"),
      articles: names.table("articles"),
      frontier: names.table("frontier"),
    };
    for (const t of Object.values(tables)) {
      try {
        await dynamo.send(new DescribeTableCommand({ TableName: t }));
      } catch (err) {
        if (isMissingTable(err)) throw new NotARunError(dataDir, t);
        throw err;
      }
    }
    return await use(new DynamoDatasetReader(doc, tables));
  } finally {
    dynamo.destroy();
    await emulators.stop();
  }
}

/**
 * The dataset a command names: a downloaded DynamoDB export when given, else the local data directory,
 * whichever store it holds (an import's embedded store, or a crawl's DynamoDB Local tables).
 */
export async function withDataset<T>(
  where: { readonly dataDir: string; readonly fromS3Export?: string | undefined },
  use: (source: DatasetSource) => Promise<T>,
): Promise<T> {
  if (where.fromS3Export) return use(new ExportFilesReader(resolve(where.fromS3Export)));
  if (hasLocalStore(where.dataDir)) {
    const store = LocalStore.open(where.dataDir);
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }
  return withLocalDataset(where.dataDir, use);
}
