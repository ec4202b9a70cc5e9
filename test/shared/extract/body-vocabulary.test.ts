import { describe, expect, it } from "vitest";
import { isPromoLine } from "../../../shared/extract/body-vocabulary";

describe("isPromoLine: template labels by concept, in the languages news is written in", () => {
  it("knows a read-also label in Dutch, Italian and Portuguese as in English and German", () => {
    for (const line of [
      "Lees ook: Kabinet valt over stikstof",
      "Leggi anche: il governo cade",
      "Leia também: o governo cai",
      "Read also: the government falls",
      "Lesen Sie auch: Die Regierung stürzt",
    ])
      expect(isPromoLine(line)).toBe(true);
  });

  it("knows a short PDF download line in any language, and a sources label on its own", () => {
    expect(isPromoLine("Dieses Skript als PDF herunterladen")).toBe(true);
    expect(isPromoLine("Descargar el informe en PDF")).toBe(true);
    expect(isPromoLine("Quellenangaben:")).toBe(true);
    expect(isPromoLine("Sources")).toBe(true);
  });

  it("keeps article sentences that begin like a site's promo wording did", () => {
    expect(isPromoLine("Sie müssen sich keine Gedanken mehr über die konkrete Geldanlage machen.")).toBe(
      false,
    );
    expect(isPromoLine("Puede escribirnos cualquier ciudadano, dijo el alcalde en la rueda de prensa.")).toBe(
      false,
    );
    expect(isPromoLine("Sources close to the minister said the plan would be dropped.")).toBe(false);
  });
});
