/** One table as JSONL, CSV (RFC 4180) or Parquet bytes. */
import { parquetWriteBuffer } from "hyparquet-writer";
import type { Column, ColumnKind, Table } from "./tables";

export const exportFormats = ["jsonl", "csv", "parquet"] as const;
export type ExportFormat = (typeof exportFormats)[number];

function jsonl(t: Table): string {
  return t.rows
    .map((r) => `${JSON.stringify(Object.fromEntries(t.columns.map((c) => [c.name, r[c.name] ?? null])))}\n`)
    .join("");
}

function csvCell(v: unknown, kind: ColumnKind): string {
  if (v === null || v === undefined) return "";
  const s = kind === "json" ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(t: Table): string {
  const lines = [t.columns.map((c) => c.name).join(",")];
  for (const r of t.rows) lines.push(t.columns.map((c) => csvCell(r[c.name], c.kind)).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

const PARQUET_TYPE = {
  string: "STRING",
  int: "INT32",
  bool: "BOOLEAN",
  timestamp: "TIMESTAMP",
  json: "JSON",
} as const satisfies Record<ColumnKind, string>;

function parquetValue(v: unknown, kind: ColumnKind): unknown {
  if (v === null || v === undefined) return null;
  return kind === "timestamp" ? new Date(String(v)) : v;
}

/** The rows as hyparquet-writer's column data, one typed column each (the archive writes them too). */
export function parquetColumnData(columns: readonly Column[], rows: readonly Record<string, unknown>[]) {
  return columns.map((c) => ({
    name: c.name,
    type: PARQUET_TYPE[c.kind],
    data: rows.map((r) => parquetValue(r[c.name], c.kind)),
  }));
}

function parquet(t: Table): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: parquetColumnData(t.columns, t.rows),
    createdBy: "storytrail export",
  });
  return new Uint8Array(buffer);
}

export function encodeTable(t: Table, format: ExportFormat): Uint8Array | string {
  if (format === "jsonl") return jsonl(t);
  if (format === "csv") return csv(t);
  return parquet(t);
}
