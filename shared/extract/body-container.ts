/**
 * Container choice: the best-scoring element of a measured pass (body-pass.ts), moved to a shared ancestor
 * of the top candidates, then grown to cover the text: same-class blocks split around ads, an ancestor
 * holding much more prose, siblings that continue the text, and the lead paragraph left in the (dropped)
 * article header.
 */

import type { BodyPass } from "./body-pass";
import { endsLine, HIDDEN, isLeafBlock, isNegativeLead, LEAD, LEAD_SKIP } from "./body-vocabulary";
import { type Element, elementsInOrder, isElement, rawText, textOf } from "./dom";
import { cleanInline } from "./text";

const WIDEN_GAIN = 2;
const WIDEN_MAX_LINK_DENSITY = 0.2;

/** The container of the text and the blocks to render (several when the text is split), or null. */
export function chooseContainer(pass: BodyPass): { best: Element; parts: Element[] } | null {
  let best: Element | null = null;
  let bestScore = 0;
  const candidates: [Element, number][] = [];
  for (const el of pass.measuredOrder) {
    if (!pass.stats(el)?.initialised) continue;
    const f = pass.finalScore(el);
    candidates.push([el, f]);
    if (f > bestScore) {
      bestScore = f;
      best = el;
    }
  }
  if (!best) return null;
  best = refine(pass, best, bestScore, candidates);
  best = widen(pass, best);
  const chunks = sameClassChunks(pass, best);
  return { best, parts: chunks.length > 1 ? chunks : withSiblings(pass, best) };
}

/**
 * The standfirst/lead paragraph often sits in the article header, outside the chosen container (and
 * headers are dropped). It is part of the article: take the first lead-marked block before the container
 * within the same article region.
 */
export function findLead(pass: BodyPass, first: Element, text: string): string | null {
  let scope: Element = first;
  for (let level = 0; level < 5; level++) {
    const p = scope.parent as Element | null;
    if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
    scope = p;
  }
  if (scope === first) return null;
  // Document order over the scope, until the container; skipped and hidden elements are not entered.
  const closed = (el: Element): boolean => LEAD_SKIP.has(el.name) || (pass.info(el).flags & HIDDEN) !== 0;
  for (const el of elementsInOrder(scope, closed)) {
    if (el === first) return null;
    if (closed(el)) continue;
    const ci = pass.info(el).ci;
    if (ci && LEAD.test(ci) && !isNegativeLead(ci) && isLeafBlock(el)) {
      const t = cleanInline(textOf(el, { after: " ", breaks: endsLine }));
      if (t.length >= 80 && t.length <= 1500 && /[.!?…:"“”»«]/.test(t) && !text.includes(t.slice(0, 60)))
        return t;
    }
  }
  return null;
}

/** Readability's moves: a shared ancestor of several top candidates, then parents that score higher. */
function refine(pass: BodyPass, best: Element, bestScore: number, candidates: [Element, number][]): Element {
  candidates.sort((a, b) => b[1] - a[1]);
  const top = candidates.slice(1, 5).filter(([, s]) => s >= bestScore * 0.75);
  if (top.length >= 2) {
    let parent = best.parent as Element | null;
    while (parent && parent.type === "tag" && parent.name !== "body") {
      let shared = 0;
      for (const [el] of top) if (isAncestor(parent, el)) shared++;
      if (shared >= 2) {
        best = parent;
        break;
      }
      parent = parent.parent as Element | null;
    }
  }
  // Walk up while the parent adds no text of its own (a wrapper) or scores higher.
  let last = pass.finalScore(best);
  const threshold = last / 3;
  let parent = best.parent as Element | null;
  while (parent && parent.type === "tag" && parent.name !== "body") {
    const ps = pass.finalScore(parent);
    if (ps < threshold) break;
    if (ps > last) {
      best = parent;
      last = ps;
    }
    parent = parent.parent as Element | null;
  }
  while (best.parent && (best.parent as Element).type === "tag" && (best.parent as Element).name !== "body") {
    const p = best.parent as Element;
    const elementChildren = p.children.filter((c) => isElement(c) && !pass.dropped.has(c));
    if (elementChildren.length !== 1) break;
    best = p;
  }
  return best;
}

/**
 * Pages whose main text sits in several sibling blocks (recipes, FAQs, product pages, split bodies): move
 * up while an ancestor holds much more paragraph text at a low link density.
 */
function widen(pass: BodyPass, best: Element): Element {
  const base = pass.stats(best);
  if (!base) return best;
  let cur = best;
  for (let level = 0; level < 3; level++) {
    const p = cur.parent as Element | null;
    if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
    const ps = pass.stats(p);
    if (!ps) break;
    if (ps.para >= WIDEN_GAIN * Math.max(base.para, 1) && pass.linkDensity(ps) < WIDEN_MAX_LINK_DENSITY) {
      return p;
    }
    cur = p;
  }
  return best;
}

/**
 * Bodies split into several same-class blocks around ads and embeds (one wrapper each): every block with
 * the container's tag and class under a near ancestor, in page order.
 */
function sameClassChunks(pass: BodyPass, best: Element): Element[] {
  const cls = best.attribs.class;
  if (!cls) return [];
  let scope: Element = best;
  for (let level = 0; level < 4; level++) {
    const p = scope.parent as Element | null;
    if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
    scope = p;
    if (p.name === "article" || p.name === "main") break;
  }
  if (scope === best) return [];
  const out: Element[] = [];
  // Document order, not entering dropped elements nor a match.
  const same = (el: Element): boolean => el.name === best.name && el.attribs.class === cls;
  for (const el of elementsInOrder(scope, (el) => pass.dropped.has(el) || same(el))) {
    if (pass.dropped.has(el) || !same(el)) continue;
    const st = pass.stats(el);
    if (st && st.text > 0) out.push(el);
  }
  return out;
}

function withSiblings(pass: BodyPass, best: Element): Element[] {
  const parent = best.parent;
  if (!parent || !("children" in parent)) return [best];
  const bestScore = pass.finalScore(best);
  const threshold = Math.max(10, bestScore * 0.2);
  const bestClass = best.attribs.class ?? "";
  const out: Element[] = [];
  for (const sib of parent.children) {
    if (!isElement(sib) || pass.dropped.has(sib)) continue;
    if (sib === best) {
      out.push(sib);
      continue;
    }
    const st = pass.stats(sib);
    if (!st) continue;
    let bonus = 0;
    if (bestClass && sib.attribs.class === bestClass) bonus += bestScore * 0.2;
    if (st.initialised && pass.finalScore(sib) + bonus >= threshold) {
      out.push(sib);
      continue;
    }
    if (sib.name === "p") {
      const ld = pass.linkDensity(st);
      if (
        (st.text > 80 && ld < 0.25) ||
        (st.text > 0 && st.text <= 80 && ld === 0 && /[.!?…]\s*$/.test(rawText(sib)))
      ) {
        out.push(sib);
      }
    }
  }
  return out;
}

function isAncestor(anc: Element, el: Element): boolean {
  let p = el.parent;
  while (p) {
    if (p === anc) return true;
    p = p.parent;
  }
  return false;
}
