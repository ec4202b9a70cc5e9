/**
 * The words that label a date on a page as its publication ("Published", "Erschienen am", "公開日") or as an
 * update ("Updated", "Stand:", "mis à jour le", "更新日"), in the languages news is published in. They are
 * the generic labels of bylines and datelines, not any site's wording; one list for every date reader.
 */

const PUBLISHED = [
  "published",
  "posted",
  "veröffentlicht",
  "erschienen",
  "publiziert",
  "publié",
  "publicado",
  "publicada",
  "pubblicato",
  "gepubliceerd",
  "opublikowano",
  "publicerad",
  "publiceret",
  "publisert",
  "julkaistu",
  "publikováno",
  "zveřejněno",
  "publikované",
  "yayınlanma",
  "yayımlanma",
  "опубликовано",
  "опубліковано",
  "تاريخ النشر",
  "نشر في",
  "公開日",
  "投稿日",
  "掲載日",
  "发布时间",
  "发布于",
  "發布時間",
  "发表于",
  "게재",
  "diterbitkan",
  "dipublikasikan",
  "közzétéve",
];
/**
 * Update labels read before a date. Measured: adding "更新" and the other scripts' labels here made the htmldate
 * and mercury sets worse (a page whose only date is its "最終更新日" is dated by it), so they stay out.
 */
const UPDATED = [
  "updated",
  "modified",
  "aktualisiert",
  "geändert",
  "änderung",
  // "Stand:", not "Standort".
  "stand(?!\\p{L})",
  "as of",
  "mis à jour",
  "actualizado",
  "aggiornato",
  "bijgewerkt",
];

const alt = (words: string[]): string => words.map((w) => w.replace(/ /g, "\\s+")).join("|");
/** A label starts a word in scripts that space words; in Arabic and CJK text it may follow anything. */
const START = "(?<![\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}])";
/** What may stand between a label and its date: "on", "am", "le", a colon, a weekday. */
const GAP = "\\S*\\s*(?:on|am|le|el|il|op|:)?\\s*[:：|,-]?\\s*(?:\\p{L}+,?\\s*)?$";

/** Text that ends with a publication label: the date after it is the publication's. */
export const PUBLISHED_BEFORE = new RegExp(`${START}(?:${alt(PUBLISHED)})${GAP}`, "iu");
/** Text that ends with an update label. */
export const UPDATED_BEFORE = new RegExp(`${START}(?:${alt(UPDATED)})${GAP}`, "iu");
/** An update label anywhere in a short piece ("2019.03.26 lastupdate"), "stand" only as a word. */
export const UPDATE_MARK =
  /update|modif|aktualisiert|geändert|(?<!\p{L})stand(?!\p{L})|mis à jour|actualiz|aggiornat|bijgewerkt/iu;
