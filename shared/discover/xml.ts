/**
 * The lenient XML reader for sitemaps and feeds. Publishers' XML is often broken (unclosed HTML inside
 * <description>, truncated transfers, stray CDATA, HTML entities), and a strict parser loses the whole
 * document at the first fault. This reader streams htmlparser2's tokenizer and hands each entry element
 * (<url>, <item>, <entry> …) to the caller as a small tree the moment it closes, so that:
 * - damage costs only the entry it sits in: a close tag pops every unclosed element above its match,
 *   a close tag matching nothing is ignored, an entry still open at the end of the text is dropped;
 * - DTD entities are never expanded (no billion laughs): a declared entity is reported and its
 *   references stay literal; HTML and numeric entities are decoded;
 * - depth is iterative and capped (elements deeper than maxDepth are skipped, their text too), and each
 *   captured tree is capped in nodes and characters, so memory per entry is bounded;
 * - the caller can stop building entries (a URL cap), so a 1 M-entry sitemap never holds 1 M objects.
 * Every skip is reported once in `damage` with its reason.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlError";
  }
}

/** An element: local name lower-cased (news:title → "title"), attributes likewise, content in order. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
}

export interface XmlReadLimits {
  /** Open elements kept; deeper ones are skipped. Real feeds nest < 15 (XHTML content included). */
  maxDepth: number;
  /** Elements in one captured tree; an entry's metadata needs < 50. */
  maxNodes: number;
  /** Characters of text in one captured tree (a long description is cut, its entry kept). */
  maxChars: number;
}

const DEFAULT_XML_LIMITS: XmlReadLimits = { maxDepth: 64, maxNodes: 2_000, maxChars: 256 * 1024 };

export interface XmlVisitor {
  /** Whether the element just opened (with its open ancestors' names) starts a tree to capture. */
  capture(name: string, parents: readonly string[], attrs: Readonly<Record<string, string>>): boolean;
  /** A captured tree, complete. Return "skip" to stop building trees: later ones are only counted. */
  onElement(el: XmlElement, parents: readonly string[]): undefined | "skip";
}

export interface XmlReadResult {
  /** The document element, with its attributes; null when the text holds no element. */
  root: XmlElement | null;
  /** Captured trees seen after the visitor said "skip". */
  skipped: number;
  /** What was dropped and why (each reason once, with a count). */
  damage: string[];
}

