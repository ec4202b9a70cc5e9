/**
 * Discovery gives each page it enqueues a slot on its host's schedule (the Hosts table), so the page is
 * delivered when its host is due instead of being received, found early and put back: in a daily burst
 * that put-back cost every page after a host's first a Hosts read and write, a Frontier note and another
 * delivery (0.97 put-backs a page in the metered run, issue 26). The slot's interval is the host's own
 * (its source's minimum, its robots.txt Crawl-delay), written on the Hosts item, where fetch reads it.
 */
import { pacingHost } from "../fetch/request-pacing";
import type { FetchMessage } from "../records";
import type { HostSchedule } from "./ports";

export interface PageSlotDeps {
  readonly schedule: HostSchedule;
  /** The host's Crawl-delay as its robots.txt states it (the cached rules), null when it states none. */
  readonly crawlDelaySeconds: (url: string) => Promise<number | null>;
  readonly log?: (msg: string, data: Record<string, unknown>) => void;
}

/** The messages with their slots (`slot_at`), in the same order; a host whose slots could not be
 * reserved keeps its pages unslotted (fetch then admits them as they come: paced, only dearer). */
export async function withSlots(
  messages: readonly FetchMessage[],
  deps: PageSlotDeps,
): Promise<FetchMessage[]> {
  const byHost = new Map<string, number[]>();
  messages.forEach((m, i) => {
    const host = pacingHost(m.url);
    if (host === null) return; // not a URL fetch will send: it refuses it itself
    const indexes = byHost.get(host);
    if (indexes) indexes.push(i);
    else byHost.set(host, [i]);
  });
  const out = [...messages];
  await Promise.all(
    [...byHost].map(async ([host, indexes]) => {
      const first = messages[indexes[0] as number] as FetchMessage;
      try {
        const slots = await deps.schedule.reserve(host, indexes.length, {
          crawlDelaySeconds: await deps.crawlDelaySeconds(first.url),
          ...(first.min_delay_ms === undefined ? {} : { minDelayMs: first.min_delay_ms }),
        });
        indexes.forEach((i, j) => {
          const slot_at = slots[j];
          if (slot_at !== undefined) out[i] = { ...(out[i] as FetchMessage), slot_at };
        });
      } catch (err) {
        deps.log?.("could not reserve slots: pages sent unslotted", { host, error: String(err) });
      }
    }),
  );
  return out;
}
