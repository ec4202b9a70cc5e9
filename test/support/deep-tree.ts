/** Trees deeper than any parser limit lets a page build: what the iterative walks must take. */
import { type ChildNode, Element } from "domhandler";

/** A chain of `depth` nested <div>s built by hand (past any parser limit), ending in `leaf`. */
export function deepChain(depth: number, leaf: ChildNode): Element {
  const top = new Element("div", {});
  let cur = top;
  for (let i = 0; i < depth; i++) {
    const next = new Element("div", {});
    cur.children.push(next);
    next.parent = cur;
    cur = next;
  }
  cur.children.push(leaf);
  leaf.parent = cur;
  return top;
}
