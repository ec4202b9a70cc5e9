/**
 * A local run's dataset: DynamoDB Local started on a data directory (as `storytrail crawl` leaves it),
 * read through the same adapter a deployed stack's tables are read with.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { DescribeTableCommand, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { DynamoDatasetReader, ExportFilesReader } from "../../shared/aws/dataset-reader";
import { makeDynamoClients } from "../../shared/aws/dynamo-clients";
import type { DatasetSource } from "../../shared/export/dataset";
import { hasLocalStore, LocalStore } from "../../shared/local-store/local-store";
import { startEmulators } from "./emulators";
import { physicalNames } from "./resources";

/** The prefix `storytrail crawl` gives every local table. */
const LOCAL_PREFIX = "storytrail-";

/** Runs `use` with the data directory's tables open; the emulators stop afterwards, whatever happens. */
async function withLocalDataset<T>(dataDir: string, use: (source: DatasetSource) => Promise<T>): Promise<T> {
  const dynamoPath = join(resolve(dataDir), "dynamodb");
  if (!existsSync(dynamoPath))
    throw new Error(
      `no local tables in ${dataDir} (no dynamodb/ folder): run \`storytrail crawl --data-dir ${dataDir}\` first`,
    );
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
        if (err instanceof ResourceNotFoundException)
          throw new Error(`${dataDir} holds no ${t} table: was it written by \`storytrail crawl\`?`);
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
