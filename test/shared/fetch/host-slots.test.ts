import { describe, expect, it } from "vitest";
import { MAX_WAIT_IN_FUNCTION_MS, planAdmission, slotSpacingMs } from "../../../shared/fetch/host-slots";

const NOW = 1_800_000_000_000;
const IDLE = { nextAt: 0, busyUntil: 0, scheduledUntil: 0 };
const opts = (interval: number, more: Partial<Parameters<typeof planAdmission>[3]> = {}) => ({
  interval,
  spacing: slotSpacingMs(interval),
  take: true,
  reserved: false,
  putBacks: 0,
  ...more,
});

describe("slotSpacingMs", () => {
  it("is the interval plus a request, to the whole second, at least 1 s", () => {
    expect(slotSpacingMs(1000)).toBe(2000);
    expect(slotSpacingMs(1000, 300)).toBe(2000);
    expect(slotSpacingMs(0, 0)).toBe(1000);
    expect(slotSpacingMs(2600, 500)).toBe(4000);
  });
});

describe("planAdmission", () => {
  it("takes an idle host for the first page and gives the rest whole-second slots one spacing apart", () => {
    const plan = planAdmission(IDLE, NOW, 3, opts(1000));
    expect(plan).toMatchObject({ due: true, start: NOW, taken: 1 });
    expect(plan.slots).toEqual([NOW + 2000, NOW + 4000]);
    expect(plan.scheduledUntil).toBe(NOW + 6000);
  });

  it("chains every page in the function when the interval is within the bound", () => {
    const plan = planAdmission(IDLE, NOW, 4, opts(MAX_WAIT_IN_FUNCTION_MS));
    expect(plan).toMatchObject({ due: true, taken: 4, slots: [], scheduledUntil: 0 });
  });

  it("reserves behind the schedule when pages are fresh, and takes the host for a page back at its slot", () => {
    const schedule = { nextAt: NOW, busyUntil: 0, scheduledUntil: NOW + 4000 };
    const fresh = planAdmission(schedule, NOW, 1, opts(1000));
    expect(fresh).toMatchObject({ due: false, taken: 0, slots: [NOW + 4000], scheduledUntil: NOW + 6000 });
    const back = planAdmission(schedule, NOW, 1, opts(1000, { reserved: true }));
    expect(back).toMatchObject({ due: true, taken: 1, slots: [] });
  });

  it("backs a put-back page off twice as far each time while the host is taken, up to the lease's end", () => {
    const busy = { nextAt: NOW + 1000, busyUntil: NOW + 30_000, scheduledUntil: 0 };
    const at = (putBacks: number) => planAdmission(busy, NOW, 1, opts(1000, { putBacks })).slots[0];
    expect(at(1)).toBe(NOW + 4000);
    expect(at(2)).toBe(NOW + 8000);
    expect(at(5)).toBe(NOW + 30_000);
  });

  it("reserves only, never takes, when `take` is false", () => {
    expect(planAdmission(IDLE, NOW, 2, opts(1000, { take: false }))).toMatchObject({
      due: false,
      taken: 0,
      slots: [NOW, NOW + 2000],
    });
  });
});
