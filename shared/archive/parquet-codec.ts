/**
 * The archive's Parquet compression, pluggable. hyparquet-writer 0.17.0 has Snappy built in and takes
 * any other codec as a `(bytes) => bytes` compressor. Zstd comes from Node's own zlib where it has it
 * (`zstdCompressSync`: Node 22.15+ and 24, so every Lambda, which runs nodejs24.x); Node 20 has none, and
 * there the archive writes GZIP (zlib, level 6), which DuckDB, Athena, Spark and Trino read as well.
 * A pure-WASM zstd for Node 20 would be `@bokuweb/zstd-wasm` (not installed: see docs/archive.md).
 */
import * as zlib from "node:zlib";

export interface ParquetCodec {
  readonly name: "ZSTD" | "GZIP";
  readonly compress: (bytes: Uint8Array) => Uint8Array;
}

type ZstdCompress = (bytes: Uint8Array, options?: { params?: Record<number, number> }) => Uint8Array;

/** Zstd level 3 (zstd's own default); `ZSTD_c_compressionLevel` is parameter 100. */
const ZSTD_LEVEL = 3;

/** The best codec this runtime has: ZSTD when Node's zlib offers it, else GZIP. */
export function archiveCodec(): ParquetCodec {
  const zstd = (zlib as unknown as { zstdCompressSync?: ZstdCompress }).zstdCompressSync;
  if (zstd) return { name: "ZSTD", compress: (b) => zstd(b, { params: { 100: ZSTD_LEVEL } }) };
  return { name: "GZIP", compress: (b) => zlib.gzipSync(b) };
}
