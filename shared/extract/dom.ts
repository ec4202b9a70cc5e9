/**
 * The parsed page: htmlparser2, the parser cheerio's `cheerio/slim` uses, called directly (the same
 * Document as `load(html).root()`, without building a cheerio instance per page), walked over
 * domhandler nodes. Walking nodes by hand instead of CSS selectors keeps extraction within a few
 * milliseconds per page, and the Lambda bundle free of cheerio's selector engine.
 *
 * The tree is bounded while it is built (PARSE_LIMITS): hostile markup cannot make it deep enough to
 * slow the parser down or overflow a walk, nor big enough to exhaust the fetch function's memory.
 */
import type { AnyNode, Document, Element } from "domhandler";
import { DomHandler, Parser, type QuoteType, Tokenizer, type TokenizerCallbacks } from "htmlparser2";

export type { AnyNode, Element };

/**
 * What one page may build. Over the 803 pages of the four evaluation sets the deepest element sits 38
 * levels down and the largest page has 11,529 elements, so real pages never meet these.
 * - maxDepth 256: htmlparser2 keeps its open elements in an array it unshifts on every tag, so each
 *   open tag costs the depth so far: 100,000 nested <div>s took 12 s, 40,000 took 0.4 s. At 256 the
 *   cost per tag is constant. Tags deeper than this are ignored; their text joins the element at the
 *   limit (the page reads as text-only below it), and their end tags are matched and dropped too.
 * - maxNodes 50,000 elements, comments and other non-text nodes (4× the largest real page): a 5 MiB
 *   page of 750,000 tiny elements then peaks at 177 MB RSS, V8 unconstrained (221 MB at 100,000;
 *   605 MB with no cap), against the fetch function's 256 MB (bench/memory-at-caps.ts). Past it, tags
 *   are ignored the same way and only their text is kept.
 * - maxAttributes 64 per element: a real element carries a few; one tag with a million attributes would
 *   be a million-key object. Later ones are ignored.
 * - maxTextChars 2,000,000 characters of text kept outside scripts, and maxNodeTextChars 200,000 in one
 *   text node: the evaluation pages' most is 570,000 bytes (a forum thread; the median page, 12,700) and
 *   their longest text node 16,374 characters; the body is cut at 200,000 bytes anyway. A 5 MiB
 *   paragraph peaked at 193 MB RSS under the V8 flags of a 275 MB Lambda. The per-node cap keeps a
 *   megabyte title from spending the page's budget before the article. Later text is not kept. JSON-LD
 *   is not counted (one page carries 841,000 bytes of it; a 5 MiB JSON-LD page peaks at 77 MB).
 * The text of <script>s other than JSON-LD, and of <style>s, is not kept at all: extraction never reads
 * it, and inline application state can be megabytes (the evaluation pages' largest: 1.6 MB of CSS).
 */
export const PARSE_LIMITS = {
  maxDepth: 256,
  maxNodes: 50_000,
  maxAttributes: 64,
  maxTextChars: 2_000_000,
  maxNodeTextChars: 200_000,
} as const;

export type ParseLimits = { readonly [K in keyof typeof PARSE_LIMITS]: number };

// Elements without an end tag: an ignored one leaves no end tag to drop.
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** The handler, telling the guard how deep the element being opened would sit. */
class DepthHandler extends DomHandler {
  get depth(): number {
    return this.tagStack.length;
  }

  /** Characters in the text node the next text joins (htmlparser2 merges adjacent text). */
  get openTextLength(): number {
    const last = this.lastNode;
    return last?.type === "text" ? last.data.length : 0;
  }

  /** What the text being read belongs to: a <style> or a <script> other than JSON-LD (never read),
   * JSON-LD, or the page's text. */
  get textKind(): "unread" | "json-ld" | "text" {
    const open = this.tagStack[this.tagStack.length - 1];
    if (open?.type === "style") return "unread";
    if (open?.type !== "script") return "text";
    return /ld\+json/i.test((open as Element).attribs.type ?? "") ? "json-ld" : "unread";
  }
}

/**
 * Between htmlparser2's tokenizer and its parser: passes every event through until a tag would be
 * deeper than maxDepth or past maxNodes, then drops that tag (name, attributes, end) and keeps its text;
 * the page's text is kept up to maxTextChars (maxNodeTextChars in one text node), and none inside <style>
 * or a <script> other than JSON-LD.
 */
class ParseGuard implements TokenizerCallbacks {
  private nodes = 0;
  private textChars = 0;
  /** Inside an ignored start tag (its attributes go with it). */
  private ignoring = false;
  private attributes = 0;
  private ignoringAttribute = false;
  /** Ignored start tags by name, whose end tags are still to come. */
  private readonly open = new Map<string, number>();

  constructor(
    private readonly parser: TokenizerCallbacks,
    private readonly handler: DepthHandler,
    private readonly html: string,
    private readonly limits: ParseLimits,
  ) {}

  private full(): boolean {
    return this.nodes >= this.limits.maxNodes;
  }

