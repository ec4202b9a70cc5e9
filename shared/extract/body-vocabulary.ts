/**
 * The body extractor's vocabulary: tag sets, class/id patterns and the line patterns of promos, credits and
 * datelines. The word lists are the generic boilerplate names of page templates and the few wordings of
 * promo lines; the structure (tags, link density, position) decides first.
 */
import { scanDates } from "./date-parse";
import type { Element } from "./dom";

export const DROP_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "video",
  "audio",
  "picture",
  "img",
  "button",
  "select",
  "option",
  "input",
  "textarea",
  "nav",
  "aside",
  "footer",
  "figure",
  "figcaption",
  "dialog",
  "menu",
  "map",
  "head",
  "title",
  "meta",
  "link",
  // Ruby annotations (furigana, pinyin) are set above the text they gloss; in the line they would join it.
  "rt",
  "rp",
]);
/** Dropped unless they hold most of the page's paragraphs (some sites wrap everything in them). */
export const GUARDED_DROP_TAGS = new Set(["header", "form"]);

export const BLOCK_TAGS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "td",
  "th",
  "blockquote",
  "pre",
  "header",
  "footer",
  "hr",
  "address",
  "center",
  "details",
  "summary",
  "fieldset",
  "body",
  "figure",
  "caption",
  "legend",
  // Block-level by default too; kept when they hold the text, their edges must still end a paragraph.
  "nav",
  "aside",
  "form",
  "hgroup",
  "search",
  "dir",
]);

/** Elements that end a line of text (blocks, and <br>): the words on either side are apart, not joined. */
export const endsLine = (el: Element): boolean => el.name === "br" || BLOCK_TAGS.has(el.name);
export const LEAD =
  /(?:^|[-_ ])(?:lead|leader|lede|intro|introduction|standfirst|subtitle|sub-?title|subheadline|dek|deck|summary|teaser-?text|vorspann|article-?intro|excerpt|abstract|chapeau|chapo|entradilla|occhiello|sommario)(?:$|[-_ ])/;
export const LEAD_SKIP = new Set([
  "script",
  "style",
  "nav",
  "aside",
  "footer",
  "figure",
  "figcaption",
  "form",
  "button",
  "noscript",
  "h1",
]);

/** A paragraph-like element: no block-level children (a whole header block is not a lead). */
export function isLeafBlock(el: Element): boolean {
  for (const c of el.children) {
    if (c.type === "tag" && BLOCK_TAGS.has((c as Element).name) && (c as Element).name !== "p") return false;
  }
  return el.name !== "span" && el.name !== "a";
}

export function isNegativeLead(ci: string): boolean {
  return /(?:^|[-_ ])(?:related|teaser-?list|teasers|more|nav|menu|comment|share|promo)(?:$|[-_ ])/.test(ci);
}

/** Blocks inside the container that conditional cleaning may drop. */
export const CONDITIONAL = new Set(["div", "section", "ul", "ol", "table", "form", "fieldset", "aside"]);
export const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/**
 * Boilerplate class/id words. Templates name their parts in English whatever the page's language (WordPress,
 * Drupal, Arc, …), so this list is the shared template vocabulary, not any site's. Each word was ablated on
 * the grouped folds: the ones that removed article text on some site and nothing else were taken out
 * (inline, paywall, pw, teaser, meta, rating, toc), the rest cost held-out folds when missing.
 */
const NEGATIVE =
  /(?:^|[-_])(?:share|sharing|sharebar|social|socials|newsletter|related|relatedposts|recommend|recommended|recommendations|promo|promos|promoted|advert|advertisement|advertising|ads?|adv|adslot|adunit|sponsor|sponsored|cookie|cookies|consent|gdpr|subscribe|subscription|signup|breadcrumbs?|comments?|commentlist|disqus|outbrain|taboola|byline|caption|captions|credit|credits|tags|tagcloud|author|authors|bio|readmore|trending|popular|mostread|most|sidebar|pagination|pager|modal|popup|overlay|banner|footer|header|masthead|nav|navbar|navigation|menu|toolbar|skip|sronly|sr-only|visually-hidden|visuallyhidden|tooltip|teasers|metadata|dateline|timestamp|date|published|updated|infobox|jump|more|next|prev|previous|follow|login|embed|slideshow|carousel|thumbnail|thumb|icon|logo|partner|partners|affiliate|shop|shopping|cta)(?:$|[-_])/;
/**
 * Compound class names a template glues together (imageCaption, photoCredit, lower-cased here as
 * "imagecaption"): a token that ends in caption or credit names one, whatever word comes first.
 */
const NEGATIVE_COMPOUND = /[a-z](?:caption|captions|credit|credits)(?:$|[-_])/;
/** A negative class/id token: a boilerplate name on its own or at the end of a compound. */
export const NEGATIVE_TOKEN = new RegExp(`${NEGATIVE.source}|${NEGATIVE_COMPOUND.source}`);
export const POSITIVE =
  /(?:^|[-_])(?:article|articlebody|body|content|contents|entry|hentry|main|post|story|text|blog|prose|richtext|copy|paragraph|paragraphs|page|lead|intro|standfirst|summary)(?:$|[-_])/;
