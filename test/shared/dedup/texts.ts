/** Deterministic article-like text for the dedup tests: distinct paragraphs with names and numbers. */
const WORDS = (
  "river council budget school police market storm harbour railway election museum hospital farmers " +
  "bridge festival court energy water housing library airport teachers workers village garden forest " +
  "report meeting plan road station factory price season team museum village coast island mountain"
).split(" ");
const FILL = "the a of to and in on for with after before said would could was were has had new".split(" ");
const NAMES =
  "Adler Brooks Castillo Dubois Eriksen Fontaine Garcia Haddad Ibrahim Jansen Kowalski Lindqvist".split(" ");

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

/** One paragraph of ~60 words; the same (story, index) always gives the same paragraph. */
export function paragraph(story: number, index: number): string {
  const rnd = lcg(story * 1000 + index + 7);
  const words: string[] = [];
  for (let i = 0; i < 60; i++) {
    const r = rnd() % 12;
    if (r === 0) words.push(NAMES[rnd() % NAMES.length]!);
    else if (r === 1) words.push(String(rnd() % 5000));
    else if (r < 6) words.push(WORDS[rnd() % WORDS.length]!);
    else words.push(FILL[rnd() % FILL.length]!);
  }
  return `${words.join(" ")}.`;
}

/** An article of `count` paragraphs of one story. */
export function article(story: number, count = 8, from = 0): string {
  return Array.from({ length: count }, (_, i) => paragraph(story, from + i)).join("\n\n");
}
