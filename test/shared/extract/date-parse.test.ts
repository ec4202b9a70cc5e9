import { describe, expect, it } from "vitest";
import { dateFromUrl, parseStatedDate, scanDates } from "../../../shared/extract/date-parse";

describe("parseStatedDate", () => {
  it("reads ISO 8601 with an offset as a UTC instant and keeps the stated day", () => {
    expect(parseStatedDate("2025-06-30T23:59:30+02:00")).toMatchObject({
      day: "2025-06-30",
      instant: "2025-06-30T21:59:30Z",
    });
  });

  it("gives no instant when the timezone is missing", () => {
    expect(parseStatedDate("2023-11-08 18:09:55")).toMatchObject({
      day: "2023-11-08",
      instant: null,
      hasTime: true,
    });
    expect(parseStatedDate("2019-10-19")).toMatchObject({ day: "2019-10-19", instant: null, hasTime: false });
  });

  it("reads RFC 2822, basic ISO and epoch forms", () => {
    expect(parseStatedDate("Sat, 19 Oct 2019 00:04:00 +0200")?.instant).toBe("2019-10-18T22:04:00Z");
    expect(parseStatedDate("20200316T130000Z")?.instant).toBe("2020-03-16T13:00:00Z");
    expect(parseStatedDate("1574168580")?.instant).toBe("2019-11-19T13:03:00Z");
  });

  it("reads month names in several languages and numeric European dates", () => {
    expect(parseStatedDate("3. Februar 2026")?.day).toBe("2026-02-03");
    expect(parseStatedDate("November 8, 2023 at 11:30 p.m.")?.day).toBe("2023-11-08");
    expect(parseStatedDate("le 12 mars 2026")?.day).toBe("2026-03-12");
    expect(parseStatedDate("15 августа 2016, 13:43")?.day).toBe("2016-08-15");
    expect(parseStatedDate("Datum: 03.11.2021")?.day).toBe("2021-11-03");
    expect(parseStatedDate("2019年6月24日")?.day).toBe("2019-06-24");
  });

  it("rejects impossible dates and non-dates", () => {
    expect(parseStatedDate("2021-02-30")).toBeNull();
    expect(parseStatedDate("version 1.2.3")).toBeNull();
    expect(parseStatedDate("")).toBeNull();
  });
});

describe("dateFromUrl", () => {
  it("finds /yyyy/mm/dd/ and yyyymmdd in the path", () => {
    expect(dateFromUrl("https://x.example/2019/11/18/politics/a.html")?.day).toBe("2019-11-18");
    expect(dateFromUrl("https://x.example/news/20191115-tuft-cells")?.day).toBe("2019-11-15");
    expect(dateFromUrl("https://x.example/news/12345")).toBeNull();
  });
});

describe("scanDates", () => {
  it("lists every date in order", () => {
    const found = scanDates("Erschienen am 01.11.2023, aktualisiert am 2. November 2023").map(
      (m) => m.date.day,
    );
    expect(found).toEqual(["2023-11-01", "2023-11-02"]);
  });
});

describe("Arabic month names", () => {
  it("reads the Egyptian/Gulf and the Levantine month series", () => {
    expect(parseStatedDate("الثلاثاء 15 كانون الثاني 2019")?.day).toBe("2019-01-15");
    expect(parseStatedDate("3 أغسطس 2020 - 10:30")?.day).toBe("2020-08-03");
    expect(parseStatedDate("21 تشرين الأول 2021")?.day).toBe("2021-10-21");
  });

  it("reads every month of both series", () => {
    const gulf = "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر".split(" ");
    const levant = [
      "كانون الثاني",
      "شباط",
      "آذار",
      "نيسان",
      "أيار",
      "حزيران",
      "تموز",
      "آب",
      "أيلول",
      "تشرين الأول",
      "تشرين الثاني",
      "كانون الأول",
    ];
    for (const names of [gulf, levant])
      expect(names.map((m) => parseStatedDate(`9 ${m} 2022`)?.day)).toEqual(
        names.map((_, i) => `2022-${String(i + 1).padStart(2, "0")}-09`),
      );
  });

  it("reads the paired form pages write for both readerships", () => {
    expect(parseStatedDate("15 كانون الثاني/يناير 2019")?.day).toBe("2019-01-15");
    expect(parseStatedDate("15 يناير / كانون الثاني 2019")?.day).toBe("2019-01-15");
  });

  it("reads Arabic-Indic and Persian digits, and the evening mark of a time", () => {
    expect(parseStatedDate("١٥ يناير ٢٠٢٤")?.day).toBe("2024-01-15");
    expect(parseStatedDate("۱۵ مارس ۲۰۲۴")?.day).toBe("2024-03-15");
    expect(parseStatedDate("٢٠٢٤/٠٣/١٥")?.day).toBe("2024-03-15");
    expect(parseStatedDate("الأحد، 12 أغسطس 2018م - 10:30 م")).toMatchObject({
      day: "2018-08-12",
      clock: 22 * 3600 + 30 * 60,
    });
    expect(parseStatedDate("٢٠٢٤-٠٣-١٥T١٠:٠٠:٠٠Z")?.instant).toBe("2024-03-15T10:00:00Z");
  });

  it("scans Arabic-digit dates at their offsets in the text", () => {
    const text = "نشر في ١٥ يناير ٢٠٢٤ وتحديث ٢ فبراير ٢٠٢٤";
    const found = scanDates(text);
    expect(found.map((m) => m.date.day)).toEqual(["2024-01-15", "2024-02-02"]);
    expect(text.slice(found[0]!.index, found[0]!.end)).toBe("١٥ يناير ٢٠٢٤");
  });
});
