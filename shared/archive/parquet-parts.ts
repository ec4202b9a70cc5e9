/**
 * One table's rows of a day as Parquet files, streamed: rows are buffered one row group at a time, each
 * group is encoded and compressed as it fills, and a file is closed and handed on once it reaches its
 * row or byte cap. Memory is one row group's rows plus the open file's compressed bytes, whatever the
 * day's size (bench --only archive measures it).
 */
import { createHash } from "node:crypto";
import { ByteWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer";
import { parquetColumnData } from "../export/formats";
import type { Column } from "../export/tables";
import type { ParquetCodec } from "./parquet-codec";

export interface PartLimits {
  /** Rows per row group: bounds the rows held before encoding. */
  readonly rowGroupRows: number;
  /** A file is closed after this many compressed bytes (at a row-group boundary). */
  readonly fileBytes: number;
}

export interface ParquetPart {
  readonly n: number;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  /** The file's bytes, in the chunks they were written in (never joined into one buffer). */
  readonly chunks: readonly Uint8Array[];
}

/** A ByteWriter whose `flush` (called after each row group) moves the written bytes out of its buffer. */
class ChunkWriter extends ByteWriter {
  readonly chunks: Uint8Array[] = [];
  readonly hash = createHash("sha256");
  bytes = 0;

  flush(): void {
    if (this.index === 0) return;
    const chunk = new Uint8Array(this.buffer.slice(0, this.index));
    this.chunks.push(chunk);
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }
}

export class ParquetParts {
  private rows: Record<string, unknown>[] = [];
  private writer: { pq: ParquetWriter; out: ChunkWriter; rows: number } | undefined;
  private n = 0;

  constructor(
    private readonly columns: readonly Column[],
    private readonly codec: ParquetCodec,
    private readonly limits: PartLimits,
    /** Receives each finished file; the next row group waits for it (the upload's back-pressure). */
    private readonly onPart: (part: ParquetPart) => Promise<void>,
  ) {}

  async add(row: Record<string, unknown>): Promise<void> {
    this.rows.push(row);
    if (this.rows.length >= this.limits.rowGroupRows) await this.writeGroup();
  }

  /** Writes what is buffered and closes the open file. */
  async end(): Promise<void> {
    await this.writeGroup();
    await this.closeFile();
  }

  private async writeGroup(): Promise<void> {
    const rows = this.rows;
    if (rows.length === 0) return;
    this.rows = [];
    const columnData = parquetColumnData(this.columns, rows);
    if (!this.writer) {
      const out = new ChunkWriter();
      const pq = new ParquetWriter({
        writer: out,
        schema: schemaFromColumnData({ columnData }),
        codec: this.codec.name,
        compressors: { [this.codec.name]: this.codec.compress },
        createdBy: "storytrail archive",
      });
      this.writer = { pq, out, rows: 0 };
    }
    await this.writer.pq.write({ columnData, rowGroupSize: rows.length });
    this.writer.rows += rows.length;
    if (this.writer.out.bytes >= this.limits.fileBytes) await this.closeFile();
  }

  private async closeFile(): Promise<void> {
    const w = this.writer;
    if (!w) return;
    this.writer = undefined;
    await w.pq.finish();
    await this.onPart({
      n: this.n++,
      rows: w.rows,
      bytes: w.out.bytes,
      sha256: w.out.hash.digest("hex"),
      chunks: w.out.chunks,
    });
  }
}