function localName(raw: string): string {
  const name = /[A-Z]/.test(raw) ? raw.toLowerCase() : raw;
  const colon = name.lastIndexOf(":");
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/** Tallies each kind of damage once, so a million broken entries make one line, not a million. */
class DamageLog {
  private readonly counts = new Map<string, number>();
  note(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }
  lines(): string[] {
    return [...this.counts].map(([reason, n]) => (n > 1 ? `${reason} (×${n})` : reason));
  }
}

/** Streams `text`, calling the visitor for each captured tree. Never throws on malformed input. */
export function readXml(
  text: string,
  visitor: XmlVisitor,
  limits: XmlReadLimits = DEFAULT_XML_LIMITS,
): XmlReadResult {
  const damage = new DamageLog();
  const names: string[] = []; // open elements, outermost first (capped at maxDepth)
  let tooDeep = 0; // open elements beyond maxDepth, skipped
  let root: XmlElement | null = null;
  // The capture in progress: its open elements (index 0 = the captured element), and at which depth it began.
  let open: XmlElement[] = [];
  let captureDepth = -1;
  let nodes = 0;
  let chars = 0;
  let skipping = false;
  let skipped = 0;
  // The tag being opened.
  let tagName = "";
  let tagAttrs: Record<string, string> = {};
  let attrName = "";
  let attrValue = "";

  const appendText = (s: string): void => {
    if (open.length === 0 || skipping || s === "") return;
    if (chars + s.length > limits.maxChars) {
      damage.note(`text beyond ${limits.maxChars} characters in one <${open[0]!.name}> cut`);
      s = s.slice(0, Math.max(0, limits.maxChars - chars));
      if (!s) return;
    }
    chars += s.length;
    open[open.length - 1]!.children.push(s);
  };

  const openElement = (): void => {
    if (tooDeep > 0 || names.length >= limits.maxDepth) {
      if (tooDeep === 0) damage.note(`elements nested deeper than ${limits.maxDepth} skipped`);
      tooDeep++;
      return;
    }
    const el: XmlElement = { name: tagName, attrs: tagAttrs, children: [] };
    if (root === null) root = { name: tagName, attrs: tagAttrs, children: [] };
    if (open.length > 0) {
      if (!skipping) {
        if (++nodes > limits.maxNodes) {
          if (nodes === limits.maxNodes + 1)
            damage.note(`more than ${limits.maxNodes} elements in one entry cut`);
        } else open[open.length - 1]!.children.push(el);
      }
      open.push(el);
    } else if (visitor.capture(tagName, names, tagAttrs)) {
      open = [el];
      captureDepth = names.length;
      nodes = 1;
      chars = 0;
    }
    names.push(tagName);
  };

  /** Pops open elements down to and including the one at `depth`. */
  const closeTo = (depth: number): void => {
    while (names.length > depth) {
      names.pop();
      if (open.length === 0) continue;
      const el = open.pop()!;
      if (names.length === captureDepth) {
        open = [];
        captureDepth = -1;
        if (skipping) skipped++;
        else if (visitor.onElement(el, names) === "skip") skipping = true;
      }
    }
  };

  const cbs: TokenizerCallbacks = {
    onopentagname(start, end) {
      tagName = localName(text.slice(start, end));
      tagAttrs = {};
    },
    onattribname(start, end) {
      attrName = localName(text.slice(start, end));
      attrValue = "";
    },
    onattribdata(start, end) {
      attrValue += text.slice(start, end);
    },
    onattribentity() {},
    onattribend() {
      if (!(attrName in tagAttrs)) tagAttrs[attrName] = decodeHTMLAttribute(attrValue).trim();
    },
    onopentagend() {
      openElement();
    },
    onselfclosingtag() {
      const depth = names.length;
      const wasDeep = tooDeep > 0 || depth >= limits.maxDepth;
      openElement();
      if (wasDeep) tooDeep--;
      else closeTo(depth);
    },
    onclosetag(start, end) {
      if (tooDeep > 0) {
        tooDeep--;
        return;
      }
      const at = names.lastIndexOf(localName(text.slice(start, end)));
      if (at < 0) {
        damage.note("close tag without an open element ignored");
        return;
      }
      if (at < names.length - 1) damage.note("unclosed element closed by an outer close tag");
      closeTo(at);
    },
    ontext(start, end) {
      if (tooDeep > 0 || open.length === 0 || skipping) return;
      const raw = text.slice(start, end);
      appendText(raw.includes("&") ? decodeHTML(raw) : raw);
    },
    ontextentity() {},
    oncdata(start, end, offset) {
      if (tooDeep === 0) appendText(text.slice(start, end - offset));
    },
    oncomment() {},
    ondeclaration(start, end) {
      // The first <!ENTITY of an internal subset arrives inside the <!DOCTYPE … [ declaration.
      if (/\bENTITY\b/.test(text.slice(start, Math.min(end, start + 512)))) {
        damage.note("DTD entity declaration ignored (entities are never expanded)");
      }
    },
    onprocessinginstruction() {},
    onend() {},
  };

  const tokenizer = new Tokenizer({ xmlMode: true, decodeEntities: false }, cbs);
  tokenizer.write(text);
  tokenizer.end();
  if (open.length > 0)
    damage.note(`document ends inside <${open[0]!.name}> (truncated?); that entry dropped`);
  return { root, skipped, damage: damage.lines() };
}

/** The first child element called `name`. */
export function child(el: XmlElement | null | undefined, name: string): XmlElement | null {
  if (!el) return null;
  for (const c of el.children) if (typeof c !== "string" && c.name === name) return c;
  return null;
}

/** Every child element called `name`. */
export function children(el: XmlElement | null | undefined, name: string): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c): c is XmlElement => typeof c !== "string" && c.name === name);
}

/** All text inside the element, descendants included, in document order (iterative), trimmed. */
export function textOf(el: XmlElement | null | undefined): string | null {
  if (!el) return null;
  let out = "";
  const stack: (XmlElement | string)[] = [el];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === "string") out += n;
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.trim() || null;
}

export function attr(el: XmlElement | null | undefined, name: string): string | null {
  return el?.attrs[name] || null;
}
