/**
 * News agencies (wires) as bylines name them: credits, not people. Consumers group wire copy by them, so
 * they are kept, in `credit`. The list is of agencies, not of any site: the wires of the languages the
 * extractor reads, by their usual short and long names.
 */
const AGENCIES = [
  "ap",
  "associated press",
  "the associated press",
  "reuters",
  "thomson reuters",
  "afp",
  "agence france-presse",
  "agence france presse",
  "dpa",
  "deutsche presse-agentur",
  "epd",
  "kna",
  "apa",
  "sda",
  "keystone-sda",
  "ats",
  "ansa",
  "efe",
  "europa press",
  "anp",
  "belga",
  "ntb",
  "tt",
  "ritzau",
  "stt",
  "pap",
  "ctk",
  "mti",
  "tass",
  "ria novosti",
  "interfax",
  "ukrinform",
  "anadolu",
  "anadolu ajansı",
  "anadolu agency",
  "xinhua",
  "kyodo",
  "kyodo news",
  "jiji",
  "jiji press",
  "yonhap",
  "pti",
  "ians",
  "ani",
  "aap",
  "pa",
  "pa media",
  "press association",
  "upi",
  "cp",
  "the canadian press",
  "canadian press",
  "cna",
  "bernama",
  "antara",
  "wafa",
  "mena",
  "sid",
  "bloomberg",
];

const KNOWN = new Set(AGENCIES);
const AGENCY_WORD = /^(?:agencia|agência|agenzia|agentur|agencja|agentschap) /u;

/** `name` is a news agency, alone or several joined by "/" ("dpa/AFP", "AFP/Reuters"). */
export function isAgency(name: string): boolean {
  const parts = name
    .toLowerCase()
    .split(/\s*\/\s*/)
    .map((p) =>
      p
        .replace(/[.\s]+$/u, "")
        .replace(/\s+/g, " ")
        .trim()
        // "Agencia EFE", "Agência Lusa", "Agence France-Presse" stay agencies without the word.
        .replace(AGENCY_WORD, ""),
    );
  return parts.length > 0 && parts.every((p) => KNOWN.has(p));
}