  onopentagname(start: number, endIndex: number): void {
    this.attributes = 0;
    this.ignoringAttribute = false;
    if (this.handler.depth > this.limits.maxDepth || this.full()) {
      this.ignoring = true;
      const name = this.html.slice(start, endIndex).toLowerCase();
      if (!VOID.has(name)) this.open.set(name, (this.open.get(name) ?? 0) + 1);
      return;
    }
    this.ignoring = false;
    this.nodes++;
    this.parser.onopentagname(start, endIndex);
  }
  onattribname(start: number, endIndex: number): void {
    if (this.ignoring) return;
    this.ignoringAttribute = ++this.attributes > this.limits.maxAttributes;
    if (!this.ignoringAttribute) this.parser.onattribname(start, endIndex);
  }
  onattribdata(start: number, endIndex: number): void {
    if (!this.ignoring && !this.ignoringAttribute) this.parser.onattribdata(start, endIndex);
  }
  onattribentity(codepoint: number): void {
    if (!this.ignoring && !this.ignoringAttribute) this.parser.onattribentity(codepoint);
  }
  onattribend(quote: QuoteType, endIndex: number): void {
    if (!this.ignoring && !this.ignoringAttribute) this.parser.onattribend(quote, endIndex);
  }
  onopentagend(endIndex: number): void {
    if (this.ignoring) this.ignoring = false;
    else this.parser.onopentagend(endIndex);
  }
  onselfclosingtag(endIndex: number): void {
    // An ignored <x/> leaves its count in `open`: a later </x> is dropped, as the limit drops its tags.
    if (this.ignoring) this.ignoring = false;
    else this.parser.onselfclosingtag(endIndex);
  }
  onclosetag(start: number, endIndex: number): void {
    if (this.open.size > 0) {
      const name = this.html.slice(start, endIndex).toLowerCase();
      const n = this.open.get(name);
      if (n !== undefined) {
        if (n > 1) this.open.set(name, n - 1);
        else this.open.delete(name);
        return;
      }
    }
    this.parser.onclosetag(start, endIndex);
  }
  oncomment(start: number, endIndex: number, endOffset: number): void {
    if (this.full()) return;
    this.nodes++;
    this.parser.oncomment(start, endIndex, endOffset);
  }
  oncdata(start: number, endIndex: number, endOffset: number): void {
    if (this.full()) return;
    this.nodes++;
    this.parser.oncdata(start, endIndex, endOffset);
  }
  ondeclaration(start: number, endIndex: number): void {
    if (this.full()) return;
    this.nodes++;
    this.parser.ondeclaration(start, endIndex);
  }
  onprocessinginstruction(start: number, endIndex: number): void {
    if (this.full()) return;
    this.nodes++;
    this.parser.onprocessinginstruction(start, endIndex);
  }
  ontext(start: number, endIndex: number): void {
    const kind = this.handler.textKind;
    if (kind === "json-ld") this.parser.ontext(start, endIndex);
    if (kind !== "text") return;
    const room = Math.min(
      this.limits.maxTextChars - this.textChars,
      this.limits.maxNodeTextChars - this.handler.openTextLength,
    );
    const end = Math.min(endIndex, start + room);
    if (end <= start) return;
    this.textChars += end - start;
    this.parser.ontext(start, end);
  }
  ontextentity(codepoint: number, endIndex: number): void {
    // Script text has no entities (the tokenizer reads it raw): this is the page's text.
    if (
      this.textChars >= this.limits.maxTextChars ||
      this.handler.openTextLength >= this.limits.maxNodeTextChars
    )
      return;
    this.textChars++;
    this.parser.ontextentity(codepoint, endIndex);
  }
  onend(): void {
    this.parser.onend();
  }
}

/** What the guarded tokenizer needs beside htmlparser2's options (the parser passes its options on). */
interface GuardedOptions {
  readonly guard: { readonly handler: DepthHandler; readonly html: string; readonly limits: ParseLimits };
}

/**
 * The tokenizer htmlparser2's parser builds from its options, with the guard between it and the parser.
 * One class for every page (a class per page would give V8 new shapes each time: 3× slower).
 */
class GuardedTokenizer extends Tokenizer {
  constructor(
    options: ConstructorParameters<typeof Tokenizer>[0] & GuardedOptions,
    parser: TokenizerCallbacks,
  ) {
    const { handler, html, limits } = options.guard;
    super(options, new ParseGuard(parser, handler, html, limits));
  }
}

/** The tokenizer's fields the scans below read and move (htmlparser2 10.1.0's, pinned in package.json). */
interface TokenizerState {
  buffer: string;
  index: number;
  offset: number;
}
type State = (this: TokenizerState, c: number) => void;
const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const base = Tokenizer.prototype as unknown as Record<
  "stateText" | "stateInAttributeValueDoubleQuotes" | "stateInAttributeValueSingleQuotes",
  State
>;

/**
 * Leaves the tokenizer just before the next `a` or `b` (its loop steps onto it), or before the end.
 * htmlparser2 hands every character of text and of attribute values to its state machine one call at a
 * time; a tight loop here finds the next character that matters at a fraction of that.
 */
