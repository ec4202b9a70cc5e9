/**
 * One dispatcher tick: the sources due in the tick's window, one discover message each. Discovery then
 * runs as many invocations at once as the discover queue's consumer allows, each with the whole
 * function timeout for its few sources, instead of every source in one invocation's 10 minutes.
 */
import { isDue } from "../discover/cadence";
import type { SourceCatalog } from "../discover/source-catalog";
import type { DiscoverMessage } from "./discover-message";
import type { DiscoverQueue } from "./ports";

export interface DispatchRequest {
  /** The tick's time (EventBridge Scheduler's scheduled time): the end of the window it covers. */
  readonly scheduledTime: Date;
  /** The cadence of a source that names none (DEFAULT_SOURCE_SCHEDULE unless the deploy overrides it). */
  readonly defaultSchedule: string;
  /** Start every source, due or not (a manual run; the local `storytrail crawl`). */
  readonly all?: boolean;
  /** Default: the tick's UTC minute, so a retried tick sends the same run. */
  readonly runId?: string;
}

export interface DispatchSummary {
  readonly run_id: string;
  readonly sources: number;
  readonly dispatched: number;
}

export async function dispatchDue(
  catalog: SourceCatalog,
  queue: DiscoverQueue,
  req: DispatchRequest,
): Promise<DispatchSummary> {
  const runId = req.runId ?? req.scheduledTime.toISOString().slice(0, 16);
  const sources = await catalog.list();
  const due = req.all
    ? sources
    : sources.filter((s) => isDue(s.schedule, req.defaultSchedule, req.scheduledTime));
  const messages: DiscoverMessage[] = due.map((source) => ({ run_id: runId, source }));
  await queue.send(messages);
  return { run_id: runId, sources: sources.length, dispatched: messages.length };
}
