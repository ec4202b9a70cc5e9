/**
 * A discover-queue message: one source to discover in one run. The dispatcher sends it, the discover λ
 * reads it. It carries the source's config as the dispatcher read it, so a push during a run changes
 * only later runs. Internal to the pipeline (not a record consumers read).
 */
import { parseSources, type Source } from "../discover/sources";

export interface DiscoverMessage {
  /** Every source started by one tick shares it; a redelivery re-sends that run's claims, not new ones. */
  readonly run_id: string;
  readonly source: Source;
}

/** Reads a message body; throws an Error naming what is wrong (the consumer reports the message as failed). */
export function parseDiscoverMessage(body: string): DiscoverMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error("discover message: not JSON");
  }
  const o = (json ?? {}) as { run_id?: unknown; source?: unknown };
  if (typeof o.run_id !== "string" || o.run_id === "") throw new Error("discover message: no run_id");
  const [source] = parseSources([o.source]);
  return { run_id: o.run_id, source: source! };
}
