/**
 * Main text of the page.
 * 1. Boilerplate goes by tag (nav, aside, footer, form, figure, …), hidden state and class/id signals (share,
 *    related, newsletter, comments, promo, caption, byline, …), unless the element holds most of the prose
 *    (body-pass.ts, over the page survey of page-survey.ts; the words in body-vocabulary.ts).
 * 2. The container is chosen readability-style and grown to cover the text (body-container.ts).
 * 3. Inside, link lists, widget blocks, one-line promos, datelines and the headline are left out;
 *    paragraphs come out separated by blank lines (body-render.ts).
 * When class signals empty the page, a second pass uses tags and hidden state only.
 */

import { chooseContainer, findLead } from "./body-container";
import { BodyPass } from "./body-pass";
import { BodyRenderer } from "./body-render";
import { type AnyNode, type Element, elementsInOrder } from "./dom";
import { type PageScanner, surveyPage } from "./page-survey";

export interface BodyOptions {
  /** Headline text: an element whose text equals it is not part of the body. */
  headline: string | null;
  /** Other forms of the headline the page states (og:title, JSON-LD): a heading equal to one is left out too. */
  headlineVariants?: string[];
}

export interface BodyResult {
  text: string;
  /** The chosen container (for date and byline lookups near the article). */
  container: Element | null;
}

/** The first element of that name in document order. */
function firstElementNamed(root: AnyNode, name: string): Element | null {
  for (const el of elementsInOrder(root)) if (el.name === name) return el;
  return null;
}

function runPass(root: AnyNode, opts: BodyOptions, scanner: PageScanner, lenient: boolean): BodyResult {
  const top = firstElementNamed(root, "body") ?? firstElementNamed(root, "html");
  if (!top) return { text: "", container: null };
  const pass = new BodyPass(scanner, lenient);
  pass.measure(top);
  const chosen = chooseContainer(pass);
  if (!chosen) return { text: new BodyRenderer(pass, [top], opts).text(), container: top };
  const { best, parts } = chosen;
  const text = new BodyRenderer(pass, parts, opts).text();
  const lead = findLead(pass, parts[0] ?? best, text);
  return { text: lead ? `${lead}\n\n${text}` : text, container: best };
}

/** Below this many characters the class-based pass probably removed the article with its wrapper. */
const RETRY_CHARS = 250;

/** `survey`: surveyPage(root), when the caller already made it. */
export function extractBody(root: AnyNode, opts: BodyOptions, survey = surveyPage(root)): BodyResult {
  const first = runPass(root, opts, survey, false);
  if (first.text.length >= RETRY_CHARS) return first;
  const second = runPass(root, opts, survey, true);
  return second.text.length > first.text.length ? second : first;
}
