import { describe, expect, it } from "vitest";
import { detectLanguage, primaryLanguage } from "../../../shared/extract/language";

const none = {
  htmlLang: null,
  jsonLdLanguage: null,
  ogLocale: null,
  metaLanguage: null,
  headerLanguage: null,
};
const detect = (body: string, hint: string | null = null) => detectLanguage({ ...none, body, hint });

// A few sentences of news prose per language, written for this test.
const SAMPLES: [string, string][] = [
  [
    "da",
    "Regeringen fremlagde i går et nyt forslag om boligskatten, som skal træde i kraft næste år. Ifølge ministeren vil de fleste husejere få en lavere regning, mens kritikerne mener, at forslaget især gavner dem, der bor i de største byer. Forhandlingerne med partierne fortsætter i denne uge.",
  ],
  [
    "no",
    "Statsministeren sa torsdag at regjeringen ikke vil endre kursen i klimapolitikken. – Vi har et ansvar for å kutte utslippene, og det skal vi gjøre, sa hun til kringkastingen. Opposisjonen krever at saken behandles i Stortinget før jul, men regjeringspartiene har ikke flertall alene. Ordføreren i kommunen ønsket ikke å kommentere saken.",
  ],
];

// Norwegian and Danish are a near tie for trigram detection (franc scores this one Danish 1.000, Nynorsk
// 0.997, Bokmål 0.995): detection must at least not call it Swedish, and a configured language settles it.
const NEAR_TIE_NORWEGIAN =
  "Regjeringen la i går fram et nytt forslag om eiendomsskatten, som skal gjelde fra neste år. Ifølge statsråden vil de fleste huseiere få en lavere regning, mens kritikerne mener at forslaget særlig hjelper dem som bor i de største byene. Forhandlingene med partiene fortsetter denne uka.";
const REST: [string, string][] = [
  [
    "fi",
    "Hallitus esitteli eilen uuden ehdotuksen kiinteistöverosta, jonka on määrä tulla voimaan ensi vuonna. Ministerin mukaan useimmat asunnonomistajat maksaisivat vähemmän, mutta arvostelijoiden mielestä ehdotus hyödyttää erityisesti suurimpien kaupunkien asukkaita. Neuvottelut puolueiden kanssa jatkuvat tällä viikolla.",
  ],
  [
    "sk",
    "Vláda včera predstavila nový návrh dane z nehnuteľností, ktorý by mal platiť od budúceho roka. Podľa ministra by väčšina vlastníkov domov platila menej, kritici však tvrdia, že návrh pomôže najmä ľuďom, ktorí bývajú vo veľkých mestách. Rokovania so stranami pokračujú tento týždeň.",
  ],
  [
    "he",
    "הממשלה הציגה אתמול הצעה חדשה למס על נכסים, שאמורה להיכנס לתוקף בשנה הבאה. לדברי השר, רוב בעלי הבתים ישלמו פחות, אך המבקרים טוענים כי ההצעה מיטיבה בעיקר עם תושבי הערים הגדולות. המשא ומתן עם המפלגות יימשך השבוע.",
  ],
  [
    "ar",
    "قدمت الحكومة أمس مقترحا جديدا بشأن ضريبة العقارات، ومن المقرر أن يدخل حيز التنفيذ في العام المقبل. وبحسب الوزير فإن معظم أصحاب المنازل سيدفعون أقل، بينما يرى المنتقدون أن المقترح يفيد بشكل خاص سكان المدن الكبرى. وتستمر المفاوضات مع الأحزاب هذا الأسبوع.",
  ],
  [
    "ja",
    "政府は昨日、来年から施行される固定資産税の新たな案を発表した。大臣によると、多くの住宅所有者の負担は軽くなるが、批判する人々は、この案が主に大都市の住民に有利だと指摘している。各党との協議は今週も続く見通しだ。",
  ],
];

describe("detectLanguage", () => {
  it.each([...SAMPLES, ...REST])("detects %s news prose", (lang, text) => {
    expect(detect(text)).toEqual({ language: lang, source: "detected" });
  });

  it("places near-tie Norwegian among the Scandinavian languages it is close to, not Swedish", () => {
    expect(["no", "da"]).toContain(detect(NEAR_TIE_NORWEGIAN).language);
    expect(detect(NEAR_TIE_NORWEGIAN, "nb")).toEqual({ language: "nb", source: "hint" });
  });

  it("lets the source's configured language outrank detection, but not what the page states", () => {
    const danish = SAMPLES[0]![1];
    expect(detect(danish, "no")).toEqual({ language: "no", source: "hint" });
    expect(detectLanguage({ ...none, htmlLang: "da-DK", body: danish, hint: "no" })).toEqual({
      language: "da",
      source: "html_lang",
    });
  });

  it("returns nothing for text too short to tell", () => {
    expect(detect("OK")).toEqual({ language: null, source: null });
  });
});

describe("primaryLanguage", () => {
  it("reads the primary subtag of a language tag", () => {
    expect(primaryLanguage("nb-NO")).toBe("nb");
    expect(primaryLanguage("und")).toBeNull();
  });
});
