import { describe, expect, it } from "vitest";
import { hostName, stripSiteName } from "../../../shared/extract/site-name";

describe("stripSiteName", () => {
  it("removes the side that is the site name, before or after the headline", () => {
    expect(stripSiteName("The Courier - Bridge reopens", "The Courier", [])).toBe("Bridge reopens");
    expect(stripSiteName("Bridge reopens | The Courier", ["Other", "The Courier"], [])).toBe(
      "Bridge reopens",
    );
  });

  it("removes a stated site name joined without spaces, but not at a hyphen", () => {
    expect(stripSiteName("Bridge reopens：Courier", "Courier", [])).toBe("Bridge reopens");
    expect(stripSiteName("Courier:Bridge reopens after repair", "Courier", [])).toBe(
      "Bridge reopens after repair",
    );
    expect(stripSiteName("Courier-Bridge reopens", "Courier", [])).toBe("Courier-Bridge reopens");
    expect(stripSiteName("Bridge reopens:Courier", null, [])).toBe("Bridge reopens:Courier");
  });

  it("removes a part naming the page's address when it is not longer than the headline", () => {
    expect(stripSiteName("Storm reaches the coast - La Stampa", null, [], "lastampa")).toBe(
      "Storm reaches the coast",
    );
    expect(stripSiteName("Forum thread title | MacTechNews.de", null, [], "mactechnews")).toBe(
      "Forum thread title",
    );
    expect(stripSiteName("Take care - comwrap at the trade fair 2018", null, [], "comwrap")).toBe(
      "Take care - comwrap at the trade fair 2018",
    );
  });
});

describe("hostName", () => {
  it("is the registrable domain's name", () => {
    expect(hostName("https://www.lastampa.it/cronaca/2020/x")).toBe("lastampa");
    expect(hostName("https://wiki.python.org/moin/x")).toBe("python");
    expect(hostName("https://www.bbc.co.uk/news/x")).toBe("bbc");
    expect(hostName("not a url")).toBeNull();
    expect(hostName(null)).toBeNull();
  });
});
