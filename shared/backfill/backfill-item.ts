/**
 * What the deployed backfill passes around for one WARC file: the Distributed Map's item (bucket, key)
 * and, from the second invocation of a file on, the checkpoint the previous one stopped at. The
 * function's output is the next invocation's input until `done`.
 */
import * as z from "zod/mini";
import type { WarcCheckpoint } from "./import-warc";

const count = z.number().check(z.int(), z.gte(0));

const summarySchema = z.object({
  files: count,
  files_already_imported: count,
  records: count,
  articles: count,
  truncated_articles: z._default(count, 0),
  skipped: z.record(z.string(), count),
  errors: count,
  problems: z.array(z.object({ file: z.string(), offset: count, detail: z.string() })),
});

const checkpointSchema = z.object({
  offset: count,
  record_id: z.nullable(z.string()),
  records_done: count,
  done: z.boolean(),
  summary: summarySchema,
});

export const backfillItemSchema = z.object({
  bucket: z.string().check(z.minLength(3)),
  key: z.string().check(z.minLength(1)),
  checkpoint: z.optional(z.nullable(checkpointSchema)),
});
export type BackfillItem = z.infer<typeof backfillItemSchema>;

export interface BackfillResult {
  readonly bucket: string;
  readonly key: string;
  /** The Map's loop ends when true; otherwise the function is invoked again with this as its input. */
  readonly done: boolean;
  readonly checkpoint: WarcCheckpoint;
}

/** Problems listed in the state passed between invocations (all are counted; each is logged). */
const MAX_PROBLEMS_IN_STATE = 20;

/** The checkpoint as the state machine carries it: the problem list cut, so the state stays small. */
export function resultOf(item: BackfillItem, checkpoint: WarcCheckpoint): BackfillResult {
  const { problems } = checkpoint.summary;
  return {
    bucket: item.bucket,
    key: item.key,
    done: checkpoint.done,
    checkpoint: {
      ...checkpoint,
      summary: { ...checkpoint.summary, problems: problems.slice(0, MAX_PROBLEMS_IN_STATE) },
    },
  };
}
