/**
 * The Articles item ↔ the article. Since record version 3 the item stores `body` gzip-compressed, a
 * binary attribute, with `body_encoding: "gzip"`; version 2 stored it as a string. Fetch writes with
 * `articleItemFields` and every reader (the records package's consumers, `storytrail export`, the
 * adapters) reads with `decodeArticleItem` or `articleItemBody`, so nothing handles the bytes by hand.
 *
 * gzip at level 6, measured by `npx tsx bench/body-compression.ts` over the 795 evaluation pages'
 * bodies (median 3.3 KB, max 50 KB): 0.444 of the UTF-8 bytes, 100 µs to compress and 22 µs to
 * decompress a body, 2.70 of 6.17 write units saved per article. Brotli saves at most 0.05 more at
 * quality 6 (184 µs) and 0.26 more at 11 (5.4 ms of CPU per body, which costs what it saves), and
 * gzip is read by every language's standard library (Python's gzip, Java's GZIPInputStream, Go's
 * compress/gzip, the web's DecompressionStream), brotli by none of those.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { type Article, articleSchema, READ_RECORD_VERSIONS, RECORD_VERSION } from "../records";

export const BODY_ENCODING = "gzip";

/** URLs kept per article: each ≤ 2,048 characters (field-caps.ts), so ≤ 41 KB of the 400 KB item. */
export const MAX_URL_VARIANTS = 20;

/** A body never decodes past this: 10× the 200,000-byte body cap, so a corrupt or hostile item
 * fails here instead of filling memory. */
const MAX_DECODED_BODY_BYTES = 2_000_000;

/** An Articles item this decoder cannot read: its version, its body, or its fields. */
export class ArticleItemError extends Error {
  override name = "ArticleItemError";
}

/** What the Articles item stores for a body: its UTF-8 text, gzip-compressed. */
export function encodeBody(body: string): Uint8Array {
  return gzipSync(body, { level: 6 });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The text of an Articles item's body, whichever readable version wrote it: version 3's gzip bytes
 * (Uint8Array from the SDK, base64 text in DynamoDB JSON: an export to S3, a stream event), or
 * version 2's string. An item with no body reads as "".
 */
export function articleItemBody(item: Readonly<Record<string, unknown>>): string {
  const { body, body_encoding: encoding } = item;
  if (encoding == null && (body == null || typeof body === "string")) return body ?? "";
  // Short messages: every byte here is in the fetch bundle, which is at its 1 MiB cap.
  const at = `article ${String(item.article_id)}: body`;
  if (encoding !== BODY_ENCODING || !(body instanceof Uint8Array || typeof body === "string"))
    throw new ArticleItemError(`${at} is ${typeof body}, body_encoding ${String(encoding)}: this reads gzip`);
  try {
    const bytes = typeof body === "string" ? Buffer.from(body, "base64") : body;
    return utf8.decode(gunzipSync(bytes, { maxOutputLength: MAX_DECODED_BODY_BYTES }));
  } catch (err) {
    throw new ArticleItemError(`${at} is not gzip of UTF-8 text: ${(err as Error).message}`);
  }
}

/**
 * An Articles item, as the SDK's document client, `unmarshall` or the stream decoder gives it, to the
 * article with its body as text. Reads record versions 2 to 7 (2 and 3 differ only in the body's
 * storage, 4 adds `published_at_structured`, null on older items, 5 `headline_declared` and `kicker`,
 * null, and `credit`, empty, 6 `date_order_flag`, null, 7 the same article, 8 `revision_count` and
 * `revisions`, 0 and [] on older items and on an item never revised; `record_version` is kept as stored)
 * and refuses others, naming the article.
 */
export function decodeArticleItem(item: Readonly<Record<string, unknown>>): Article {
  const at = `article ${String(item.article_id)}:`;
  if (!(READ_RECORD_VERSIONS as readonly unknown[]).includes(item.record_version))
    throw new ArticleItemError(
      `${at} record_version ${String(item.record_version)}, this reads ${READ_RECORD_VERSIONS.join(", ")}`,
    );
  const variants = item.url_variants;
  // Unknown attributes (body_encoding, the index's collected_day, v2's always-null cluster_id) are
  // dropped by the parse.
  const parsed = articleSchema.safeParse({
    // Written before v2's "always present" rule reached this field: nothing was cut.
    truncated: null,
    // Added in v4: older items had no byline-overridden date to keep.
    published_at_structured: null,
    // Added in v5: older items were read without them.
    headline_declared: null,
    kicker: null,
    credit: [],
    // Added in v6: older items did not say whether a numeric date's order was contested.
    date_order_flag: null,
    // Added in v8, and written only once an article has a revision.
    revision_count: 0,
    revisions: [],
    ...item,
    body: articleItemBody(item),
    // A string set in DynamoDB (copies of the article accumulate in it): sorted, as a list.
    url_variants: variants instanceof Set ? [...variants].sort() : (variants ?? []),
  });
  if (!parsed.success) throw new ArticleItemError(`${at} ${parsed.error.message}`);
  return parsed.data;
}

/** The article's attributes as the Articles item stores them (since version 3): the body compressed
 * (`bodyGzip`: encodeBody(article.body), when it was compressed already, in an import's worker). An
 * article with no revision stores no revision fields (they read as 0 and []), so a write that did not
 * read the article's history (a first fetch through another URL of it) leaves the stored history. */
export function articleItemFields<A extends { readonly body: string; readonly revision_count?: number }>(
  article: A,
  bodyGzip: Uint8Array = encodeBody(article.body),
): Omit<A, "body" | "record_version"> & {
  body: Uint8Array;
  body_encoding: typeof BODY_ENCODING;
  record_version: typeof RECORD_VERSION;
} {
  const { revision_count, revisions, ...rest } = article as A & { revisions?: unknown };
  return {
    ...(revision_count ? article : (rest as A)),
    record_version: RECORD_VERSION,
    body: bodyGzip,
    body_encoding: BODY_ENCODING,
  };
}
