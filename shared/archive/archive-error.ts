/** The archive's refusals, each with a code to branch on and a message that names the day and the fix. */
export type ArchiveErrorCode =
  /** Not a `YYYY-MM-DD` day. */
  | "bad_day"
  /** A step event the archive function does not know (the state machine and the function disagree). */
  | "bad_step"
  /** The day's manifest is not JSON or not a manifest: the day is left as it is until it is re-run. */
  | "bad_manifest"
  /** A file the manifest lists is missing or differs from its checksum. */
  | "missing_file"
  /** Another run holds the day's lease: two runs of one day never interleave. */
  | "day_busy"
  /** The object store refused a write, a read or a delete. */
  | "store_refused";

export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ArchiveError";
  }
}
