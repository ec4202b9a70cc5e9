/**
 * A day's manifest: which files hold the day, with their rows, bytes and sha256. Written after every
 * file it lists, it is the commit point: a reader (and the next run) trusts only what it lists.
 */
import * as z from "zod/mini";
import { ArchiveError } from "./archive-error";

const fileSchema = z.object({
  key: z.string(),
  rows: z.number().check(z.int(), z.gte(0)),
  bytes: z.number().check(z.int(), z.gte(0)),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

export const manifestSchema = z.object({
  manifest_version: z.literal(1),
  day: z.string(),
  run_id: z.string(),
  written_at: z.string(),
  /** The Parquet codec the files use (ZSTD, or GZIP where the runtime has no zstd). */
  codec: z.string(),
  tables: z.object({
    articles: z.array(fileSchema),
    stories: z.array(fileSchema),
    /** Since the revisions table: a manifest written before it reads as none. */
    revisions: z._default(z.array(fileSchema), () => []),
  }),
  /** When the hot window was set on the day's items (null until then: a re-run sets it). */
  marked_at: z.nullable(z.string()),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileSchema>;

export const manifestRows = (m: Manifest, table: keyof Manifest["tables"]): number =>
  m.tables[table].reduce((n, f) => n + f.rows, 0);

export function encodeManifest(m: Manifest): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(m, null, 1)}\n`);
}

/** Reads a manifest, refusing a damaged one with the key and what is wrong. */
export function decodeManifest(key: string, bytes: Uint8Array): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ArchiveError(
      "bad_manifest",
      `${key} is damaged (not JSON): re-run the day's archive to rewrite it`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArchiveError(
      "bad_manifest",
      `${key} is damaged (${issue?.path.join(".") || "the manifest"}: ${issue?.message}): re-run the day's archive to rewrite it`,
    );
  }
  return parsed.data;
}
