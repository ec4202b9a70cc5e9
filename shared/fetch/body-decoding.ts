/**
 * A response body to bytes: streamed through its Content-Encoding decoders with the byte cap counted
 * before and after decompression, then a gzip file (sitemap.xml.gz) inflated under the same cap.
 */
import type http from "node:http";
import { Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { classify, LimitError, type Refusal } from "./fetch-errors";
import { drop } from "./response-drain";

/**
 * Content-Encodings a response may stack. Servers apply one (gzip or br); two leaves room for a proxy
 * that compresses again. Each listed coding costs a decoder before any body byte arrives: 21,000 `br`
 * in a 63 KB header took ~420 MB and 2.7 s to refuse.
 */
const MAX_ENCODINGS = 2;

/** Thrown inside the body pipeline to stop reading once a truncating fetch has enough. */
class EnoughError extends Error {}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** "deflate" is zlib-wrapped per RFC 9110 but some servers send raw deflate: pick by the first bytes. */
function deflateDecoder(): Transform {
  let inner: zlib.Inflate | zlib.InflateRaw | null = null;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!inner) {
        const b0 = chunk[0] ?? 0;
        const wrapped = chunk.length >= 2 && (b0 & 0x0f) === 8 && ((b0 << 8) | (chunk[1] ?? 0)) % 31 === 0;
        inner = wrapped ? zlib.createInflate() : zlib.createInflateRaw();
        inner.on("data", (d: Buffer) => this.push(d));
        inner.on("error", (e) => this.destroy(e));
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once("end", () => done());
      inner.end();
    },
    destroy(err, done) {
      inner?.destroy();
      done(err);
    },
  });
}

function decoderFor(encoding: string): NodeJS.ReadWriteStream | Transform | null | "unsupported" {
  switch (encoding) {
    case "":
    case "identity":
    case "none":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return deflateDecoder();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return "unsupported";
  }
}

/** The decoders for a Content-Encoding header, last-applied first; a refusal names what is wrong with it. */
function decodersFor(contentEncoding: string): NodeJS.ReadWriteStream[] | Refusal {
  const encodings = contentEncoding
    .toLowerCase()
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e && e !== "identity")
    .reverse();
  if (encodings.length > MAX_ENCODINGS) {
    const detail = `${encodings.length} stacked Content-Encodings; at most ${MAX_ENCODINGS} are decoded`;
    return { reason: "bad_encoding", detail };
  }
  const decoders: NodeJS.ReadWriteStream[] = [];
  for (const enc of encodings) {
    const d = decoderFor(enc);
    if (d === "unsupported") {
      return {
        reason: "bad_encoding",
        detail: `unsupported Content-Encoding ${contentEncoding.slice(0, 100)}`,
      };
    }
    if (d) decoders.push(d);
  }
  return decoders;
}

export interface BodyOptions {
  contentEncoding: string;
  maxBytes: number;
  /** Keep the first maxBytes instead of failing. */
  truncate: boolean;
  /** Inflate a body that is itself a gzip file (feeds and sitemaps; never pages). */
  gzipFile: boolean;
  signal: AbortSignal;
}

/**
 * Streams the body through the Content-Encoding decoders, counting bytes before and after decompression
 * so neither a large body nor a compression bomb gets past maxBytes. Returns a Refusal for an encoding it
 * will not decode or a gzip file it cannot; throws what the stream throws (classify maps it).
 */
export async function readBody(
  body: http.IncomingMessage,
  opts: BodyOptions,
): Promise<{ bytes: Uint8Array; truncated: boolean } | Refusal> {
  const { maxBytes, truncate } = opts;
  const decoders = decodersFor(opts.contentEncoding);
  if (!Array.isArray(decoders)) {
    drop(body);
    return decoders;
  }
  let raw = 0;
  const countRaw = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      raw += chunk.length;
      if (raw > maxBytes && !truncate) throw new LimitError(`body exceeds ${maxBytes} bytes`);
      yield chunk;
    }
  };
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const room = maxBytes - total;
      if (chunk.length > room) {
        if (!truncate) return done(new LimitError(`decoded body exceeds ${maxBytes} bytes`));
        chunks.push(chunk.subarray(0, room));
        total = maxBytes;
        truncated = true;
        return done(new EnoughError());
      }
      chunks.push(chunk);
      total += chunk.length;
      done();
    },
  });
  try {
    const streams: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = [
      Readable.from(countRaw(body)),
      ...decoders,
      sink,
    ];
    await pipeline(streams, { signal: opts.signal });
  } catch (err) {
    if (!(err instanceof EnoughError)) throw err;
  } finally {
    drop(body);
  }
  const bytes = Buffer.concat(chunks, total);
  if (!opts.gzipFile || !isGzip(bytes)) return { bytes, truncated };
  // A gzip file (sitemap.xml.gz) rather than a gzip transfer: inflate it under the same cap.
  try {
    return { bytes: zlib.gunzipSync(bytes, { maxOutputLength: maxBytes }), truncated };
  } catch (err) {
    const c = classify(err, false);
    if (c.reason !== "too_large" || !truncate) return { reason: c.reason, detail: `gzip body: ${c.detail}` };
    return { bytes: new Uint8Array(0), truncated: true };
  }
}
