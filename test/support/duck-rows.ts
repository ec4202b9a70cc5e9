/** One SQL query in a fresh in-memory DuckDB (read_parquet over an archive's files), its rows as JSON. */
import { DuckDBInstance } from "@duckdb/node-api";

export async function duckRows<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
