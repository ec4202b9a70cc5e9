/**
 * Pages of the shapes that cost a parser the most, each filled to a byte size (the fetch cap in
 * bench/memory-at-caps.ts): what an extraction may have to survive inside the fetch function.
 */

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(" ");

/** A real 420-word article first, so the shapes also show whether the article survives them. */
const ARTICLE = `<!doctype html><html lang="en"><head><title>The story</title></head><body><article><h1>The story</h1>${Array.from(
  { length: 6 },
  () => `<p>${words(70)}, and more.</p>`,
).join("")}</article>`;

export const HOSTILE_SHAPES = {
  /** 650,000+ empty elements: the most nodes per byte. */
  "tiny elements": (bytes: number) => fill(ARTICLE, "<b></b>", bytes),
  /** Unclosed <div>s all the way down: the deepest tree per byte. */
  "deep nesting": (bytes: number) => fill(ARTICLE, "<div>", bytes),
  /** One paragraph of text the size of the page: the longest body. */
  "huge text": (bytes: number) =>
    `${ARTICLE}<p>${"lorem ipsum dolor sit amet, ".repeat(Math.ceil(bytes / 28))}</p>`,
  /** Short paragraphs: the most prose elements the body scorer weighs. */
  "tiny paragraphs": (bytes: number) => fill(ARTICLE, "<p>a word, here.</p>", bytes),
  /** Paragraphs of 40 characters: as many elements as the parser builds, each with text, until the
   * page's text cap (dom.ts PARSE_LIMITS) is reached with the last of them. */
  sentences: (bytes: number) => fill(ARTICLE, "<p>Another sentence of forty characters.</p>", bytes),
  /** One element with attributes filling the page. */
  attributes: (bytes: number) => `${ARTICLE}<div ${fill("", 'a="1" ', bytes - 20)}>x</div>`,
  /** Comments back to back. */
  comments: (bytes: number) => fill(ARTICLE, "<!---->", bytes),
  /** JSON-LD arrays nested to the page's size. */
  "deep JSON-LD": (bytes: number) => {
    const n = Math.floor((bytes - ARTICLE.length - 100) / 2);
    return `${ARTICLE}<script type="application/ld+json">{"@type":"NewsArticle","headline":${"[".repeat(n)}"x"${"]".repeat(n)}}</script>`;
  },
} as const satisfies Record<string, (bytes: number) => string>;

export type HostileShape = keyof typeof HOSTILE_SHAPES;

function fill(prefix: string, unit: string, bytes: number): string {
  return prefix + unit.repeat(Math.max(0, Math.floor((bytes - prefix.length) / unit.length)));
}
