import { describe, expect, it } from "vitest";
import { countryZones, pageCountry, regionOf } from "../../../shared/extract/page-country";

describe("pageCountry", () => {
  it("takes the region of the page's locale, then og:locale, then the source's language", () => {
    expect(pageCountry({ htmlLang: "en-GB", ogLocale: "en_US", url: "https://x.de/a" })).toBe("GB");
    expect(pageCountry({ htmlLang: "de", ogLocale: "de_AT", url: "https://x.de/a" })).toBe("AT");
    expect(pageCountry({ htmlLang: "fr", languageHint: "fr-CA", url: "https://x.com/a" })).toBe("CA");
  });

  it("falls back on the country of a country-code domain, not one sold for its letters", () => {
    expect(pageCountry({ htmlLang: "de", url: "https://www.zeit.de/a" })).toBe("DE");
    expect(pageCountry({ url: "https://www.bbc.co.uk/news/1" })).toBe("GB");
    expect(pageCountry({ url: "https://www.nasa.gov/a" })).toBe("US");
    expect(pageCountry({ url: "https://news.example.io/a" })).toBeNull();
    expect(pageCountry({ htmlLang: "en", url: "https://example.com/a" })).toBeNull();
    expect(pageCountry({ url: "not a url" })).toBeNull();
  });

  it("reads only two-letter regions", () => {
    expect(regionOf("es-419")).toBeNull();
    expect(regionOf("zh-Hant-TW")).toBe("TW");
    expect(regionOf(null)).toBeNull();
  });
});

describe("countryZones", () => {
  it("lists a country's IANA zones from the runtime's data", () => {
    expect(countryZones("JP")).toEqual(["Asia/Tokyo"]);
    expect(countryZones("US")).toContain("America/New_York");
    expect(countryZones("US")).toContain("Pacific/Honolulu");
    expect(countryZones(null)).toEqual([]);
    expect(countryZones("ZZ")).toEqual([]);
  });
});
