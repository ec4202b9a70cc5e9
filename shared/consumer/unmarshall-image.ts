/**
 * DynamoDB JSON (`{"S": "x"}`, `{"N": "1"}`, …) to plain values, for stream images. The records
 * package cannot depend on @aws-sdk/util-dynamodb (it would pull the SDK into every consumer's
 * install), and storytrail's items are flat, so this is small. Numbers become JS numbers; binary
 * is passed through as delivered (base64 text in a Lambda event, bytes from the SDK; no cluster record
 * has any). Nesting is walked with an explicit stack and capped.
 */

/** DynamoDB allows 32 levels of nesting in an item. */
const MAX_DEPTH = 32;

type Wire = Record<string, unknown>;

/** A malformed attribute value; `path` names it (`a.b.0`). */
export class AttributeValueError extends TypeError {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = "AttributeValueError";
    this.path = path;
  }
}

function list(v: unknown, path: string, type: string): unknown[] {
  if (!Array.isArray(v)) throw new AttributeValueError(path, `${type} must be a list`);
  return v;
}

function number(v: unknown, path: string): number {
  const n = Number(v);
  if (typeof v !== "string" || Number.isNaN(n))
    throw new AttributeValueError(path, `N: not a number: ${typeof v === "string" ? v : typeof v}`);
  return n;
}

/** One attribute value; containers are returned empty and filled by the caller's walk. */
function scalar(av: unknown, path: string): { value: unknown; children?: [string | number, unknown][] } {
  if (typeof av !== "object" || av === null || Array.isArray(av))
    throw new AttributeValueError(path, "not an attribute value");
  const entries = Object.entries(av as Wire);
  if (entries.length !== 1)
    throw new AttributeValueError(path, "an attribute value has exactly one type key");
  const [type, v] = entries[0]!;
  switch (type) {
    case "S":
      if (typeof v !== "string") throw new AttributeValueError(path, "S must be text");
      return { value: v };
    case "N":
      return { value: number(v, path) };
    case "BOOL":
      return { value: Boolean(v) };
    case "NULL":
      return { value: null };
    case "B":
      return { value: v };
    case "SS":
      return { value: new Set(list(v, path, type)) };
    case "NS":
      return { value: new Set(list(v, path, type).map((x) => number(x, path))) };
    case "BS":
      return { value: new Set(list(v, path, type)) };
    case "M": {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        throw new AttributeValueError(path, "M must be a map");
      return { value: {}, children: Object.entries(v as Wire) };
    }
    case "L": {
      return { value: [], children: list(v, path, type).map((x, i) => [i, x] as [number, unknown]) };
    }
    default:
      throw new AttributeValueError(path, `unknown attribute type ${type}`);
  }
}

/** An image (a map of attribute values) as a plain object. Throws an AttributeValueError naming the path. */
export function unmarshallImage(image: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (typeof image !== "object" || image === null || Array.isArray(image))
    throw new AttributeValueError("(image)", "not a map of attribute values");
  const root: Record<string, unknown> = {};
  const stack: {
    target: Record<string | number, unknown>;
    entries: [string | number, unknown][];
    path: string;
    depth: number;
  }[] = [{ target: root, entries: Object.entries(image), path: "", depth: 0 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    for (const [key, av] of frame.entries) {
      const path = `${frame.path}${frame.path ? "." : ""}${key}`;
      const { value, children } = scalar(av, path);
      // defineProperty, not `=`: a key "__proto__" (valid JSON) must stay a plain own property.
      Object.defineProperty(frame.target, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (children) {
        if (frame.depth + 1 > MAX_DEPTH)
          throw new AttributeValueError(path, `nested deeper than ${MAX_DEPTH}`);
        stack.push({
          target: value as Record<string | number, unknown>,
          entries: children,
          path,
          depth: frame.depth + 1,
        });
      }
    }
  }
  return root;
}
