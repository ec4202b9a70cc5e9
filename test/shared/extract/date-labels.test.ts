import { describe, expect, it } from "vitest";
import { PUBLISHED_BEFORE, UPDATE_MARK, UPDATED_BEFORE } from "../../../shared/extract/date-labels";
import { parseHtml } from "../../../shared/extract/dom";
import { findTextDate } from "../../../shared/extract/text-dates";

const NOW = new Date("2026-12-01T00:00:00Z");

describe("date labels", () => {
  it("knows publication labels beyond the western European languages", () => {
    for (const label of [
      "Julkaistu ",
      "Publiceret: ",
      "Опубликовано: ",
      "公開日：",
      "发布时间：",
      "تاريخ النشر: ",
      "Diterbitkan ",
    ])
      expect(PUBLISHED_BEFORE.test(label), label).toBe(true);
  });

  it("does not read a word that merely starts like a label", () => {
    expect(PUBLISHED_BEFORE.test("Publication | ")).toBe(false);
    expect(PUBLISHED_BEFORE.test("reposted ")).toBe(false);
    expect(UPDATED_BEFORE.test("Standort: ")).toBe(false);
  });

  it("finds an update label anywhere in a byline piece", () => {
    expect(UPDATE_MARK.test("2019.03.26 lastupdate")).toBe(true);
    expect(UPDATE_MARK.test("Stand: 28.04.2020")).toBe(true);
    expect(UPDATE_MARK.test("Standort Berlin, 28.04.2020")).toBe(false);
  });

  it("takes the labelled publication date over an earlier date in the text", () => {
    const root = parseHtml(
      `<html><body><p>Tapahtuma pidettiin 1.3.2019 Helsingissä.</p><p>Julkaistu 3.5.2020</p></body></html>`,
    );
    expect(findTextDate(root, NOW)?.day).toBe("2020-05-03");
  });
});
