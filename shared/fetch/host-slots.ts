/**
 * A host's schedule of request slots, as the Hosts table keeps it (shared/aws/host-pace-table.ts): how long
 * a request may keep its host, how far apart reserved slots are, and what an admission decides for a
 * batch's pages of one host from the host's item as read. Pure: the table reads the item and writes the
 * decision with a conditional write.
 */
import { DEFAULT_FETCH_LIMITS } from "./http";

/** How long a request may keep its host: HttpClient's whole budget for one URL (every hop), plus 5 s
 * for the writes around it. */
export const HOST_LEASE_MS = DEFAULT_FETCH_LIMITS.totalTimeoutMs + 5_000;
/**
 * The longest a fetch waits in the function for a host that is due (its slot a little ahead). SQS
 * returns a page only to the whole second (DelaySeconds and visibility timeouts are whole seconds), and
 * a page back at its slot finds the host's previous request ended up to a few hundred ms late (the
 * 300 ms publisher latency the cost model assumes, against the slot's allowance): 200 ms of 197 MB cost
 * $0.0000033 a page (231 MB now: $0.0000039), a put-back (a receive share, a visibility change, a Frontier note and a slot
 * reservation) about $0.000002 and a second delivery's request share, so below 200 ms a wait is cheaper
 * than a put-back; much above, the function pays to wait, which is what this design removes.
 */
export const MAX_WAIT_IN_FUNCTION_MS = 200;
/** What a slot allows a request besides the host's interval before the next page comes back, until the
 * host's own request times are measured (`spacing_ms`): the cost model's 300 ms latency with margin. */
const REQUEST_ALLOWANCE_MS = 500;
/** SQS's longest visibility timeout (12 h): a page due later comes back then and reserves again. */
export const MAX_PUT_BACK_MS = 12 * 3600 * 1000;

/** A whole number of seconds (SQS's unit) at least `ms`. */
function wholeSeconds(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

/** The time between two reserved slots of a host: its interval plus a request, to the whole second (a
 * 1 s delay and a 300 ms request: 2 s slots), so a page that comes back at its slot finds the host free. */
export function slotSpacingMs(intervalMs: number, requestMs = REQUEST_ALLOWANCE_MS): number {
  return Math.max(1000, wholeSeconds(intervalMs + requestMs));
}

/** What `admit` decided for a host's pages in a batch. */
export interface Admission {
  /** The first `taken` pages may be fetched now, in order: the host is taken for the first (its `wait`
   * costs no table call). More than one only when the host's interval is within
   * MAX_WAIT_IN_FUNCTION_MS: each page then waits at most that for the one before. */
  readonly taken: number;
  /** For each page not taken, in order: when it is due (epoch ms, whole seconds from `now`). */
  readonly slots: readonly number[];
}

/** The host's schedule as its item holds it (epoch ms; 0 when the item has no such field). */
export interface HostSlotState {
  /** When the host's next request may start. */
  readonly nextAt: number;
  /** Until when a request out now keeps the host. */
  readonly busyUntil: number;
  /** The end of the slots reserved so far. */
  readonly scheduledUntil: number;
}

/** An admission's plan: the pages taken now, the slots of the rest, and the schedule to write. */
export interface AdmissionPlan extends Admission {
  /** Whether the first page takes the host now. */
  readonly due: boolean;
  /** When the page that takes the host starts (0 when none does). */
  readonly start: number;
  /** The schedule's end after this admission's slots. */
  readonly scheduledUntil: number;
}

/**
 * Plans `pages` of a host with `schedule` at `now`: when the host is due within MAX_WAIT_IN_FUNCTION_MS
 * (and `take` allows), the first page takes it and the rest reserve the next slots, `spacing` apart;
 * otherwise every page reserves one. `reserved`: the pages hold the slot that is now (back from a
 * put-back); `putBacks`: how often they were put back already.
 */
export function planAdmission(
  schedule: HostSlotState,
  now: number,
  pages: number,
  opts: { interval: number; spacing: number; take: boolean; reserved: boolean; putBacks: number },
): AdmissionPlan {
  const { nextAt, busyUntil } = schedule;
  const { interval, spacing } = opts;
  const scheduled = schedule.scheduledUntil;
  const bound = now + MAX_WAIT_IN_FUNCTION_MS;
  const due = opts.take && busyUntil <= now && nextAt <= bound && (opts.reserved || scheduled <= bound);
  const start = due ? Math.max(now, nextAt) : 0;
  // The next free slot: after the schedule, and after the request out now: its start + a spacing,
  // or, for a page already put back that finds the host still taken (a request hanging, its lease
  // running), twice as far each time, up to the lease's end, so a hung request costs a page a few
  // put-backs (each a receive against the queue's maxReceiveCount), not one per spacing.
  const backoff = Math.min(busyUntil, now + spacing * 2 ** Math.min(opts.putBacks, 5));
  const afterBusy = opts.putBacks > 0 ? backoff : nextAt - interval + spacing;
  const first = due
    ? Math.max(scheduled, start + spacing)
    : Math.max(scheduled, busyUntil > now ? afterBusy : nextAt, now);
  // A host whose interval is within the bound: its pages follow each other in the function.
  const taken = due ? (interval <= MAX_WAIT_IN_FUNCTION_MS ? pages : 1) : 0;
  const rest = pages - taken;
  const slots = Array.from({ length: rest }, (_, i) => now + wholeSeconds(first - now) + i * spacing);
  const scheduledUntil = rest > 0 ? (slots.at(-1) as number) + spacing : scheduled;
  return { due, start, taken, slots, scheduledUntil };
}
