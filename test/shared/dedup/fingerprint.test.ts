import { describe, expect, it } from "vitest";
import { compareFingerprints } from "../../../shared/dedup/confirm";
import { computeFingerprint, fingerprintSchema, viewFingerprint } from "../../../shared/dedup/fingerprint";
import {
  estimateContainment,
  estimateJaccard,
  minhashPermutations,
  minhashSignature,
} from "../../../shared/dedup/minhash";
import { decodeHtmlEntities, normaliseText } from "../../../shared/dedup/normalise-text";
import { Shingler, TOKEN_ENTITY, TOKEN_NUMBER } from "../../../shared/dedup/shingles";
import { article, paragraph } from "./texts";

const tokensOf = (text: string) => {
  const t = new Shingler().scanTokens(normaliseText(text));
  return { hashes: [...t.hashes], flags: [...t.flags] };
};
const match = (a: string, b: string) =>
  compareFingerprints(viewFingerprint(computeFingerprint(a)), viewFingerprint(computeFingerprint(b)));

describe("normalisation and tokens", () => {
  it("decodes entities, applies NFKC and folds case", () => {
    expect(decodeHtmlEntities("AT&amp;T&#8217;s &mdash; &#x41;")).toBe("AT&T’s — A");
    expect(tokensOf("ＨＥＬＬＯ Wörld ﬁne STRASSE").hashes).toEqual(
      tokensOf("hello wörld fine straße").hashes,
    );
  });

  it("keeps Unicode letters and digits of every script, not just [a-z0-9]", () => {
    expect(tokensOf("Москва — столица России").hashes).toHaveLength(3);
    expect(tokensOf("Αθήνα 2024 नमस्ते दुनिया").hashes).toHaveLength(4);
    expect(tokensOf("čeština, ελληνικά").hashes).not.toEqual(tokensOf("cestina, ellinika").hashes);
  });

  it("gives one token per character in scripts written without spaces", () => {
    expect(tokensOf("東京都の人口").hashes).toHaveLength(6);
    expect(tokensOf("ภาษาไทย").hashes.length).toBeGreaterThan(3);
    expect(tokensOf("iPhone手机").hashes).toHaveLength(3);
  });

  it("flags numbers and capitalised names that do not start a sentence", () => {
    const t = tokensOf("Police said Adler paid 250 dollars. Then they left");
    expect(t.flags[0]! & TOKEN_ENTITY).toBe(0); // sentence start
    expect(t.flags[2]! & TOKEN_ENTITY).toBe(TOKEN_ENTITY);
    expect(t.flags[4]! & TOKEN_NUMBER).toBe(TOKEN_NUMBER);
    expect(t.flags[6]! & TOKEN_ENTITY).toBe(0); // after a full stop
  });
});

describe("MinHash", () => {
  it("is deterministic and estimates Jaccard and containment", () => {
    const s = new Shingler();
    const a = s.shingleHashes(s.scanTokens(article(1, 10)), 5).slice();
    const b = s.shingleHashes(s.scanTokens(article(1, 5)), 5).slice(); // first half: contained in a
    const perms = minhashPermutations(128, 42);
    const sa = minhashSignature(a, perms);
    const sb = minhashSignature(b, perms);
    expect([...minhashSignature(a, minhashPermutations(128, 42))]).toEqual([...sa]);
    expect(estimateJaccard(sa, sa)).toBe(1);
    expect(estimateJaccard(sa, sb)).toBeGreaterThan(0.3);
    expect(estimateJaccard(sa, sb)).toBeLessThan(0.7);
    expect(estimateContainment(sb, sa, b.length, a.length)).toBeGreaterThan(0.9);
  });

  it("gives the same fingerprint across calls and survives a JSON round trip", () => {
    const text = article(3);
    const fp = computeFingerprint(text, "Title");
    expect(computeFingerprint(text, "Title")).toEqual(fp);
    const back = fingerprintSchema.parse(JSON.parse(JSON.stringify(fp)));
    expect(back).toEqual(fp);
    expect(JSON.stringify(fp).length).toBeLessThan(4000);
    expect(fp.params.perms).toBe(128);
  });
});

describe("confirmation", () => {
  it("matches copies with edits, truncated copies and copies with added paragraphs", () => {
    const orig = article(5, 10);
    const edited = `By Maria Lopez\n\nLONDON (AP) — ${orig.replace(/ the /, " teh ")}\n\nAdvertisement`;
    expect(match(orig, edited).match).toBe(true);
    expect(match(orig, article(5, 4)).match).toBe(true);
    expect(
      match(orig, `${orig}\n\n${paragraph(99, 1)}\n\n${paragraph(99, 2)}\n\n${paragraph(99, 3)}`).match,
    ).toBe(true);
  });

  it("keeps templated stories apart (same wording, other numbers)", () => {
    const orig = article(6, 10);
    const template = orig.replace(/\d+/g, (m) => String((Number(m) + 7) % 10 ** m.length));
    const r = match(orig, template);
    expect(r.jaccard).toBeGreaterThan(0.2);
    expect(r.match).toBe(false);
    expect(r.reason).toBe("numbers_differ");
  });

  it("keeps stories that share a few paragraphs apart", () => {
    const a = article(7, 10);
    const b = [paragraph(7, 0), ...Array.from({ length: 9 }, (_, i) => paragraph(8, i))].join("\n\n");
    expect(match(a, b).match).toBe(false);
  });

  it("never merges texts below the minimum length on similarity alone", () => {
    const short = "Storm closes the harbour road for two days, council says.";
    expect(match(short, short)).toMatchObject({ match: false, reason: "too_short" });
  });

  it("matches near-duplicate Chinese text and not a different one", () => {
    const zh =
      "东京都政府周二宣布，由于强台风逼近，全市所有公立学校将于周三停课。气象厅表示，台风预计将在周三凌晨登陆关东地区，带来强风和暴雨。市民被要求尽量避免外出，并提前储备食物和饮用水。铁路公司也表示可能会暂停部分线路的运营。";
    const copy = `新华社电 ${zh}（完）`;
    const other =
      "上海市政府周一发布新的住房政策，首次购房者可以获得更低的贷款利率。专家认为，这项政策将有助于稳定房地产市场，但也有人担心会推高房价。新政策将于下个月正式实施，具体细则将由相关部门另行公布。";
    expect(match(zh, copy).match).toBe(true);
    expect(match(zh, other).match).toBe(false);
  });
});