/** Class/id that name the article text itself: never dropped, strong container bonus. */
export const STRONG_BODY =
  /(?:^|[-_ ])(?:article-?body|articlebody|article-?content|article-?text|story-?body|story-?content|story-?text|entry-?content|post-?content|post-?body|post-?text|blog-?post-?content|body-?text|main-?text|article__body|article__content|text-?content|rich-?text|articletext|storytext|td-post-content|field-body|c-article-body)(?:$|[-_ ])/i;
/**
 * How a promo, label or credit line of a news template begins, one concept per entry, each in the languages
 * most news is published in (en, de, fr, es, it, pt, nl), never a site's own wording: the template vocabulary
 * every site shares, which structure alone cannot tell from a short line of text. Only lines of 140
 * characters or less are tested (isPromoLine).
 */
const PROMO_STARTS = [
  // "Read also" and related-story labels.
  "read more|read also|also read|related|see also|more:|continue reading|more stories|more articles|top stories|most read|recommended|trending|you (?:may|might) also like",
  "lesen sie auch|mehr zum thema|auch interessant|weiterlesen|zum weiterlesen|siehe auch|weitere artikel|meistgelesen|das könnte (?:dich|sie) auch interessieren",
  "lire aussi|à lire aussi|lire la suite|voir aussi|leer más|lea también|lee también|ver también|leggi anche|leia também|leia mais|veja também|lees ook|lees meer|zie ook",
  // Advertising labels.
  "advertisement|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|advertentie",
  // Picture credits.
  "photo:|image:|foto:|fotos:|bild:|bildquelle|imagen:|immagine:|getty images|©|crédits? photos?|photo credits?",
  // Calls to click, subscribe, follow, share, support.
  "click here|sign up|subscribe|follow us|share this|like this story|if you enjoyed",
  // Comment-box labels.
  "no comments|keine kommentare|aucun commentaire|sin comentarios|nessun commento|leave a (?:comment|reply)|you must be logged|log in to",
  // A list-of-sources label on its own.
  "(?:sources|quellen|quellenangaben|fuentes|fonti|fontes|bronnen):?$",
  // Media labels.
  "watch:|listen:",
];
const PROMO_LINE = new RegExp(`^(?:${PROMO_STARTS.join("|")})`, "i");
/** A short line about a PDF (a download link): the format's name is the same in every language. */
const PDF_LINE = /\bpdf\b/i;
const PDF_LINE_CHARS = 80;

/** Element flags the survey reads from attributes (Surveyed.flags). */
export const HIDDEN = 1;
export const NAV_ROLE = 2;
export const ARTICLE_BODY = 4;
export const STRONG_SELF = 8;

/** Every strong body marker names body, content or text: a cheap test before STRONG_BODY. */
export const STRONG_STEM = /body|content|text/;

/** toLowerCase allocates even when nothing changes: most class names are lower-case ASCII already. */
export function lower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return s.toLowerCase();
  }
  return s;
}

export function tokens(ci: string): string[] {
  return ci.split(/\s+/).filter(Boolean);
}

/** "Follow us on Instagram, Facebook and Twitter": a line naming two or more social networks. */
const SOCIAL =
  /\b(?:instagram|facebook|twitter|youtube|tiktok|linkedin|snapchat|whatsapp|telegram|pinterest)\b/gi;

function isSocialPromo(p: string): boolean {
  return p.length < 250 && (p.match(SOCIAL)?.length ?? 0) >= 2;
}

const COMMENTS_LINE =
  /^(?:\d+\s+)?(?:comments?|kommentare?|commentaires?|comentarios?|commenti)(?:\s*\(\d+\))?:?$/i;

/** Wire-style credit lines at the end of a story: "(Reporting by …; Editing by …)", "… contributed to this report." */
const CREDIT_LINE =
  /^\(?\s*(?:(?:additional )?reporting by|writing by|editing by|compiled by|with reporting by)\b|contributed (?:to )?this report\.?\)?$/i;

export function isPromoLine(p: string): boolean {
  if (p.length <= 300 && (CREDIT_LINE.test(p) || isSocialPromo(p))) return true;
  if (p.length > 140) return false;
  if (p.length <= PDF_LINE_CHARS && PDF_LINE.test(p)) return true;
  return PROMO_LINE.test(p) || COMMENTS_LINE.test(p) || isDateline(p) || isSocialPromo(p);
}

/** "Published 12 March 2026", "Von X · 3. Februar 2026": a date with a few words around it. */
function isDateline(p: string): boolean {
  if (p.length > 80 || !/\d/.test(p)) return false;
  const m = scanDates(p)[0];
  if (!m) return false;
  const rest = (p.slice(0, m.index) + p.slice(m.end)).replace(/[^\p{L}]+/gu, "");
  return rest.length <= 25;
}
