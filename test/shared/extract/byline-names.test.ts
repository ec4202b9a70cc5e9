import { describe, expect, it } from "vitest";
import { namesFromByline } from "../../../shared/extract/byline-names";

describe("namesFromByline", () => {
  it("keeps names only: labels, dates, roles after a separator and bracketed notes dropped", () => {
    expect(
      namesFromByline("By JOSH HASKELL, DAVID CAPLAN and PATRICK REEVELL December 16, 2016, 4:19 PM"),
    ).toEqual(["JOSH HASKELL", "DAVID CAPLAN", "PATRICK REEVELL"]);
    expect(namesFromByline("Byby Jane Roe")).toEqual(["Jane Roe"]);
    expect(namesFromByline("By: Drew Dietsch")).toEqual(["Drew Dietsch"]);
    expect(namesFromByline("Pete Evans · CBC News · Posted: Oct 14, 2022")).toEqual(["Pete Evans"]);
    expect(namesFromByline("Par Cécile Ducourtieux (Bruxelles, bureau européen)")).toEqual([
      "Cécile Ducourtieux",
    ]);
    expect(namesFromByline("Von Anna Muster und Max Beispiel")).toEqual(["Anna Muster", "Max Beispiel"]);
    expect(
      namesFromByline("Povilas Aleksandravičius, Mykolo Romerio universiteto fakulteto profesorius"),
    ).toEqual(["Povilas Aleksandravičius"]);
    expect(namesFromByline("Mike Cason | mcason@al.com")).toEqual(["Mike Cason"]);
    expect(namesFromByline("By")).toEqual([]);
    expect(namesFromByline("https://www.facebook.com/someone")).toEqual([]);
  });

  it("does not eat names that begin like a label", () => {
    expect(namesFromByline("Byron Smith")).toEqual(["Byron Smith"]);
    expect(namesFromByline("Dana Avery")).toEqual(["Dana Avery"]);
  });
});
