import { describe, expect, it } from "vitest";
import { MONTHS, ZONE_OFFSETS } from "../../../shared/dates/date-tables";

describe("date tables", () => {
  it("maps month names of every series to their number", () => {
    expect(MONTHS.jan).toBe(1);
    expect(MONTHS["märz"]).toBe(3);
    expect(MONTHS["августа"]).toBe(8);
    expect(MONTHS["كانون الثاني"]).toBe(1);
    expect(MONTHS["ديسمبر"]).toBe(12);
    for (const n of Object.values(MONTHS)) expect(n >= 1 && n <= 12).toBe(true);
  });

  it("gives zone abbreviations in minutes from UTC", () => {
    expect(ZONE_OFFSETS.pdt).toBe(-420);
    expect(ZONE_OFFSETS.ist).toBe(330);
    expect(ZONE_OFFSETS.cest).toBe(120);
  });
});
