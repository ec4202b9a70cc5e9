import { describe, expect, it } from "vitest";
import { revisionNotice } from "../../../shared/revisions/revision-notice";

const none = () => "<html><body><article><p>Text</p></article></body></html>";

describe("revisionNotice", () => {
  it("finds a new Correction: line", () => {
    const n = revisionNotice("Text.", "Text.\n\nCorrection: An earlier version misstated the date.", none);
    expect(n).toEqual({ notice: "correction", text: "Correction: An earlier version misstated the date." });
  });

  it("finds Update: and Updated: lines", () => {
    expect(revisionNotice("Text.", "Updated: 14:05 GMT\n\nText.", none)?.notice).toBe("update");
    expect(revisionNotice("Text.", "Text.\nUpdate — police named the driver.", none)?.notice).toBe("update");
  });

  it("does not count a notice the earlier version had already", () => {
    const body = "Text.\n\nCorrection: An earlier version misstated the date.";
    expect(revisionNotice(body, `${body}\n\nMore text.`, none)).toBeNull();
  });

  it("reads the publisher's correction markup when the body has no notice line", () => {
    const jsonld = () =>
      '<script type="application/ld+json">{"@type":"NewsArticle","correction":"Fixed a name."}</script>';
    expect(revisionNotice("a", "b", jsonld)).toEqual({ notice: "correction", text: null });
    const element = () => '<div class="article-correction">We fixed a name.</div>';
    expect(revisionNotice("a", "b", element)?.notice).toBe("correction");
  });

  it("says nothing for an ordinary change", () => {
    expect(revisionNotice("Updates to the plan were rejected.", "The plan was rejected.", none)).toBeNull();
  });
});