function skipUntil(t: TokenizerState, a: number, b: number): void {
  const buf = t.buffer;
  const n = buf.length;
  let i = t.index - t.offset + 1;
  while (i < n) {
    const d = buf.charCodeAt(i);
    if (d === a || d === b) break;
    i++;
  }
  t.index = t.offset + i - 1;
}

/**
 * The same tokens as htmlparser2's own states, found faster: text and quoted attribute values skip to the
 * next character their state acts on (`<` or `&`, the quote or `&`), and `fastForwardTo` (inside scripts,
 * styles and comments) is a native indexOf instead of a loop over characters. The parse of the 60 AEB
 * pages takes ~25 % less time; the parsed tree is the same (test/shared/extract/dom.test.ts compares it
 * with the stock tokenizer's).
 */
Object.defineProperties(GuardedTokenizer.prototype, {
  stateText: {
    value: function stateText(this: TokenizerState, c: number): void {
      if (c === LT || c === AMP) base.stateText.call(this, c);
      else skipUntil(this, LT, AMP);
    },
  },
  stateInAttributeValueDoubleQuotes: {
    value: function stateInAttributeValueDoubleQuotes(this: TokenizerState, c: number): void {
      if (c === DOUBLE_QUOTE || c === AMP) base.stateInAttributeValueDoubleQuotes.call(this, c);
      else skipUntil(this, DOUBLE_QUOTE, AMP);
    },
  },
  stateInAttributeValueSingleQuotes: {
    value: function stateInAttributeValueSingleQuotes(this: TokenizerState, c: number): void {
      if (c === SINGLE_QUOTE || c === AMP) base.stateInAttributeValueSingleQuotes.call(this, c);
      else skipUntil(this, SINGLE_QUOTE, AMP);
    },
  },
  fastForwardTo: {
    value: function fastForwardTo(this: TokenizerState, c: number): boolean {
      const at = this.buffer.indexOf(String.fromCharCode(c), this.index - this.offset + 1);
      if (at !== -1) {
        this.index = this.offset + at;
        return true;
      }
      // As htmlparser2's: its loop steps past the last character and stops.
      this.index = this.offset + this.buffer.length - 1;
      return false;
    },
  },
});

export function parseHtml(html: string, limits: ParseLimits = PARSE_LIMITS): Document {
  const handler = new DepthHandler();
  const options = { Tokenizer: GuardedTokenizer as typeof Tokenizer, guard: { handler, html, limits } };
  new Parser(handler, options).end(html);
  return handler.root as unknown as Document;
}

/** Elements proper: htmlparser2 gives <script> and <style> their own node types. */
export function isElement(node: AnyNode): node is Element {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

/** Whether an element sits inside an element of this tag name. */
export function hasAncestorNamed(el: Element, name: string): boolean {
  let p = el.parent;
  while (p) {
    if (isElement(p) && p.name === name) return true;
    p = p.parent;
  }
  return false;
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
}

/** How textOf() walks: elements it leaves out (with their subtree), a separator after each element, a cap. */
export interface TextWalk {
  /** Elements (below the root) whose text is left out. */
  readonly skip?: (el: Element) => boolean;
  /** Written after each element's text, the root's included (" " keeps words of adjacent blocks apart). */
  readonly after?: string;
  /** Only these elements (below the root) are followed by `after`: blocks and <br> end a line, inline tags do not. */
  readonly breaks?: (el: Element) => boolean;
  /** Stop adding text once this many characters are written (separators of open elements still follow). */
  readonly limit?: number;
}

/** Marks the end of an element on textOf()'s stack. */
const END = Symbol("end of element");

/**
 * The project's one DOM text walk: the text nodes below a node, through tags (never into scripts or
 * styles), in document order. An explicit stack, children pushed in reverse, so depth costs heap, never
 * call stack.
 */
export function textOf(node: AnyNode, walk: TextWalk = {}): string {
  if (node.type === "text") return (node as unknown as { data: string }).data;
  if (!("children" in node)) return "";
  const { skip, after, breaks, limit = Number.POSITIVE_INFINITY } = walk;
  let out = "";
  const stack: (AnyNode | typeof END)[] = [];
  if (after !== undefined) stack.push(END);
  for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === END) {
      out += after;
      continue;
    }
    if (out.length > limit) continue;
    if (n.type === "text") out += (n as unknown as { data: string }).data;
    else if (n.type === "tag") {
      if (skip?.(n as Element)) continue;
      if (after !== undefined && (breaks === undefined || breaks(n as Element))) stack.push(END);
      const children = (n as Element).children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return out;
}

/** Concatenated text of the text nodes below a node, through tags (not scripts), in document order. */
export function rawText(node: AnyNode): string {
  return textOf(node);
}

/**
 * The elements (tags) below `root` in document order (pre-order, iterative). `skipBelow(el)` true: the
 * element is yielded but its subtree is not walked.
 */
export function* elementsInOrder(root: AnyNode, skipBelow?: (el: Element) => boolean): Generator<Element> {
  if (!("children" in root)) return;
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]!);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type !== "tag") continue;
    const el = n as Element;
    yield el;
    if (skipBelow?.(el)) continue;
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
  }
}
