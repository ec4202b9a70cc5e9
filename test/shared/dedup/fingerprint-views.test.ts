import { describe, expect, it } from "vitest";
import { computeFingerprint, viewFingerprint } from "../../../shared/dedup/fingerprint";
import { FingerprintViews } from "../../../shared/dedup/fingerprint-views";
import { article } from "./texts";

describe("FingerprintViews", () => {
  it("decodes a fingerprint once per owner, to what viewFingerprint gives", () => {
    const fp = computeFingerprint(article(2), "Title");
    const views = new FingerprintViews();
    const v = views.of(fp);
    expect(views.of(fp)).toBe(v);
    expect(v).toEqual(viewFingerprint(fp));
    // Nothing is shared between owners, nor kept by viewFingerprint itself.
    expect(new FingerprintViews().of(fp)).not.toBe(v);
    expect(viewFingerprint(fp)).not.toBe(viewFingerprint(fp));
  });
});
